import Foundation
import Geodesy

/// Easting and northing lines of UTM zones (levels 1 and finer of UTM, MGRS and USNG), each
/// in its zone's own coordinates and stopping at the zone's edge.
///
/// A line is cut into pieces, one per grid zone (zone × band) it crosses: an easting line at
/// the northings where it meets each band's parallels, a northing line at the eastings
/// where it meets them (parallels curve across the grid, so a northing line near a band edge
/// can dip into the next band). Each piece is then clipped to its cell's meridians. All cut
/// points are found by root-finding from brackets that depend only on the line and the cell,
/// never on the view, and adjacent pieces share their end vertex.
enum UTMLineGenerator {
    static let rootTolerance = 1e-7  // metres
    static let angleTolerance = 1e-12  // degrees

    static func generate<P: GridProjection>(_ b: inout GridBuilder<P>, type: GridType) {
        let xs = b.plan.x
        let ys = b.plan.y
        guard !xs.isEmpty || !ys.isEmpty else { return }
        let (finest, chunk, period) = b.metreSteps()
        let centre = b.centrePosition
        let geo = b.geoQuery.intersection(GeoBox(south: -80, north: 84, west: -180, east: 180))
        guard !geo.isEmpty else { return }

        let extended = b.request.zone
        for zone in extended.map({ $0...$0 }) ?? 1...60 {
            let frame = UTMZoneFrame(zone: zone)
            let cells: [UTMCell]
            let eWindow: ClosedRange<Double>
            let nWindow: ClosedRange<Double>
            if extended != nil {
                // One zone's grid over the whole area: its cells reach across the zone's edges,
                // and the windows come from the area's own edges (the zone's coordinates of a
                // rectangle are extreme on its edges: the projections are conformal).
                cells = UTMCell.extended(zone: zone).filter { $0.box.intersects(geo) }
                guard let r = b.zoneRanges(frame) else { continue }
                eWindow = r.easting
                nWindow = r.northing
            } else {
                cells = UTMCell.all[zone - 1]
                var e0 = Double.infinity
                var e1 = -Double.infinity
                var n0 = Double.infinity
                var n1 = -Double.infinity
                for cell in cells where cell.box.intersects(geo) {
                    let r = frame.ranges(cell.box.intersection(geo))
                    e0 = Swift.min(e0, r.easting.lowerBound)
                    e1 = Swift.max(e1, r.easting.upperBound)
                    n0 = Swift.min(n0, r.northing.lowerBound)
                    n1 = Swift.max(n1, r.northing.upperBound)
                }
                guard e0 <= e1, n0 <= n1 else { continue }
                eWindow = e0...e1
                nWindow = n0...n1
            }
            let visible = cells.filter { $0.box.intersects(geo) }
            guard !visible.isEmpty else { continue }
            var bands: UInt32 = 0
            for cell in visible { bands |= 1 << UInt32(cell.band.index) }
            let (e0, e1, n0, n1) = (eWindow.lowerBound, eWindow.upperBound, nWindow.lowerBound, nWindow.upperBound)
            let middle = extended == nil ? b.centrePosition(within: visible.map(\.box)) : centre
            let c = frame.coordinates(latitude: middle.latitude, longitude: middle.longitude)
            let eOffset = b.labelOffset(step: finest, centre: c.easting)
            let nOffset = b.labelOffset(step: finest, centre: c.northing)
            // Each cell's easting range, computed once for all the zone's northing lines (an
            // extended cell reaches as far as the area does).
            let eastings =
                extended != nil
                ? cells.map { _ in eWindow }
                : b.cache?.cellEastings(zone: zone) { cells.map { frame.ranges($0.box).easting } }
                    ?? cells.map { frame.ranges($0.box).easting }
            let cellRanges = zip(cells, eastings).map { (cell: $0, easting: $1) }

            // Easting lines: the parameter is the signed northing.
            for k in xs.indices(from: e0, to: e1) {
                let v = xs.value(k)
                guard let level = xs.owner(v) else { continue }
                let e = Double(v)
                let text = b.lineText(e, axis: .easting, level: level, series: xs)
                let rank = GridLabelRank(
                    level: level, roundness: GridLabelRank.roundness(k), order: 1, key: Double(zone) * 1e7 + e)
                let found =
                    b.cache.map { cache in
                        cache.eastingPieces(
                            .init(zone: zone, extended: extended != nil, easting: e, bands: bands)
                        ) {
                            eastingPieces(frame, easting: e, cells: visible)
                        }
                    } ?? eastingPieces(frame, easting: e, cells: visible)
                // A loop, not `map`: the closure's generic result left `map` unspecialised, a
                // few thousand instructions a line.
                var pieces: [GridBuilder<P>.Piece] = []
                pieces.reserveCapacity(found.count)
                for piece in found {
                    pieces.append(
                        .init(
                            line: GridLine(
                                level: level, axis: .easting, zone: piece.cell.designator, value: e, label: text,
                                labelRank: rank),
                            t0: piece.range.lowerBound, t1: piece.range.upperBound))
                }
                b.addLine(pieces, step: chunk, window: nWindow, chunkLine: (zone, .easting, e)) {
                    frame.position(e, $0)
                }
                // Without labels (a metatile's lines) the stops' positions would be made for nothing.
                guard b.request.labels else { continue }
                addLabels(
                    pieces, to: &b, zone: zone, axis: .easting, value: e, window: nWindow, period: period,
                    offset: nOffset
                ) { frame.position(e, $0) }
            }
            // Northing lines: the parameter is the easting.
            for k in ys.indices(from: n0, to: n1) {
                let v = ys.value(k)
                guard let level = ys.owner(v) else { continue }
                let n = Double(v)
                let rank = GridLabelRank(
                    level: level, roundness: GridLabelRank.roundness(k), order: 2, key: Double(zone) * 1e8 + n)
                let found =
                    b.cache.map { cache in
                        cache.northingPieces(.init(zone: zone, extended: extended != nil, northing: n)) {
                            northingPieces(frame, northing: n, cells: cellRanges)
                        }
                    } ?? northingPieces(frame, northing: n, cells: cellRanges)
                var pieces: [GridBuilder<P>.Piece] = []
                pieces.reserveCapacity(found.count)
                for piece in found where piece.cell.box.intersects(geo) {
                    let value = n + (piece.cell.band.isNorthern ? 0 : WGS84.utmSouthFalseNorthing)
                    pieces.append(
                        .init(
                            line: GridLine(
                                level: level, axis: .northing, zone: piece.cell.designator, value: value,
                                label: b.lineText(value, axis: .northing, level: level, series: ys), labelRank: rank),
                            t0: piece.range.lowerBound, t1: piece.range.upperBound))
                }
                b.addLine(pieces, step: chunk, window: eWindow, chunkLine: (zone, .northing, n)) {
                    frame.position($0, n)
                }
                guard b.request.labels else { continue }
                addLabels(
                    pieces, to: &b, zone: zone, axis: .northing, value: n, window: eWindow, period: period,
                    offset: eOffset
                ) { frame.position($0, n) }
            }
        }
    }

