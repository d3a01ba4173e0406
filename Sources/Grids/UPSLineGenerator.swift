import Foundation
import Geodesy

/// The polar caps' coordinates (UPS): north of 84°N and south of 80°S.
struct UPSFrame {
    let north: Bool

    static let origin = WGS84.upsFalseOrigin

    /// The cap's latitudes: 84°N to the pole, or the pole to 80°S.
    var latitudes: ClosedRange<Double> { north ? 84...90 : -90...(-80) }

    /// The position of an easting and northing. On the 0°/180° meridian's 180° half the
    /// longitude is that of the zone asked for: -180° in the west zone (A, Y), +180° in the
    /// east one (B, Z); by default the zone is the easting's side of the meridian.
    @inline(__always)
    func position(_ easting: Double, _ northing: Double, west: Bool? = nil) -> GeoPosition {
        var p = PolarStereographic.ups.reverse(
            north: north, x: easting - UPSFrame.origin, y: northing - UPSFrame.origin
        ).position
        if Swift.abs(p.longitude) == 180 { p.longitude = (west ?? (easting < UPSFrame.origin)) ? -180 : 180 }
        return p
    }

    func coordinates(latitude: Double, longitude: Double) -> (easting: Double, northing: Double) {
        let p = PolarStereographic.ups.forward(north: north, latitude: latitude, longitude: longitude)
        return (p.x + UPSFrame.origin, p.y + UPSFrame.origin)
    }

    /// Distance from the pole on the UPS plane of a parallel.
    func radius(latitude: Double) -> Double {
        let p = PolarStereographic.ups.forward(north: north, latitude: latitude, longitude: 0)
        return Swift.abs(p.y)
    }

    /// The grid zone designator west or east of the 0°/180° meridian: Y/Z north, A/B south.
    func designator(east: Bool) -> String {
        north ? (east ? "Z" : "Y") : (east ? "B" : "A")
    }

    /// The visible part of the cap: its latitudes within `geo`, and the rings it spans.
    func visible(_ geo: GeoBox) -> (box: GeoBox, inner: Double, outer: Double)? {
        let box = geo.intersection(
            GeoBox(south: latitudes.lowerBound, north: latitudes.upperBound, west: -180, east: 180))
        guard !box.isEmpty else { return nil }
        let a = radius(latitude: box.south)
        let b = radius(latitude: box.north)
        return (box, Swift.min(a, b), Swift.max(a, b))
    }

    /// Easting and northing ranges of a polar sector (a latitude/longitude box in the cap):
    /// extremes lie at its corners or where it crosses the 0°, ±90° and 180° meridians.
    func ranges(_ box: GeoBox) -> (easting: ClosedRange<Double>, northing: ClosedRange<Double>) {
        var lons = [box.west, box.east]
        for m in [-180.0, -90, 0, 90, 180] where m > box.west && m < box.east { lons.append(m) }
        var bounds = Rect.empty
        for lat in [box.south, box.north] {
            for lon in lons {
                let c = coordinates(latitude: lat, longitude: lon)
                bounds.include(x: c.easting, y: c.northing)
            }
        }
        return (bounds.minX...bounds.maxX, bounds.minY...bounds.maxY)
    }

    /// The parts of the line at `offset` from the pole's axis (x or y on the UPS plane) that
    /// lie in the ring between `inner` and `outer`, as ranges of the other coordinate
    /// (relative to the pole). Exact: the cap is a disc on the plane.
    static func chords(offset: Double, inner: Double, outer: Double) -> [ClosedRange<Double>] {
        guard Swift.abs(offset) < outer else { return [] }
        let o = (outer * outer - offset * offset).squareRoot()
        guard inner > 0, Swift.abs(offset) < inner else { return [-o...o] }
        let i = (inner * inner - offset * offset).squareRoot()
        return [-o...(-i), i...o]
    }
}

