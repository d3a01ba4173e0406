import Foundation
import Geodesy
import MapModel

/// One worker's generalised features, kept between views: a large feature (a coastline, a
/// country) is simplified once per resolution and then drawn from the cache by every metatile
/// it touches, instead of once per tile. Bounded: two resolutions at a time (a pyramid goes
/// zoom by zoom) and `vertexBudget` vertices in all; small features are not kept, since
/// simplifying them costs less than looking them up.
final class GeneralisedFeatures {
    private struct Key: Hashable {
        let source: ObjectIdentifier
        let feature: Int
    }

    /// Per resolution (the bits of the metres per pixel), most recently used last.
    private var resolutions: [(pixel: UInt64, features: [Key: Feature?])] = []
    private var vertices = 0
    /// Past this many vertices kept, the cache starts afresh.
    static let vertexBudget = 4_000_000
    /// Features with fewer vertices are simplified each time.
    static let smallestKept = 256

    /// `feature` of `source` as drawn with pixels of `pixel` metres; nil when none of it is a
    /// pixel large.
    func feature(_ feature: Feature, of source: ObjectIdentifier, pixel: Double) -> Feature? {
        let generaliser = Generaliser(pixel: pixel)
        let size = feature.geometries.reduce(0) { $0 + $1.vertexCount }
        guard size >= GeneralisedFeatures.smallestKept else { return generaliser.generalise(feature) }
        let bits = pixel.bitPattern
        let key = Key(source: source, feature: feature.index)
        let slot: Int
        if let known = resolutions.firstIndex(where: { $0.pixel == bits }) {
            slot = known
            if let cached = resolutions[slot].features[key] { return cached }
        } else {
            if resolutions.count == 2 { drop(0) }
            resolutions.append((bits, [:]))
            slot = resolutions.count - 1
        }
        let result = generaliser.generalise(feature)
        let kept = result.map { $0.geometries.reduce(0) { $0 + $1.vertexCount } } ?? 0
        if vertices + kept > GeneralisedFeatures.vertexBudget {
            resolutions = [(bits, [:])]
            vertices = 0
            resolutions[0].features[key] = result
        } else {
            resolutions[slot].features[key] = result
        }
        vertices += kept
        return result
    }

    private func drop(_ slot: Int) {
        vertices -= resolutions[slot].features.values.reduce(0) { total, feature in
            total + (feature?.geometries.reduce(0) { $0 + $1.vertexCount } ?? 0)
        }
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
