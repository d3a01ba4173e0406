import Foundation
import Geodesy
import MapModel
import Render

/// The grid of a sheet as page geometry: its lines across the map frame, where each meets
/// the neatline, and the values printed in the collar outside the neatline on all four sides
/// with a tick at each crossing, the way topographic sheets print them.
///
/// The sheet is drawn in the UTM zone of its centre, so UTM, MGRS and USNG lines are exactly
/// the straight lines x = easting and y = northing of the plane. Meridians and parallels
/// are curves there, sampled densely enough that the polyline strays from the curve by far
/// less than a printer's dot.
public struct FrameGrid: Sendable {
    public enum Axis: String, Sendable { case easting, northing, longitude, latitude }
    public enum Side: String, Sendable, CaseIterable { case top, bottom, left, right }

    public struct Line: Sendable {
        public var axis: Axis
        /// Metres (easting, northing in the zone, false origins included) or degrees.
        public var value: Double
        /// Page millimetres; reaches past the frame and is clipped to it when drawn.
        public var points: [PagePoint]
    }

    /// Where a line meets the neatline.
    public struct Crossing: Sendable {
        public var side: Side
        public var point: PagePoint
        public var line: Int
    }

    public let type: SheetGridType
    /// Between lines: metres for the UTM family, degrees for latitude/longitude.
    public let interval: Double
    public let lines: [Line]
    public let crossings: [Crossing]

    // Sizes on paper (millimetres) and fonts of the frame.
    static let tickLength = 1.5
    static let labelGap = 0.8
    static let lineStroke = PageStroke(color: Color(rgb: 0x1f3a60), width: 0.12)
    static let tickStroke = PageStroke(color: .black, width: 0.15)
    static let principalFont = PageFont(size: 8.5)
    static let smallFont = PageFont(size: 6)
    static let angleFont = PageFont(size: 6.5)
    static let cornerFont = PageFont(size: 5)
    /// Lines closer than this on paper would crowd their labels.
    static let minimumSpacing = (utm: 10.0, graticule: 25.0)

    /// Line intervals: UTM family in metres; latitude/longitude in seconds of arc, from a
    /// ladder of round degrees, minutes and seconds (never a decimal fraction of a minute).
    static let utmIntervals: [Double] = [100, 1_000, 10_000, 100_000]
    static let graticuleSeconds: [Int] = [108_000, 36_000, 18_000, 3_600, 1_800, 600, 300, 60, 30, 10, 5, 1]

    /// The grid of `type` over the frame, or nil for `.none`.
    public static func make(type: SheetGridType, plane: UTMPlane, transform: FrameTransform) -> FrameGrid? {
        switch type {
        case .none:
            return nil
        case .utm, .mgrs, .usng:
            return utmGrid(type: type, transform: transform)
        case .latlong:
            return graticule(plane: plane, transform: transform)
        }
    }

    /// The finest UTM interval whose lines are at least `minimumSpacing.utm` apart on paper.
    static func utmInterval(metresPerMillimetre: Double) -> Double {
        utmIntervals.first { $0 / metresPerMillimetre >= minimumSpacing.utm } ?? utmIntervals.last!
    }

    private static func utmGrid(type: SheetGridType, transform: FrameTransform) -> FrameGrid {
        let interval = utmInterval(metresPerMillimetre: transform.metresPerMillimetre)
        let e = transform.extent
        var lines: [Line] = []
        // Strictly inside the frame: a line on the neatline itself would be drawn under it.
        for k in Int((e.minX / interval).rounded(.down))...Int((e.maxX / interval).rounded(.up)) {
            let x = Double(k) * interval
            guard x > e.minX, x < e.maxX else { continue }
            lines.append(Line(axis: .easting, value: x, points: [transform.page(x, e.maxY + interval), transform.page(x, e.minY - interval)]))
        }
        for k in Int((e.minY / interval).rounded(.down))...Int((e.maxY / interval).rounded(.up)) {
            let y = Double(k) * interval
            guard y > e.minY, y < e.maxY else { continue }
            lines.append(Line(axis: .northing, value: y, points: [transform.page(e.minX - interval, y), transform.page(e.maxX + interval, y)]))
        }
        return FrameGrid(type: type, interval: interval, lines: lines, crossings: crossings(of: lines, frame: transform.frame))
    }