    /// Labels along a line's pieces, at the stops of `window` (`GridBuilder.stops`) within
    /// each piece; `position` gives the point at a stop's parameter.
    @inline(__always)
    static func addLabels<P: GridProjection>(
        _ pieces: [GridBuilder<P>.Piece], to b: inout GridBuilder<P>, zone: Int, axis: GridAxis, value: Double,
        window: ClosedRange<Double>, period: Double, offset: Double, position: (Double) -> GeoPosition
    ) {
        // Each piece borrowed where it lies (`for piece in pieces` copied it, line and all).
        pieces.withUnsafeBufferPointer { pieces in
            for piece in pieces.indices {
                let (t0, t1) = (pieces[piece].t0, pieces[piece].t1)
                for t in b.stops(from: t0, to: t1, window: window, period: period, offset: offset) {
                    b.addLineLabel(pieces[piece].line, at: stop(b.cache, zone, axis, value, t) { position(t) })
                }
            }
        }
    }

    /// The position of a label stop `t` along a zone's line, kept in `cache`: the label
    /// regions of a zoom overlap by two label reaches, and zooms whose finest lines are alike
    /// share stops, each an inverse transverse Mercator evaluation.
    @inline(__always)
    static func stop(
        _ cache: GridCache?, _ zone: Int, _ axis: GridAxis, _ value: Double, _ t: Double,
        _ make: () -> GeoPosition
    ) -> GeoPosition {
        guard let cache else { return make() }
        return cache.stop(.init(zone: zone, axis: axis, value: value, t: t), make)
    }

    /// The signed northing where an easting line meets a parallel. Latitude grows with
    /// northing along the line, and the parallel rises away from the central meridian, so the
    /// crossing lies at or beyond the central meridian's northing of that latitude.
    static func northingOfLatitude(_ frame: UTMZoneFrame, easting: Double, latitude: Double) -> Double {
        let f = { (n: Double) in frame.local(easting, n).latitude - latitude }
        let base = frame.coordinates(latitude: latitude, longitude: frame.centralMeridian).northing
        let far = latitude >= 0 ? Swift.min(base + 1_500_000, 9_990_000) : Swift.max(base - 1_500_000, -9_990_000)
        var (a, b) = latitude >= 0 ? (base, far) : (far, base)
        var fa = f(a)
        var fb = f(b)
        if !(fa <= 0 && fb >= 0) {
            (a, b) = (-9_990_000, 9_990_000)
            fa = f(a)
            fb = f(b)
            if fa >= 0 { return a }
            if fb <= 0 { return b }
            return MonotoneRoot.find(a, fa, b, fb, ttol: rootTolerance, ftol: angleTolerance, f)
        }
        // The parallel rises about ΔE² tan φ / 2R above its northing on the central meridian.
        let de = easting - WGS84.utmFalseEasting
        let rise = de * de * Swift.abs(tan(latitude * .pi / 180)) / (2 * 6_367_000)
        let guess = latitude >= 0 ? base + rise : base - rise
        let slack = 0.02 * rise + 1
        return MonotoneRoot.find(
            a, fa, b, fb, hint: (guess - slack)...(guess + slack),
            ttol: rootTolerance, ftol: angleTolerance, f)
    }

