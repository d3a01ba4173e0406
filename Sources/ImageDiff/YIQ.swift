/// The perceptual colour distance of Kotsarenko and Ramos ("Measuring perceived color
/// difference using YIQ NTSC transmission color space in mobile applications", 2010):
/// colours go to the YIQ space of NTSC television, and the squared difference weighs
/// luma Y, and the chroma axes I and Q, by how much each is perceived.
enum YIQ {
    // RGB -> YIQ coefficients and the perceptual weights, as published.
    static let yr = 0.29889531, yg = 0.58662247, yb = 0.11448223
    static let ir = 0.59597799, ig = -0.27417610, ib = -0.32180189
    static let qr = 0.21147017, qg = -0.52261711, qb = 0.31114694
    static let wy = 0.5053, wi = 0.299, wq = 0.1957

    /// The largest possible distance, between two opaque colours: the weighted form is a
    /// convex quadratic in the RGB difference, so its maximum over the cube of differences
    /// lies on a corner (each channel differing by -255, 0 or +255). A threshold of 1 is
    /// this distance.
    static let maximumDistance: Double = {
        var largest = 0.0
        for dr in [-255.0, 0, 255] {
            for dg in [-255.0, 0, 255] {
                for db in [-255.0, 0, 255] {
                    largest = max(largest, weighted(dr, dg, db))
                }
            }
        }
        return largest
    }()

    /// Weighted squared YIQ distance for an RGB difference (the transform is linear).
    @inline(__always) static func weighted(_ dr: Double, _ dg: Double, _ db: Double) -> Double {
        let y = yr * dr + yg * dg + yb * db
        let i = ir * dr + ig * dg + ib * db
        let q = qr * dr + qg * dg + qb * db
        return wy * y * y + wi * i * i + wq * q * q
    }

    /// A channel value blended over white by its alpha: transparent pixels look white,
    /// as they do on a page or on a default map background.
    @inline(__always) static func overWhite(_ channel: UInt8, _ alpha: Double) -> Double {
        255 + (Double(channel) - 255) * alpha
    }

    /// Distance between two RGBA pixels, each blended over white first.
    @inline(__always) static func distance(_ p: UInt32, _ q: UInt32) -> Double {
        let a1 = Double(p >> 24) / 255
        let a2 = Double(q >> 24) / 255
        let dr = overWhite(UInt8(truncatingIfNeeded: p), a1) - overWhite(UInt8(truncatingIfNeeded: q), a2)
        let dg = overWhite(UInt8(truncatingIfNeeded: p >> 8), a1) - overWhite(UInt8(truncatingIfNeeded: q >> 8), a2)
        let db = overWhite(UInt8(truncatingIfNeeded: p >> 16), a1) - overWhite(UInt8(truncatingIfNeeded: q >> 16), a2)
        return weighted(dr, dg, db)
    }

    /// Luma Y of a pixel blended over white, 0...255.
    @inline(__always) static func luma(_ p: UInt32) -> Double {
        let a = Double(p >> 24) / 255
        return yr * overWhite(UInt8(truncatingIfNeeded: p), a)
            + yg * overWhite(UInt8(truncatingIfNeeded: p >> 8), a)
            + yb * overWhite(UInt8(truncatingIfNeeded: p >> 16), a)
    }
}