    /// The longitude and latitude range the frame covers (its edges walked).
    static func geographicBounds(plane: UTMPlane, transform: FrameTransform) -> (west: Double, south: Double, east: Double, north: Double) {
        var west = Double.infinity, east = -Double.infinity, south = Double.infinity, north = -Double.infinity
        let e = transform.extent, steps = 32
        for i in 0...steps {
            let t = Double(i) / Double(steps)
            let x = e.minX + e.width * t, y = e.minY + e.height * t
            for (px, py) in [(x, e.minY), (x, e.maxY), (e.minX, y), (e.maxX, y)] {
                let p = plane.unproject(px, py)
                west = min(west, p.longitude); east = max(east, p.longitude)
                south = min(south, p.latitude); north = max(north, p.latitude)
            }
        }
        return (west, south, east, north)
    }

    /// The finest interval (seconds of arc) from the ladder whose meridians and parallels are
    /// at least `minimumSpacing.graticule` apart on paper everywhere in the frame.
    static func graticuleInterval(metresPerMillimetre: Double, highestLatitude: Double) -> Int {
        let metresPerDegreeLatitude = 111_000.0
        let metresPerDegreeLongitude = metresPerDegreeLatitude * cos(min(89, abs(highestLatitude)) * .pi / 180)
        let closest = min(metresPerDegreeLatitude, metresPerDegreeLongitude)
        return graticuleSeconds.last { Double($0) / 3600 * closest / metresPerMillimetre >= minimumSpacing.graticule }
            ?? graticuleSeconds.first!
    }

    private static func graticule(plane: UTMPlane, transform: FrameTransform) -> FrameGrid {
        let b = geographicBounds(plane: plane, transform: transform)
        let seconds = graticuleInterval(metresPerMillimetre: transform.metresPerMillimetre,
                                        highestLatitude: max(abs(b.south), abs(b.north)))
        let step = Double(seconds) / 3600
        var lines: [Line] = []
        let padLat = (b.north - b.south) * 0.05 + step, padLon = (b.east - b.west) * 0.05 + step
        let samples = 128
        func curve(_ count: Int, _ position: (Double) -> (lat: Double, lon: Double)) -> [PagePoint] {
            (0...count).map { i in
                let p = position(Double(i) / Double(count))
                let q = plane.project(latitude: p.lat, longitude: p.lon)
                return transform.page(q.x, q.y)
            }
        }
        // Whole multiples of the interval in seconds, so values are exact.
        for k in Int((b.west * 3600 / Double(seconds)).rounded(.down))...Int((b.east * 3600 / Double(seconds)).rounded(.up)) {
            let lon = Double(k * seconds) / 3600
            guard lon > b.west, lon < b.east else { continue }
            let south = max(-89.9, b.south - padLat), north = min(89.9, b.north + padLat)
            lines.append(Line(axis: .longitude, value: lon, points: curve(samples) { (south + (north - south) * $0, lon) }))
        }
        for k in Int((b.south * 3600 / Double(seconds)).rounded(.down))...Int((b.north * 3600 / Double(seconds)).rounded(.up)) {
            let lat = Double(k * seconds) / 3600
            guard lat > b.south, lat < b.north, abs(lat) < 90 else { continue }
            let west = b.west - padLon, east = b.east + padLon
            lines.append(Line(axis: .latitude, value: lat, points: curve(samples) { (lat, west + (east - west) * $0) }))
        }
        return FrameGrid(type: .latlong, interval: step, lines: lines, crossings: crossings(of: lines, frame: transform.frame))
    }

    /// Every point where a line crosses the neatline, side by side in order along each side.
    static func crossings(of lines: [Line], frame: PageRect) -> [Crossing] {
        var found: [Crossing] = []
        for (index, line) in lines.enumerated() {
            for (a, b) in zip(line.points, line.points.dropFirst()) {
                // Half-open tests, so a vertex exactly on an edge counts once.
                for (side, y) in [(Side.top, frame.minY), (.bottom, frame.maxY)] where (a.y < y) != (b.y < y) {
                    let x = a.x + (y - a.y) / (b.y - a.y) * (b.x - a.x)
                    if x > frame.minX, x < frame.maxX { found.append(Crossing(side: side, point: PagePoint(x, y), line: index)) }
                }
                for (side, x) in [(Side.left, frame.minX), (.right, frame.maxX)] where (a.x < x) != (b.x < x) {
                    let y = a.y + (x - a.x) / (b.x - a.x) * (b.y - a.y)
                    if y > frame.minY, y < frame.maxY { found.append(Crossing(side: side, point: PagePoint(x, y), line: index)) }
                }
            }
        }
        return found.sorted { ($0.side.rawValue, $0.point.x + $0.point.y) < ($1.side.rawValue, $1.point.x + $1.point.y) }
    }

