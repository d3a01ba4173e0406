import Geodesy
import MapModel

/// What an indexed source's reader (OGR's or `GeoPackageReader`) keeps of the features it
/// converted, and how it hands each to a view: kept by id, bounded by bytes, not vertices (a
/// layer of points has few vertices per feature but hundreds of bytes of attributes each:
/// 300,000 places once held 300 MB per worker).
///
/// Only features reaching beyond the query that read them are kept: the next views (the
/// neighbouring metatiles) ask for those again, while a feature within the query is asked for
/// by no view beside this one's own label blocks (cheap to convert again: most are points). So
/// what is kept follows the views' edges, not the data: a view of the whole world keeps
/// nothing, where it used to fill the budget with any data larger than it.
///
/// And they are kept only while the views can still come to them: a tile job asks a reader
/// for its metatiles row after row from the north (`ViewSweep`), so a feature wholly north of
/// the view being read is asked for by no later view of the zoom. Those are dropped as the
/// views move south: at zoom 7-8 of the large benchmark, every shoreline piece crossing a
/// metatile's edge stayed until the budget (16 MB a reader) was full.
struct ConvertedFeatures {
    private(set) var kept = BudgetedCache<Int, Feature>(budget: ConvertedFeatures.cacheBytes)
    /// The most bytes of converted features kept by one reader.
    static let cacheBytes = 16 << 20
    private var sweep = ViewSweep()

    /// Called by a reader once per view (`rect`), before its features: drops the features no
    /// later view of a sweep asks for.
    mutating func beginView(_ rect: Rect) {
        guard sweep.advance(to: rect), let front = sweep.front else { return }
        kept.removeAll { $0.bounds.minY > front }
    }

    /// Hands `body` feature `id` as the view of `rect` gets it, if its bounds meet `rect`: kept,
    /// else `collapsed` when the caller draws lines simplified to `tolerance` and it gives the
    /// feature as its ends (see `OGRFeatureConverter.collapsedLine`; such a feature is not kept:
    /// it serves only its tolerance and costs little to make again), else `converted`.
    mutating func visit(
        _ id: Int, in rect: Rect, collapsingLinesWithin tolerance: Double?,
        collapsed: (Double) -> (feature: Feature, bounds: Rect)?, converted: () throws -> Feature,
        _ body: (Feature) throws -> Void
    ) throws {
        let feature: Feature
        if let known = kept[id] {
            feature = known
        } else if let tolerance, let line = collapsed(tolerance) {
            if line.bounds.intersects(rect) { try body(line.feature) }
            return
        } else {
            feature = try converted()
            if feature.bounds.intersects(rect), !rect.contains(feature.bounds) {
                kept.insert(feature, for: id, bytes: feature.estimatedBytes)
            }
        }
        if feature.bounds.intersects(rect) { try body(feature) }
    }
}

/// A reader that reads view by view and hands features over one at a time (OGR's indexed
/// reader, `GeoPackageReader`): the rest of `FeatureReader` follows from that.
protocol ViewReader: FeatureReader {}

extension ViewReader {
    func features(in rect: Rect) throws -> [Feature] {
        var found: [Feature] = []
        try visitFeatures(in: rect) { found.append($0) }
        found.sort { $0.index < $1.index }
        return found
    }

    func visitFeatures(in rect: Rect, _ body: (Feature) throws -> Void) throws {
        try visitFeatures(in: rect, collapsingLinesWithin: nil, body)
    }
}
