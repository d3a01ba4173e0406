import Geodesy

/// What grid generation can reuse from one view to the next: where each UTM line enters and
/// leaves its grid zones. Those ends are found by root-finding (most of the cost of
/// generating a view) and depend on the line alone, never on the view or the zoom, so a tile
/// job, whose metatiles share their lines with their neighbours, finds each once. Also kept:
/// the chunks of lines at a resolution, each zone's cell ranges and the 100 km squares' outlines
/// (and their parts on a resolution's plane), and the positions of label stops along lines,
/// which the metatiles and label regions of a zoom would otherwise work out again and again.
///
/// One cache per thread (a tile worker): it is a plain class, not safe to share. It only ever
/// returns what generation would compute, so results are the same bits with or without it.
///
/// Its tables are `@exclusivity(unchecked)`: used by one thread, and no value is made
/// (`remember`'s `make`, while its table is held `inout`) by asking the same table again; the
/// squares' planes ask for their pieces, another table. Checked, each look-up began and ended a
/// dynamic access, about 1 M instructions over the New York MGRS pyramid.
public final class GridCache {
    struct EastingKey: Hashable {
        let zone: Int
        /// A zone's grid carried over its edges (`GridRequest.zone`) has other pieces.
        let extended: Bool
        let easting: Double
        /// The band indices of the cells asked about, as bits (an array allocated and hashed
        /// for every line cost more than the rest of the look-up).
        let bands: UInt32
    }

    struct NorthingKey: Hashable {
        let zone: Int
        let extended: Bool
        let northing: Double
    }

    typealias Pieces = [(cell: UTMCell, range: ClosedRange<Double>)]

    /// One chunk of a UTM line (`GridBuilder.addLine`): the line (its zone's easting or
    /// northing line through `value`), the chunk's parameter range, the side of 180° and the
    /// projection's scale.
    struct ChunkKey: Hashable {
        let zone: Int
        let axis: GridAxis
        let value: Double
        let from: Double
        let to: Double
        let westOf180: Bool
        let scale: Double

        /// The line, the chunk's start and the scale, in three words: they tell a zoom's
        /// chunks apart (a chunk's end and side follow from its start and the line). The
        /// synthesized hash took seven fields, the axis by its name (a string hashed), some
        /// 670 instructions a look-up. Equality still compares every field.
        func hash(into hasher: inout Hasher) {
            hasher.combine(GridCache.lineWord(zone, axis, value))
            hasher.combine(from.bitPattern)
            hasher.combine(scale.bitPattern)
        }
    }

    /// A zone, axis and line value folded into one word for hashing (not a key: equality
    /// compares the fields).
    @inline(__always)
    static func lineWord(_ zone: Int, _ axis: GridAxis, _ value: Double) -> UInt64 {
        value.bitPattern ^ (UInt64(truncatingIfNeeded: zone) &<< 3 | axis.hashCode) &* 0x9E37_79B9_7F4A_7C15
    }

    @exclusivity(unchecked) private var eastings: [EastingKey: Pieces] = [:]
    @exclusivity(unchecked) private var northings: [NorthingKey: Pieces] = [:]
    /// Bounds memory in long jobs: a z14 world pyramid meets millions of lines.
    static let limit = 100_000

    public init() {}

    func eastingPieces(_ key: EastingKey, _ make: () -> Pieces) -> Pieces {
        GridCache.remember(key, in: &eastings, make)
    }

    /// A chunk's vertices, densified, in the projection's plane. Label regions and metatiles
    /// overlap, so a tile job meets each chunk several times at a zoom; each costs a few
    /// transverse Mercator inversions.
    @exclusivity(unchecked) private var chunks: [ChunkKey: [GridVertex]] = [:]

    func chunk(_ key: ChunkKey, _ make: () -> [GridVertex]) -> [GridVertex] {
        // Room for a tile job's first thousands at once: grown by doubling from empty, the
        // table was rehashed a dozen times (1.4 M instructions in the New York MGRS pyramid).
        if chunks.isEmpty { chunks.reserveCapacity(GridCache.initialChunks) }
        return GridCache.remember(key, in: &chunks, make)
    }