/// Easting and northing lines of the UPS caps (levels 1 and finer of UTM, MGRS and USNG),
/// clipped to the caps and, on projections that stop short of the poles, to the projection.
enum UPSLineGenerator {
    static func generate<P: GridProjection>(_ b: inout GridBuilder<P>, type: GridType) {
        let xs = b.plan.x
        let ys = b.plan.y
        guard !xs.isEmpty || !ys.isEmpty else { return }
        let (finest, chunk, period) = b.metreSteps()
        let range = b.projection.latitudeRange
        let origin = UPSFrame.origin

        for north in [true, false] {
            let frame = UPSFrame(north: north)
            guard let seen = frame.visible(b.geoQuery) else { continue }
            // The ring the lines live in: the cap's edge outside, the projection's limit inside.
            let outer = frame.radius(latitude: north ? 84 : -80)
            let limit = north ? range.upperBound : range.lowerBound
            let inner = Swift.abs(limit) < 90 ? frame.radius(latitude: limit) : 0
            let r = frame.ranges(seen.box)
            let eWindow = r.easting
            let nWindow = r.northing
            let middle = b.centrePosition(within: [seen.box])
            let c = frame.coordinates(latitude: middle.latitude, longitude: middle.longitude)
            let eOffset = b.labelOffset(step: finest, centre: c.easting)
            let nOffset = b.labelOffset(step: finest, centre: c.northing)

            for k in xs.indices(from: eWindow.lowerBound, to: eWindow.upperBound) {
                let v = xs.value(k)
                guard let level = xs.owner(v) else { continue }
                let e = Double(v)
                let rank = GridLabelRank(level: level, roundness: GridLabelRank.roundness(k), order: 1, key: e)
                let line = GridLine(
                    level: level, axis: .easting, zone: frame.designator(east: e >= origin), value: e,
                    label: b.lineText(e, axis: .easting, level: level, series: xs), labelRank: rank)
                let chords = UPSFrame.chords(offset: e - origin, inner: inner, outer: outer)
                b.addLine(
                    chords.map { .init(line: line, t0: origin + $0.lowerBound, t1: origin + $0.upperBound) },
                    step: chunk, window: nWindow
                ) { frame.position(e, $0) }
                // Without labels (a metatile's lines) the stops' positions would be made for nothing.
                guard b.request.labels else { continue }
                for chord in chords {
                    for t in b.stops(
                        from: origin + chord.lowerBound, to: origin + chord.upperBound, window: nWindow,
                        period: period, offset: nOffset)
                    {
                        b.addLineLabel(line, at: frame.position(e, t))
                    }
                }
            }
            for k in ys.indices(from: nWindow.lowerBound, to: nWindow.upperBound) {
                let v = ys.value(k)
                guard let level = ys.owner(v) else { continue }
                let n = Double(v)
                let rank = GridLabelRank(level: level, roundness: GridLabelRank.roundness(k), order: 2, key: n)
                let text = b.lineText(n, axis: .northing, level: level, series: ys)
                var pieces: [GridBuilder<P>.Piece] = []
                for chord in UPSFrame.chords(offset: n - origin, inner: inner, outer: outer) {
                    // The 0°/180° meridian (easting 2,000 km) parts the west and east zones.
                    let parts: [(ClosedRange<Double>, Bool)] =
                        chord.lowerBound < 0 && chord.upperBound > 0
                        ? [(chord.lowerBound...0, false), (0...chord.upperBound, true)]
                        : [(chord, chord.lowerBound >= 0)]
                    for (part, east) in parts {
                        let line = GridLine(
                            level: level, axis: .northing, zone: frame.designator(east: east), value: n,
                            label: text, labelRank: rank)
                        pieces.append(
                            .init(
                                line: line, t0: origin + part.lowerBound, t1: origin + part.upperBound,
                                westOf180: !east))
                    }
                }
                b.addLine(pieces, step: chunk, window: eWindow) { frame.position($0, n) }
                guard b.request.labels else { continue }
                for piece in pieces {
                    for t in b.stops(from: piece.t0, to: piece.t1, window: eWindow, period: period, offset: eOffset) {
                        b.addLineLabel(piece.line, at: frame.position(t, n, west: piece.westOf180))
                    }
                }
            }
        }
    }
}