    // MARK: Labels

    /// The printed value of a line. UTM family in the topographic style: the principal
    /// digits (tens and units of kilometres, plus hundreds of metres on a 100 m grid) large,
    /// the rest small; `full` adds the leading and trailing digits and the `mE`/`mN` unit
    /// (`⁴⁵12⁰⁰⁰ᵐN` as 45 small, 12 large, 000mN small), otherwise the principal digits alone.
    /// Latitude/longitude: compact degrees, minutes and seconds (`74°02'30"W`).
    public func label(for line: Line, full: Bool) -> [PageTextRun] {
        FrameGrid.label(axis: line.axis, value: line.value, interval: interval, full: full)
    }

    static func label(axis: Axis, value: Double, interval: Double, full: Bool) -> [PageTextRun] {
        switch axis {
        case .longitude, .latitude:
            let text = AngleFormat.dms(value, kind: axis == .longitude ? .longitude : .latitude, trailing: .second, style: .compact)
            return [PageTextRun(text, font: angleFont)]
        case .easting, .northing:
            let metres = Int(value.rounded())
            // Principal digits: from the tens of kilometres down to the interval's place.
            let lowDigits = interval < 1000 ? 2 : 3           // metres digits printed small after them
            let principalCount = interval < 1000 ? 3 : 2
            let digits = String(metres)
            let padded = String(repeating: "0", count: max(0, lowDigits + principalCount - digits.count)) + digits
            let low = String(padded.suffix(lowDigits))
            let principal = String(padded.dropLast(lowDigits).suffix(principalCount))
            let high = String(padded.dropLast(lowDigits + principalCount))
            guard full else { return [PageTextRun(principal, font: principalFont)] }
            var runs: [PageTextRun] = []
            if !high.isEmpty { runs.append(PageTextRun(high, font: smallFont)) }
            runs.append(PageTextRun(principal, font: principalFont))
            runs.append(PageTextRun(low + (axis == .easting ? "mE" : "mN"), font: smallFont))
            return runs
        }
    }

    /// The widest and tallest labels a grid of `type` can print, for sizing the collar.
    static func sampleLabels(for type: SheetGridType) -> [[PageTextRun]] {
        switch type {
        case .none:
            return [[PageTextRun("0", font: principalFont)]]
        case .latlong:
            return [label(axis: .latitude, value: -(88 + 58 / 60.0 + 58 / 3600.0), interval: 1 / 3600.0, full: true),
                    label(axis: .longitude, value: -(178 + 58 / 60.0 + 58 / 3600.0), interval: 1 / 3600.0, full: true)]
        case .utm, .mgrs, .usng:
            return [label(axis: .northing, value: 9_988_000, interval: 1000, full: true),
                    label(axis: .northing, value: 9_988_800, interval: 100, full: true)]
        }
    }

    /// The grid as page items: lines clipped to the frame, ticks and labels outside it, and
    /// the geographic coordinates of the frame's corners. `measure` sizes text in the
    /// sheet's fonts; `collar` is the area the labels must stay in.
    func items(transform: FrameTransform, collar: PageRect, plane: UTMPlane,
               measure: (PageText) -> PageTextSize) -> [PageItem] {
        let frame = transform.frame
        var items: [PageItem] = [.clipped(frame, [.path(lines.map { PagePolyline($0.points) }, stroke: FrameGrid.lineStroke, fill: nil)])]

        var ticks: [PagePolyline] = []
        for c in crossings {
            let p = c.point, t = FrameGrid.tickLength
            switch c.side {
            case .top: ticks.append(PagePolyline([p, PagePoint(p.x, p.y - t)]))
            case .bottom: ticks.append(PagePolyline([p, PagePoint(p.x, p.y + t)]))
            case .left: ticks.append(PagePolyline([p, PagePoint(p.x - t, p.y)]))
            case .right: ticks.append(PagePolyline([p, PagePoint(p.x + t, p.y)]))
            }
        }
        items.append(.path(ticks, stroke: FrameGrid.tickStroke, fill: nil))

        for side in Side.allCases {
            items += sideLabels(side, frame: frame, collar: collar, measure: measure).map { .text($0) }
        }
        return items
    }

