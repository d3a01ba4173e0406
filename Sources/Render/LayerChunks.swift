import MapModel

/// Drawing a layer a chunk at a time as it is read, instead of holding all of its features for
/// the view. A view of the whole world at zoom 0-3 holds every shoreline piece of the large
/// benchmark, some 100 MB a worker while its arrays grow; drawn in chunks of a few megabytes,
/// it holds one chunk.
///
/// The pixels stay those of the whole layer drawn at once when two things hold:
/// - each feature is drawn on its own, in one pass, with nothing carried to the next
///   (`FeaturePainter.paintsInBatches`), for every rule the view may apply and every kind of
///   geometry the source may hold, so that no chunk could need another way of painting;
/// - the chunks come in drawing order: every feature read after a chunk was drawn has an index
///   at least as large as any drawn (equal indices keep the order read, as `HeldLayer` sorts).
///   Readers read in ascending index (the in-memory store, a GeoPackage table in id order), but
///   `FeatureReader.visitFeatures` does not promise it, so the order is checked as the features
///   come, and a source found out of order is drawn whole from then on (`OutOfOrder`).
enum LayerChunks {
    /// Estimated bytes of a layer's features held before they are drawn and dropped.
    static let defaultBytes = 4 << 20

    /// Whether layer `layer`, drawn by the rules `active`, may be drawn in chunks, its source
    /// holding geometry of `kinds` (nil: not known).
    static func apply(to layer: Layer, active: [Int], kinds: Set<Geometry.Kind>?) -> Bool {
        FeaturePainter.paintsInBatches(layer, rules: Set(active), kinds: kinds ?? [.point, .line, .polygon])
    }

    /// A feature read with a smaller index than one already drawn: the view must be drawn
    /// again with the source held whole.
    struct OutOfOrder: Error {
        let source: ObjectIdentifier
    }
}
