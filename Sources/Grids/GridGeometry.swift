import Geodesy

/// A vertex of a grid line, in the plane and on the ellipsoid.
public struct GridVertex: Hashable, Sendable {
    public var point: PlanePoint
    public var position: GeoPosition

    public init(point: PlanePoint, position: GeoPosition) {
        self.point = point
        self.position = position
    }
}

/// The order in which labels claim space: a label is dropped when it would overlap one that
/// outranks it. Coarser levels come first, then "rounder" values (more trailing zero bits in
/// the line or cell index, so that crowded labels thin out to every 2nd, 4th, 8th line),
/// then a fixed tie-break.
public struct GridLabelRank: Hashable, Sendable, Comparable {
    public var level: Int
    public var roundness: Int
    /// Tie-breaks: cell labels before line labels, then by axis, zone and value.
    public var order: Int
    public var key: Double

    public init(level: Int, roundness: Int, order: Int, key: Double) {
        self.level = level
        self.roundness = roundness
        self.order = order
        self.key = key
    }

    /// `a < b` when a outranks b.
    public static func < (a: GridLabelRank, b: GridLabelRank) -> Bool {
        if a.level != b.level { return a.level < b.level }
        if a.roundness != b.roundness { return a.roundness > b.roundness }
        if a.order != b.order { return a.order < b.order }
        return a.key < b.key
    }

    /// Trailing zero bits of an index, capped: 0 has the most.
    static func roundness(_ index: Int64, cap: Int = 8) -> Int {
        index == 0 ? cap : Swift.min(cap, index.trailingZeroBitCount)
    }
}

/// One drawn piece of a grid line: a run of consecutive chunks of the line that reach the
/// area asked for. A line's chunks start at fixed points (multiples of a step that depends
/// only on the resolution, and the line's ends), so its vertices are the same in every view.
public struct GridLine: Sendable {
    public var level: Int
    public var axis: GridAxis
    /// The grid zone designator of the cell the piece lies in (`18S`, `Z`); nil for latitude/longitude.
    public var zone: String?
    /// Metres in the zone's own UTM or UPS coordinates (northings with the 10,000 km false
    /// northing in the south), or degrees for meridians, parallels and boundaries.
    public var value: Double
    /// The line's label text (`323000mE`, `23km`, `45°30'N`); nil for lines without one
    /// (zone boundaries, MGRS 100 km lines, which the square letters name), and for UTM,
    /// MGRS, USNG and UPS lines made without labels (`GridRequest.labels` false).
    public var label: String?
    public var labelRank: GridLabelRank
    public var vertices: [GridVertex]
    /// Indices in `vertices` where a chunk starts (always including 0): dash patterns restart
    /// there, so dashes are the same in every tile.
    public var chunkStarts: [Int]

    public init(
        level: Int, axis: GridAxis, zone: String?, value: Double, label: String?,
        labelRank: GridLabelRank, vertices: [GridVertex] = [], chunkStarts: [Int] = []
    ) {
        self.level = level
        self.axis = axis
        self.zone = zone
        self.value = value
        self.label = label
        self.labelRank = labelRank
        self.vertices = vertices
        self.chunkStarts = chunkStarts
    }
}

/// A label anchored on the map: a zone or square name at (a point of) its cell, or a
/// line's value at a fixed point along it.
public struct GridLabel: Sendable {
    public enum Kind: Sendable { case cell, line }

    public var kind: Kind
    public var level: Int
    public var text: String
    /// Where the label's centre goes, in the plane.
    public var anchor: PlanePoint
    public var position: GeoPosition
    public var axis: GridAxis?
    public var zone: String?
    public var rank: GridLabelRank
    /// For cell labels: the plane bounds of the part of the cell the label names.
    public var room: Rect?
    /// For line labels: the value of the line (degrees or metres), as `GridLine.value`.
    public var lineValue: Double?

    public init(
        kind: Kind, level: Int, text: String, anchor: PlanePoint, position: GeoPosition,
        axis: GridAxis?, zone: String?, rank: GridLabelRank, room: Rect? = nil, lineValue: Double? = nil
    ) {
        self.lineValue = lineValue
        self.kind = kind
        self.level = level
        self.text = text
        self.anchor = anchor
        self.position = position
        self.axis = axis
        self.zone = zone
        self.rank = rank
        self.room = room
    }
}

public enum GridEdge: String, CaseIterable, Sendable { case top, bottom, left, right }