    /// Chunks and stops the tables are made room for at first (some 300 KB and 100 KB).
    static let initialChunks = 4_096
    static let initialStops = 2_048

    /// The easting range of each of a zone's cells (`UTMCell.all`), for its northing lines:
    /// a few transverse Mercator evaluations for each of the zone's twenty cells, the same in
    /// every view.
    @exclusivity(unchecked) private var zoneCellEastings: [Int: [ClosedRange<Double>]] = [:]

    func cellEastings(zone: Int, _ make: () -> [ClosedRange<Double>]) -> [ClosedRange<Double>] {
        GridCache.remember(zone, in: &zoneCellEastings, make)
    }

    /// A 100 km square of a zone (`SquareLabelGenerator`), by its indices.
    struct SquareKey: Hashable {
        let zone: Int
        let i: Double
        let j: Double
    }

    /// Each square's parts in its zone's cells, in degrees: 32 transverse Mercator
    /// inversions and a clip each, and a square spans many label regions.
    @exclusivity(unchecked) private var squares: [SquareKey: [(cell: UTMCell, piece: [PlanePoint])]] = [:]

    func squarePieces(_ key: SquareKey, _ make: () -> [(cell: UTMCell, piece: [PlanePoint])]) -> [(
        cell: UTMCell, piece: [PlanePoint]
    )] {
        GridCache.remember(key, in: &squares, make)
    }

    /// A label stop on a UTM line: the zone, the line (its axis and value, the northing
    /// signed) and the parameter along it. Its position does not depend on the zoom.
    struct StopKey: Hashable {
        let zone: Int
        let axis: GridAxis
        let value: Double
        let t: Double

        /// Two words, not the axis's name hashed as a string (see `ChunkKey`).
        func hash(into hasher: inout Hasher) {
            hasher.combine(GridCache.lineWord(zone, axis, value))
            hasher.combine(t.bitPattern)
        }
    }

    @exclusivity(unchecked) private var stops: [StopKey: GeoPosition] = [:]
    /// How many stops were worked out rather than found (tests count them).
    @exclusivity(unchecked) private(set) var stopsMade = 0

    func stop(_ key: StopKey, _ make: () -> GeoPosition) -> GeoPosition {
        if stops.isEmpty { stops.reserveCapacity(GridCache.initialStops) }
        return GridCache.remember(key, in: &stops) {
            stopsMade += 1
            return make()
        }
    }

    /// A 100 km square's parts on a plane of one scale (Web Mercator global pixels), and
    /// the cell of its largest part: 32 projections a part for every label region that
    /// meets the square.
    struct SquarePlaneKey: Hashable {
        let square: SquareKey
        let scale: Double
    }

    typealias SquarePlane = (parts: [[PlanePoint]], cell: UTMCell?)
    @exclusivity(unchecked) private var squarePlanes: [SquarePlaneKey: SquarePlane] = [:]

    /// Fewer than the other tables: a square's parts are about a kilobyte (4 MB in all).
    static let squarePlaneLimit = 4_096

    func squarePlane(_ key: SquarePlaneKey, _ make: () -> SquarePlane) -> SquarePlane {
        GridCache.remember(key, in: &squarePlanes, limit: GridCache.squarePlaneLimit, make)
    }

    /// Numbers the renderer measures for a grid and would measure again in every view (how
    /// far a label reaches: text laid out), by a key of its own.
    @exclusivity(unchecked) private var measures: [AnyHashable: Double] = [:]

    /// The value kept for `key`, made by `make` the first time.
    public func measure(_ key: AnyHashable, _ make: () -> Double) -> Double {
        GridCache.remember(key, in: &measures, make)
    }

    func northingPieces(_ key: NorthingKey, _ make: () -> Pieces) -> Pieces {
        GridCache.remember(key, in: &northings, make)
    }

    private static func remember<Key: Hashable, Value>(
        _ key: Key, in table: inout [Key: Value], limit: Int = GridCache.limit, _ make: () -> Value
    ) -> Value {
        if let known = table[key] { return known }
        if table.count >= limit { table.removeAll(keepingCapacity: true) }
        let value = make()
        table[key] = value
        return value
    }
}