    /// The labels of one side, from its start (left, or bottom for the sides), each centred
    /// on its tick; a label that would touch the one before it, or leave the collar, is left
    /// out. The first label that fits is printed in full.
    func sideLabels(_ side: Side, frame: PageRect, collar: PageRect, measure: (PageText) -> PageTextSize) -> [PageText] {
        var along = crossings.filter { $0.side == side }
        if side == .left || side == .right { along.reverse() }  // bottom first
        let out = FrameGrid.tickLength + FrameGrid.labelGap
        var placed: [PageText] = []
        var boxes: [PageRect] = []
        var fullPlaced = false
        for c in along {
            let p = c.point
            let position: PagePoint, anchor: PageTextAnchor
            switch side {
            case .top: position = PagePoint(p.x, p.y - out); anchor = PageTextAnchor(.center, .bottom)
            case .bottom: position = PagePoint(p.x, p.y + out); anchor = PageTextAnchor(.center, .top)
            case .left: position = PagePoint(p.x - out, p.y); anchor = PageTextAnchor(.right, .middle)
            case .right: position = PagePoint(p.x + out, p.y); anchor = PageTextAnchor(.left, .middle)
            }
            for full in fullPlaced ? [false] : [true, false] {
                let text = PageText(label(for: lines[c.line], full: full), at: position, anchor: anchor)
                let size = measure(text)
                let box = FrameGrid.box(of: size, at: position, anchor: anchor)
                // Along the side, labels stay within the frame's span (the corners hold the
                // corner coordinates); across it, within the collar.
                let span = side == .top || side == .bottom
                    ? (box.minX >= frame.minX - 0.5 && box.maxX <= frame.maxX + 0.5)
                    : (box.minY >= frame.minY - 0.5 && box.maxY <= frame.maxY + 0.5)
                guard span, collar.contains(box), !boxes.contains(where: { $0.insetBy(-0.6).intersects(box) }) else { continue }
                placed.append(text)
                boxes.append(box)
                if full { fullPlaced = true }
                break
            }
        }
        return placed
    }

    static func box(of size: PageTextSize, at position: PagePoint, anchor: PageTextAnchor) -> PageRect {
        let x: Double
        switch anchor.horizontal {
        case .left: x = position.x
        case .center: x = position.x - size.width / 2
        case .right: x = position.x - size.width
        }
        let y: Double
        switch anchor.vertical {
        case .top: y = position.y
        case .middle: y = position.y - size.height / 2
        case .baseline: y = position.y - size.baseline
        case .bottom: y = position.y - size.height
        }
        return PageRect(x: x, y: y, width: size.width, height: size.height)
    }
}

/// The longitude and latitude of the frame's corners, printed in the collar's corners.
enum CornerCoordinates {
    static func items(plane: UTMPlane, transform: FrameTransform) -> [PageItem] {
        let f = transform.frame, gap = FrameGrid.labelGap
        let font = FrameGrid.cornerFont
        var items: [PageItem] = []
        let corners: [(PagePoint, PageTextAnchor.Horizontal, Bool)] = [
            (PagePoint(f.minX, f.minY), .right, true), (PagePoint(f.maxX, f.minY), .left, true),
            (PagePoint(f.minX, f.maxY), .right, false), (PagePoint(f.maxX, f.maxY), .left, false),
        ]
        for (corner, horizontal, top) in corners {
            let q = transform.plane(corner)
            let p = plane.unproject(q.x, q.y)
            let latitude = AngleFormat.dms(p.latitude, kind: .latitude, trailing: .second, style: .compact)
            let longitude = AngleFormat.dms(p.longitude, kind: .longitude, trailing: .second, style: .compact)
            let x = horizontal == .right ? corner.x - gap : corner.x + gap
            // Two lines: latitude, then longitude, hugging the corner.
            let lineHeight = font.size * 25.4 / 72 * 1.2
            let firstY = top ? corner.y - gap - 2 * lineHeight : corner.y + gap
            items.append(.text(PageText(latitude, font: font, at: PagePoint(x, firstY), anchor: PageTextAnchor(horizontal, .top))))
            items.append(.text(PageText(longitude, font: font, at: PagePoint(x, firstY + lineHeight), anchor: PageTextAnchor(horizontal, .top))))
        }
        return items
    }
}
