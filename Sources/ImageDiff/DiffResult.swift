import Raster

/// The outcome of comparing an expected image with an actual one.
public struct DiffResult: Sendable {
    public let expectedSize: ImageSize
    public let actualSize: ImageSize
    /// Pixels that differ beyond the threshold and count as differences (anti-aliased ones
    /// only when the comparator includes them). When the sizes differ, every pixel of the
    /// larger image.
    public let differingPixels: Int
    /// Pixels that differ beyond the threshold but were recognised as anti-aliasing and not
    /// counted (always 0 when the comparator counts anti-aliasing).
    public let antiAliasedPixels: Int
    /// Pixels compared: those of the expected image, or of the larger one when sizes differ.
    public let totalPixels: Int
    /// Faded grey copy of the expected image with differing pixels red and anti-aliased ones
    /// yellow; nil when not asked for or when the sizes differ.
    public let diffImage: Image?

    public var sizesDiffer: Bool { expectedSize != actualSize }

    /// `differingPixels / totalPixels`; 1 when the sizes differ, 0 for two empty images.
    public var differingFraction: Double {
        if sizesDiffer { return 1 }
        return totalPixels == 0 ? 0 : Double(differingPixels) / Double(totalPixels)
    }

    /// One line for people: `812 of 65536 pixels differ (1.239%), 40 anti-aliased not counted`.
    public var summary: String {
        if sizesDiffer { return "sizes differ: expected \(expectedSize), actual \(actualSize)" }
        var text = "\(differingPixels) of \(totalPixels) pixels differ (\(DiffResult.percent(differingFraction)))"
        if antiAliasedPixels > 0 { text += ", \(antiAliasedPixels) anti-aliased not counted" }
        return text
    }

    /// A percentage with enough digits to show one pixel in a large image.
    public static func percent(_ fraction: Double) -> String {
        let value = fraction * 100
        if value == 0 || value >= 10 { return formatted(value, decimals: 1) + "%" }
        if value >= 0.01 { return formatted(value, decimals: 3) + "%" }
        return formatted(value, decimals: 6) + "%"
    }

    private static func formatted(_ value: Double, decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int((value * scale).rounded())
        let whole = scaled / Int(scale)
        let fraction = String(scaled % Int(scale))
        return "\(whole)." + String(repeating: "0", count: decimals - fraction.count) + fraction
    }
}
