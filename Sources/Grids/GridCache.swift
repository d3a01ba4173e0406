/// What grid generation can reuse from one view to the next: where each UTM line enters and
/// leaves its grid zones. Those ends are found by root-finding (most of the cost of
/// generating a view) and depend on the line alone, never on the view or the zoom, so a tile
/// job, whose metatiles share their lines with their neighbours, finds each once.
///
/// One cache per thread (a tile worker): it is a plain class, not safe to share. It only ever
/// returns what generation would compute, so results are the same bits with or without it.
public final class GridCache {
    struct EastingKey: Hashable {
        let zone: Int
        /// A zone's grid carried over its edges (`GridRequest.zone`) has other pieces.
        let extended: Bool
        let easting: Double
        /// The band indices of the cells asked about.
        let bands: [Int]
    }

    struct NorthingKey: Hashable {
        let zone: Int
        let extended: Bool
        let northing: Double
    }

    typealias Pieces = [(cell: UTMCell, range: ClosedRange<Double>)]

    private var eastings: [EastingKey: Pieces] = [:]
    private var northings: [NorthingKey: Pieces] = [:]
    /// Bounds memory in long jobs: a z14 world pyramid meets millions of lines.
    static let limit = 100_000

    public init() {}

    func eastingPieces(_ key: EastingKey, _ make: () -> Pieces) -> Pieces {
        GridCache.remember(key, in: &eastings, make)
    }

    func northingPieces(_ key: NorthingKey, _ make: () -> Pieces) -> Pieces {
        GridCache.remember(key, in: &northings, make)
    }

    private static func remember<Key: Hashable>(_ key: Key, in table: inout [Key: Pieces], _ make: () -> Pieces)
        -> Pieces
    {
        if let known = table[key] { return known }
        if table.count >= limit { table.removeAll(keepingCapacity: true) }
        let pieces = make()
        table[key] = pieces
        return pieces
    }
}
