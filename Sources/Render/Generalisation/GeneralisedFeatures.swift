import Foundation
import Geodesy
import MapModel

/// One worker's generalised features, kept between views: a large feature (a coastline, a
/// country) is simplified once per resolution and then drawn from the cache by every metatile
/// it touches, instead of once per tile. Bounded: two resolutions at a time (a pyramid goes
/// zoom by zoom) and `byteBudget` estimated bytes in all, whatever the data and the zoom;
/// small features are not kept, since simplifying them costs less than looking them up, nor
/// those within the view that asks (no other view at the resolution draws them, but for a
/// metatile buffer's width): what is kept follows the views' edges, not the data, and a view
/// of the whole world keeps nothing.
final class GeneralisedFeatures {
    private struct Key: Hashable {
        let source: ObjectIdentifier
        let feature: Int
    }

    /// Per resolution (the bits of the metres per pixel), most recently used last.
    private var resolutions: [(pixel: UInt64, features: [Key: Feature?], bytes: Int)] = []
    /// The estimated bytes kept, over both resolutions.
    private(set) var bytes = 0
    /// Past this many bytes kept, the cache starts afresh.
    let byteBudget: Int
    static let defaultByteBudget = 32 << 20
    /// Features with fewer vertices are simplified each time.
    static let smallestKept = 256

    init(byteBudget: Int = GeneralisedFeatures.defaultByteBudget) {
        self.byteBudget = byteBudget
    }

    /// Features kept, over both resolutions.
    var count: Int { resolutions.reduce(0) { $0 + $1.features.count } }

    /// `feature` of `source` as drawn with pixels of `pixel` metres; nil when none of it is a
    /// pixel large. `area`: the extent read by the view that asks (Web Mercator metres); a
    /// feature within it is not kept.
    func feature(_ feature: Feature, of source: ObjectIdentifier, pixel: Double, area: Rect? = nil) -> Feature? {
        let generaliser = Generaliser(pixel: pixel)
        let size = feature.geometries.reduce(0) { $0 + $1.vertexCount }
        guard size >= GeneralisedFeatures.smallestKept, area.map({ !$0.contains(feature.bounds) }) ?? true else {
            return generaliser.generalise(feature)
        }
        let bits = pixel.bitPattern
        let key = Key(source: source, feature: feature.index)
        let slot: Int
        if let known = resolutions.firstIndex(where: { $0.pixel == bits }) {
            slot = known
            if let cached = resolutions[slot].features[key] { return cached }
        } else {
            if resolutions.count == 2 { drop(0) }
            resolutions.append((bits, [:], 0))
            slot = resolutions.count - 1
        }
        let result = generaliser.generalise(feature)
        let kept = (result?.estimatedBytes ?? 0) + MemoryLayout<Key>.stride + MemoryLayout<Feature?>.stride
        guard kept <= byteBudget else { return result }
        if bytes + kept > byteBudget {
            resolutions = [(bits, [:], 0)]
            bytes = 0
            resolutions[0].features[key] = result
            resolutions[0].bytes = kept
        } else {
            resolutions[slot].features[key] = result
            resolutions[slot].bytes += kept
        }
        bytes += kept
        return result
    }

    private func drop(_ slot: Int) {
        bytes -= resolutions[slot].bytes
        resolutions.remove(at: slot)
    }

    /// Projected metres (Web Mercator, the features' plane) per pixel of `view`: its
    /// resolution in Web Mercator; in another plane, the smallest over the view's corners and
    /// centre (where a pixel covers the fewest Web Mercator metres), so that no part of the
    /// view is simplified coarser than a pixel. Nil when it cannot be told (a view reaching
    /// outside its plane's domain): such a view is drawn unsimplified.
    static func pixel(of view: View) -> Double? {
        guard view.plane != nil else { return view.resolution }
        let bounds = view.globalBounds
        var smallest = Double.infinity
        for p in bounds.corners + [bounds.center] {
            let a = view.mercator(globalPixel: p)
            let b = view.mercator(globalPixel: PlanePoint(x: p.x + 1, y: p.y))
            let c = view.mercator(globalPixel: PlanePoint(x: p.x, y: p.y + 1))
            let size = min(hypot(b.x - a.x, b.y - a.y), hypot(c.x - a.x, c.y - a.y))
            guard size.isFinite, size > 0 else { return nil }
            smallest = min(smallest, size)
        }
        return smallest
    }
}