    /// The pieces of an easting line, one per visible cell it passes through.
    static func eastingPieces(_ frame: UTMZoneFrame, easting e: Double, cells: [UTMCell]) -> [(
        cell: UTMCell, range: ClosedRange<Double>
    )] {
        var crossings: [Double: Double] = [:]
        func crossing(_ latitude: Double) -> Double {
            if let n = crossings[latitude] { return n }
            let n = northingOfLatitude(frame, easting: e, latitude: latitude)
            crossings[latitude] = n
            return n
        }
        let dlon = { (n: Double) in frame.local(e, n).dlon }
        var pieces: [(cell: UTMCell, range: ClosedRange<Double>)] = []
        for cell in cells {
            let a = crossing(cell.box.south)
            let b = crossing(cell.box.north)
            guard a < b else { continue }
            // Along an easting line within one hemisphere the longitude is monotone.
            let fa = dlon(a)
            let fb = dlon(b)
            let east = cell.box.east - frame.centralMeridian
            // A line on the cell's east edge belongs to the cell beyond (the central meridian
            // of zone 31 is the edge of 31V).
            if fa == east && fb == east { continue }
            guard
                let range = MonotoneRoot.clip(
                    a, fa, b, fb,
                    lower: cell.box.west - frame.centralMeridian, upper: east,
                    ttol: rootTolerance, ftol: angleTolerance, dlon)
            else { continue }
            pieces.append((cell, range))
        }
        return pieces
    }

    /// The pieces of a northing line (signed), one per cell of the zone it passes through.
    /// Along the line the latitude is extreme at the central meridian and monotone on each
    /// side; within 1.5° of it lie all the cells it can reach.
    static func northingPieces(
        _ frame: UTMZoneFrame, northing n: Double,
        cells: [(cell: UTMCell, easting: ClosedRange<Double>)]
    ) -> [(cell: UTMCell, range: ClosedRange<Double>)] {
        let centre = WGS84.utmFalseEasting
        let top = frame.local(centre, n).latitude
        let near = cells.filter { c in
            n >= 0
                ? c.cell.box.south <= top && c.cell.box.north >= top - 1.5
                : c.cell.box.north >= top && c.cell.box.south <= top + 1.5
        }
        guard !near.isEmpty else { return [] }
        let candidates = near.map(\.cell)
        var e0 = Double.infinity
        var e1 = -Double.infinity
        for c in near {
            e0 = Swift.min(e0, c.easting.lowerBound)
            e1 = Swift.max(e1, c.easting.upperBound)
        }
        let edges = Set(candidates.flatMap { [$0.box.south, $0.box.north] }).sorted()
        let latitude = { (e: Double) in frame.local(e, n).latitude }
        let dlon = { (e: Double) in frame.local(e, n).dlon }
        var pieces: [(cell: UTMCell, range: ClosedRange<Double>)] = []
        for (a, b) in [(e0, Swift.min(e1, centre)), (Swift.max(e0, centre), e1)] where a < b {
            let la = latitude(a)
            let lb = latitude(b)
            var cuts = [a, b]
            for edge in edges where (la - edge) * (lb - edge) < 0 {
                cuts.append(
                    MonotoneRoot.find(a, la - edge, b, lb - edge, ttol: rootTolerance, ftol: angleTolerance) {
                        latitude($0) - edge
                    })
            }
            cuts.sort()
            for k in 0..<(cuts.count - 1) where cuts[k] < cuts[k + 1] {
                let mid = latitude((cuts[k] + cuts[k + 1]) / 2)
                guard let cell = candidates.first(where: { mid >= $0.box.south && mid < $0.box.north }) else {
                    continue
                }
                // The line meets a meridian about where that meridian crosses the piece's middle
                // latitude (a northing line runs nearly along a parallel): a narrow first bracket.
                let hints = { (d: Double) -> ClosedRange<Double>? in
                    let e = frame.coordinates(latitude: mid, longitude: frame.centralMeridian + d).easting
                    let slack = 0.002 * Swift.abs(e - centre) + 1
                    return (e - slack)...(e + slack)
                }
                guard
                    let range = MonotoneRoot.clip(
                        cuts[k], dlon(cuts[k]), cuts[k + 1], dlon(cuts[k + 1]),
                        lower: cell.box.west - frame.centralMeridian,
                        upper: cell.box.east - frame.centralMeridian,
                        ttol: rootTolerance, ftol: angleTolerance, hints: hints, dlon)
                else { continue }
                // The two sides of the central meridian join into one piece.
                if let last = pieces.last, last.cell.band == cell.band, last.range.upperBound == range.lowerBound {
                    pieces[pieces.count - 1] = (cell, last.range.lowerBound...range.upperBound)
                } else {
                    pieces.append((cell, range))
                }
            }
        }
        return pieces
    }
}