/// Where a grid line meets a horizontal or vertical line (a view edge, a neatline, an axis).
public struct GridCrossing: Sendable {
    /// Index into `GridGeometry.lines`.
    public var lineIndex: Int
    public var point: PlanePoint
    public var edge: GridEdge?
}

/// How far apart one family of lines is (meridians or eastings; parallels or northings), in
/// degrees or metres: lines lie at `offset + k·step`, and each level coarser than the finest
/// at its own step.
public struct GridSpacing: Sendable, Equatable {
    public var step: Double
    public var offset: Double
    /// The steps of the levels of the family, coarse to fine (the finest may be `step`).
    public var levelSteps: [Double]

    public init(step: Double, offset: Double = 0, levelSteps: [Double] = []) {
        self.step = step
        self.offset = offset
        self.levelSteps = levelSteps
    }
}

/// A generated grid: the lines and anchored labels that reach an area of the plane.
public struct GridGeometry: Sendable {
    public var type: GridType
    /// The levels drawn, coarse to fine.
    public var levels: [Int]
    public var area: Rect
    public var lines: [GridLine]
    public var labels: [GridLabel]
    /// The spacing of the lines that run up the map (meridians, eastings) and across it
    /// (parallels, northings); nil when only zone boundaries are drawn.
    public var spacing: (x: GridSpacing, y: GridSpacing)?

    public init(
        type: GridType, levels: [Int], area: Rect, lines: [GridLine], labels: [GridLabel],
        spacing: (x: GridSpacing, y: GridSpacing)? = nil
    ) {
        self.type = type
        self.levels = levels
        self.area = area
        self.lines = lines
        self.labels = labels
        self.spacing = spacing
    }

    /// Crossings of every line with the horizontal line `y` between `x0` and `x1`, left to right.
    public func crossings(horizontalAt y: Double, from x0: Double, to x1: Double) -> [GridCrossing] {
        crossings(at: y, from: x0, to: x1, across: { $0.y }, along: { $0.x }, point: { PlanePoint(x: $0, y: $1) })
    }

    /// Crossings of every line with the vertical line `x` between `y0` and `y1`, top to bottom.
    public func crossings(verticalAt x: Double, from y0: Double, to y1: Double) -> [GridCrossing] {
        crossings(at: x, from: y0, to: y1, across: { $0.x }, along: { $0.y }, point: { PlanePoint(x: $1, y: $0) })
    }

    /// Crossings with the axis-parallel line where `across` equals `value`, between `from` and
    /// `to` in the `along` coordinate, sorted along it. `point(along, value)` builds the point.
    private func crossings(
        at value: Double, from start: Double, to end: Double,
        across: (PlanePoint) -> Double, along: (PlanePoint) -> Double,
        point: (Double, Double) -> PlanePoint
    ) -> [GridCrossing] {
        var found: [(position: Double, crossing: GridCrossing)] = []
        for (index, line) in lines.enumerated() {
            let v = line.vertices
            guard v.count >= 2 else { continue }
            for i in 0..<(v.count - 1) {
                let a = v[i].point
                let b = v[i + 1].point
                let au = across(a)
                let bu = across(b)
                // Half-open, so a crossing at a shared vertex counts once.
                guard (au <= value && bu > value) || (bu <= value && au > value) else { continue }
                let position = along(a) + (along(b) - along(a)) * (value - au) / (bu - au)
                if position >= start && position <= end {
                    found.append((position, GridCrossing(lineIndex: index, point: point(position, value), edge: nil)))
                }
            }
        }
        return found.sorted { $0.position < $1.position }.map(\.crossing)
    }

    /// Where lines cross the edges of `rect` (the area by default): for frame labels and ticks.
    public func edgeCrossings(_ edges: [GridEdge] = GridEdge.allCases, of rect: Rect? = nil) -> [GridCrossing] {
        let r = rect ?? area
        var found: [GridCrossing] = []
        for edge in edges {
            let along: [GridCrossing]
            switch edge {
            case .top: along = crossings(horizontalAt: r.minY, from: r.minX, to: r.maxX)
            case .bottom: along = crossings(horizontalAt: r.maxY, from: r.minX, to: r.maxX)
            case .left: along = crossings(verticalAt: r.minX, from: r.minY, to: r.maxY)
            case .right: along = crossings(verticalAt: r.maxX, from: r.minY, to: r.maxY)
            }
            found += along.map { GridCrossing(lineIndex: $0.lineIndex, point: $0.point, edge: edge) }
        }
        return found
    }
}
