import DataSources
import Foundation
import Geodesy
import Grids
import MapModel
import Render

/// The grid of a sheet as page geometry: its lines across the map frame, where each meets
/// the neatline, and the values printed in the collar outside the neatline on all four sides
/// with a tick at each crossing, the way topographic sheets print them.
///
/// The lines come from Grids, generated in the sheet's UTM plane (`SheetGridProjection`).
/// UTM, MGRS and USNG lines are the sheet's own zone's, carried over the zone's edge, so they
/// are the straight lines x = easting and y = northing of the plane; meridians and parallels
/// are curves there, densified by Grids to a fraction of a printer's dot. Values are Grids'
/// label texts (`GridText`), printed in the topographic style.
public struct FrameGrid: Sendable {
    public typealias Axis = GridAxis
    public enum Side: String, Sendable, CaseIterable { case top, bottom, left, right }

    public struct Line: Sendable {
        public var axis: Axis
        /// Metres (easting, northing in the zone, false origins included) or degrees.
        public var value: Double
        /// The grid level the line belongs to (the coarsest it falls on).
        public var level: Int
        /// Page millimetres; reaches past the frame and is clipped to it when drawn.
        public var points: [PlanePoint]
    }

    /// Where a line meets the neatline.
    public struct Crossing: Sendable {
        public var side: Side
        public var point: PlanePoint
        public var line: Int
    }

    public let type: GridType
    /// Between the finest lines: metres for the UTM family, degrees for latitude/longitude.
    public let interval: Double
    /// How latitude/longitude values are written (and the ladder their steps come from).
    public let format: LatLongLabelFormat
    /// How each level drawn is printed.
    public let styles: [Int: SheetGridStyle]
    public let lines: [Line]
    public var crossings: [Crossing]
    /// A quadrangle's neatline (page mm, `QuadrangleFrame`), when the crossings are on it
    /// rather than on the frame's rectangle: the border follows it.
    public var neatline: [PlanePoint]?
    /// Crosses, edge ticks, sub-ticks and the frame's border (`FrameMarks`).
    public var marks = FrameMarks()
    /// The projected CRS whose eastings and northings a UTM-type grid shows, as the notes
    /// name it (`OSGB36 / British National Grid (EPSG:27700)`); nil for UTM's own.
    public var crs: String?
    /// The document's `annotation`: how values are written and which side names which lines,
    /// inside or outside the neatline, horizontal or along it. Nil: the collar's values as
    /// printed before it existed.
    public var annotation: GridAnnotation?
    /// How far beyond the main grid's values this grid's collar values start (`SheetGrids`).
    public var band = BandOffset()

    /// A grid's band in the collar: mm beyond the main grid's place on the left and right
    /// sides and on the top and bottom (0 for the main grid).
    public struct BandOffset: Sendable, Equatable {
        public var leftRight = 0.0
        public var topBottom = 0.0
    }

    // Sizes on paper (millimetres) and fonts of the frame.
    static let tickLength = 1.5
    static let labelGap = 0.8
    static let tickStroke = PageStroke(color: .black, width: 0.15)
    static let principalSize = 8.5
    static let smallSize = 6.0
    static let angleSize = 6.5
    static let cornerFont = PageFont(size: 5)
    /// Lines closer than this on paper would crowd their labels.
    static let minimumSpacing = (utm: 10.0, graticule: 25.0)
    /// The UTM intervals a sheet uses, in metres (10 m lines never fit a printed value).
    static let utmIntervals: [Double] = [100, 1_000, 10_000, 100_000]

    /// The grid of `type` over the frame; nil when no level of it shows. `settings`, the map
    /// document's grid, gives each level its line and text style and the latitude/longitude format.
    /// Throws when the document's grid names a CRS that PROJ cannot make a plane of.
    public static func make(
        type gridType: GridType, plane: any SheetPlane, transform: FrameTransform,
        settings: GridSettings? = nil, crs: ProjectedPlane? = nil
    ) throws(SheetError) -> FrameGrid? {
        let format = settings?.labelFormat ?? .degreesMinutesSeconds
        let levels = GridLevels.levels(for: gridType, format: format)
        var finest: Int
        if gridType == .latlong {
            let b = geographicBounds(plane: plane, transform: transform)
            finest = graticuleLevel(
                format: format, metresPerMillimetre: transform.metresPerMillimetre,
                highestLatitude: max(abs(b.south), abs(b.north)))
        } else {
            let interval = utmInterval(metresPerMillimetre: transform.metresPerMillimetre)
            finest = levels.firstIndex { $0.spacing == interval } ?? 1
        }
        // The document's interval, where its lines are far enough apart on paper: drawn with
        // the level of its step, the coarser levels as they are.
        let interval = FrameMarks.interval(
            settings?.withType(gridType).interval, type: gridType, metresPerMillimetre: transform.metresPerMillimetre)
        if let interval {
            let step = min(interval.x, interval.y) * metresPerUnit(gridType) * (1 + 1e-9)
            finest = levels.first { $0.spacing <= step }?.index ?? levels.count - 1
        }
        let style = SheetGridStyle.resolver(type: gridType, settings: settings)
        // Every level down to the finest, as on screen: a line belongs to the coarsest level it
        // falls on; a hidden level's lines are drawn with the next finer one. The UTM family
        // leaves out its zone boundaries (the sheet carries one zone's grid over them).
        let shown = (gridType == .latlong ? 0 : 1)...max(gridType == .latlong ? 0 : 1, finest)
        let drawn = shown.filter { style($0).visible }
        guard !drawn.isEmpty else { return nil }

        let projection = SheetGridProjection(plane: plane, metresPerMillimetre: transform.metresPerMillimetre)
        var request = GridRequest(type: gridType)
        request.levels = drawn
        request.labelFormat = format
        request.labels = false
        request.margin = 2
        if gridType != .latlong { request.zone = plane.zone }
        request.interval = interval
        // The document's grid in a CRS, when the sheet prints the document's type (the plane
        // the renders of the map use, made once).
        var gridCRS = crs
        if gridCRS == nil, settings?.type == gridType, let code = settings?.crs {
            do { gridCRS = try GridCRSPlanes.plane(code) } catch { throw .invalid("\(error)") }
        }
        if gridType.isUTMFamily, let gridCRS {
            request.zone = nil
            request.crs = gridCRS
        }
        let area = projection.rect(of: transform.extent)
        let geometry: GridGeometry
        do {
            geometry = try Grid.generate(request, projection: projection, area: area)
        } catch {
            // The levels are chosen to be far enough apart and the frame is a valid area.
            return nil
        }
        let lines = geometry.lines.map { line in
            Line(
                axis: line.axis, value: line.value, level: line.level,
                points: line.vertices.map { projection.page($0.point, transform) })
        }
        // Crossings strictly inside the neatline's span: a line through a corner is left to
        // the corner coordinates.
        let frame = transform.frame
        var crossings: [Crossing] = []
        for c in geometry.edgeCrossings(of: area) {
            guard let edge = c.edge else { continue }
            let p = projection.page(c.point, transform)
            let side: Side
            switch edge {
            case .top: side = .top
            case .bottom: side = .bottom
            case .left: side = .left
            case .right: side = .right
            }
            let inside =
                side == .top || side == .bottom
                ? (p.x > frame.minX && p.x < frame.maxX) : (p.y > frame.minY && p.y < frame.maxY)
            if inside { crossings.append(Crossing(side: side, point: p, line: c.lineIndex)) }
        }
        crossings.sort { ($0.side.rawValue, $0.point.x + $0.point.y) < ($1.side.rawValue, $1.point.x + $1.point.y) }
        var grid = FrameGrid(
            type: gridType,
            interval: interval.map { min($0.x, $0.y) } ?? levels[finest].spacing / metresPerUnit(gridType),
            format: format, styles: Dictionary(uniqueKeysWithValues: drawn.map { ($0, style($0)) }),
            lines: lines, crossings: crossings,
            crs: gridType.isUTMFamily ? gridCRS?.fullName : nil)
        grid.annotation = settings?.annotation
        if let settings {
            grid.marks = FrameMarks.make(
                settings.marks, geometry: geometry, request: request, projection: projection, transform: transform)
        }
        return grid
    }

    /// Metres per unit of a line's value: degrees for latitude/longitude, metres for the rest.
    static func metresPerUnit(_ type: GridType) -> Double {
        type == .latlong ? GridLevels.metresPerDegree : 1
    }

    /// The finest UTM interval whose lines are at least `minimumSpacing.utm` apart on paper.
    static func utmInterval(metresPerMillimetre: Double) -> Double {
        utmIntervals.first { $0 / metresPerMillimetre >= minimumSpacing.utm } ?? utmIntervals.last!
    }

    /// The finest graticule level (of the ladder of `format`) whose meridians and parallels
    /// are at least `minimumSpacing.graticule` apart on paper everywhere in the frame.
    static func graticuleLevel(format: LatLongLabelFormat, metresPerMillimetre: Double, highestLatitude: Double) -> Int
    {
        let metresPerDegreeLatitude = 111_000.0
        let metresPerDegreeLongitude = metresPerDegreeLatitude * cos(min(89, abs(highestLatitude)) * .pi / 180)
        let closest = min(metresPerDegreeLatitude, metresPerDegreeLongitude)
        let levels = GridLevels.levels(for: .latlong, format: format)
        return levels.last {
            $0.spacing / GridLevels.metresPerDegree * closest / metresPerMillimetre >= minimumSpacing.graticule
        }?.index ?? 0
    }

    /// The graticule interval in seconds of arc (degrees, minutes and seconds).
    static func graticuleInterval(metresPerMillimetre: Double, highestLatitude: Double) -> Int {
        let level = graticuleLevel(
            format: .degreesMinutesSeconds, metresPerMillimetre: metresPerMillimetre, highestLatitude: highestLatitude)
        return Int((GridLevels.levels(for: .latlong)[level].spacing / GridLevels.metresPerDegree * 3600).rounded())
    }

    /// The longitude and latitude range the frame covers (its edges walked).
    static func geographicBounds(plane: any SheetPlane, transform: FrameTransform) -> GeoBox {
        GeoBox(
            transform.extent.boundsOfEdges(steps: 32) {
                let p = plane.unproject($0)
                return PlanePoint(x: p.longitude, y: p.latitude)
            })
    }

    // MARK: Labels

    /// The printed value of a line, from its `GridText`. UTM family in the topographic style:
    /// the UTM value (`4512000mN`) with its principal digits (tens and units of kilometres,
    /// plus hundreds of metres on a 100 m grid) large and the rest small; `full` prints all of
    /// it (`⁴⁵12⁰⁰⁰ᵐN` as 45 small, 12 large, 000mN small), otherwise the principal digits
    /// alone. Latitude/longitude: `74°02'30"W` (or decimal degrees, as the document asks).
    public func label(for line: Line, full: Bool) -> [PageTextRun] {
        FrameGrid.label(
            axis: line.axis, value: line.value, interval: interval, full: full, format: format,
            style: styles[line.level], annotation: angleStyle(line.axis))
    }

    /// How the annotation writes the latitudes or longitudes of lines along `axis`: with the
    /// decimals of their family's interval, so every value of a side has as many.
    func angleStyle(_ axis: Axis) -> AngleAnnotationStyle? {
        guard let annotation, type == .latlong else { return nil }
        let spacing = axis.labelsOnHorizontalEdges ? marks.spacing?.x : marks.spacing?.y
        return annotation.angleStyle(step: spacing?.step ?? interval)
    }

    static func label(
        axis: Axis, value: Double, interval: Double, full: Bool,
        format: LatLongLabelFormat = .degreesMinutesSeconds, style: SheetGridStyle? = nil,
        annotation: AngleAnnotationStyle? = nil
    ) -> [PageTextRun] {
        let family = style?.font ?? SheetGridStyle.plain.font
        let bold = style?.bold ?? false
        func font(_ size: Double) -> PageFont { PageFont(family: family, size: size, bold: bold) }
        switch axis {
        case .longitude, .latitude, .boundary:
            let text =
                annotation.map { GridText.latLong(value, axis: axis, annotation: $0) }
                ?? GridText.latLong(value, axis: axis, format: format)
            return [PageTextRun(text, font: font(angleSize))]
        case .easting, .northing:
            let parts = principalParts(value, axis: axis, interval: interval)
            guard full else { return [PageTextRun(parts.principal, font: font(principalSize))] }
            var runs: [PageTextRun] = []
            if !parts.prefix.isEmpty { runs.append(PageTextRun(parts.prefix, font: font(smallSize))) }
            runs.append(PageTextRun(parts.principal, font: font(principalSize)))
            runs.append(PageTextRun(parts.suffix, font: font(smallSize)))
            return runs
        }
    }

    /// A UTM value cut the topographic way: the principal digits, the two that change from
    /// one line to the next (ending at the interval's place: tens and units of kilometres on
    /// a 1 km grid, hundreds and tens on a 10 km grid, thousands and hundreds on a 100 km
    /// grid; on a 100 m grid three, down to the hundreds of metres), the prefix before them
    /// and the rest after: `4512000mN` on a 1 km grid is `45`, `12`, `000mN`.
    static func principalParts(_ value: Double, axis: Axis, interval: Double) -> (
        prefix: String, principal: String, suffix: String
    ) {
        let text = GridText.utm(value, axis: axis)
        let unit = String(text.suffix(2))
        let digits = String(text.dropLast(2))
        let place = max(2, Int(log10(max(100, interval)).rounded()))  // 10^place metres: the interval's digit
        let lowDigits = place
        let principalCount = place == 2 ? 3 : 2
        let padded = String(repeating: "0", count: max(0, lowDigits + principalCount - digits.count)) + digits
        return (
            String(padded.dropLast(lowDigits + principalCount)),
            String(padded.dropLast(lowDigits).suffix(principalCount)),
            String(padded.suffix(lowDigits)) + unit
        )
    }

    /// The widest and tallest labels a grid of `type` (nil: none) can print, for sizing the collar.
    static func sampleLabels(for type: GridType?, style: SheetGridStyle = .plain, annotation: GridAnnotation? = nil)
        -> [[PageTextRun]]
    {
        switch type {
        case nil:
            return [[PageTextRun("0", font: PageFont(size: principalSize))]]
        case .latlong:
            let annotated = annotation?.angleStyle(step: 1 / 3600.0).map { a in
                [
                    label(axis: .latitude, value: -88.9999, interval: 0, full: true, style: style, annotation: a),
                    label(
                        axis: .longitude, value: -(178 + 58 / 60.0 + 58.8888 / 3600.0), interval: 0, full: true,
                        style: style, annotation: a),
                ]
            }
            return (annotated ?? []) + [
                label(
                    axis: .latitude, value: -(88 + 58 / 60.0 + 58 / 3600.0), interval: 1 / 3600.0, full: true,
                    style: style),
                label(
                    axis: .longitude, value: -(178 + 58 / 60.0 + 58 / 3600.0), interval: 1 / 3600.0, full: true,
                    style: style),
                label(
                    axis: .longitude, value: -178.9999, interval: 0.0001, full: true, format: .decimalDegrees,
                    style: style),
            ]
        case .utm, .mgrs, .usng:
            return [
                label(axis: .northing, value: 9_988_000, interval: 1000, full: true, style: style),
                label(axis: .northing, value: 9_988_800, interval: 100, full: true, style: style),
            ]
        }
    }

    /// The grid as page items: lines clipped to the frame (finest level first, so coarser
    /// lines lie on top), ticks and labels outside it. `measure` sizes text in the sheet's
    /// fonts; `collar` is the area the labels must stay in.
    func items(transform: FrameTransform, collar: Rect, measure: (PageText) -> PageTextSize) -> [PageItem] {
        items(transform: transform, collar: collar, measure: measure, avoiding: []).items
    }

    /// The items, and the boxes of the values printed; values that would touch `occupied`
    /// (an earlier grid's values) are left out.
    func items(transform: FrameTransform, collar: Rect, measure: (PageText) -> PageTextSize, avoiding occupied: [Rect])
        -> (items: [PageItem], boxes: [Rect])
    {
        let frame = transform.frame
        var paths: [PageItem] = []
        let drawnLines = marks.kind == .lines ? lines : marks.crosses
        for level in styles.keys.sorted(by: >) {
            let polylines = drawnLines.filter { $0.level == level }.map { PagePolyline($0.points) }
            if !polylines.isEmpty, let stroke = styles[level]?.stroke {
                paths.append(.path(polylines, stroke: stroke, fill: nil))
            }
        }
        var items: [PageItem] = [.clipped(frame, paths + marks.frameItems(frame: frame, crossings: self))]
        items += marks.tickItems(frame: frame, crossings: self)

        var boxes: [Rect] = []
        for side in Side.allCases {
            let placed = sideLabels(side, frame: frame, collar: collar, measure: measure, avoiding: occupied)
            items += placed.texts.map { .text($0) }
            boxes += placed.boxes
        }
        return (items, boxes)
    }

    /// The labels of one side, from its start (left, or bottom for the sides), each centred
    /// on its tick; a label that would touch the one before it, or leave the collar, is left
    /// out. The first label that fits is printed in full.
    func sideLabels(_ side: Side, frame: Rect, collar: Rect, measure: (PageText) -> PageTextSize) -> [PageText] {
        sideLabels(side, frame: frame, collar: collar, measure: measure, avoiding: []).texts
    }

    func sideLabels(
        _ side: Side, frame: Rect, collar: Rect, measure: (PageText) -> PageTextSize, avoiding occupied: [Rect]
    ) -> (texts: [PageText], boxes: [Rect]) {
        // A side names the lines it is for: meridians and eastings at the top and bottom,
        // parallels and northings at the sides (a meridian that leaves through the right
        // edge is not named among the latitudes there).
        var along = annotation == nil ? crossings(labelledOn: side) : crossings(annotatedOn: side)
        if side == .left || side == .right { along.reverse() }  // bottom first
        let placement = labelPlacement(side)
        var placed: [PageText] = []
        var boxes: [Rect] = []
        // The first value is printed in full, and so is any whose prefix differs from the
        // last one printed in full (the principal digits alone would repeat).
        var lastPrefix: String?
        for c in along {
            let (position, anchor) = placement(c.point)
            let line = lines[c.line]
            let prefix =
                line.axis == .easting || line.axis == .northing
                ? FrameGrid.principalParts(line.value, axis: line.axis, interval: interval).prefix : ""
            for full in lastPrefix == prefix ? [false] : [true, false] {
                var text = PageText(
                    label(for: line, full: full), at: position, anchor: anchor,
                    color: styles[line.level]?.textColor ?? .black, halo: placement.inside ? FrameGrid.insideHalo : nil)
                text.turned = placement.turned
                let size = measure(text)
                let box = FrameGrid.box(of: size, at: position, anchor: anchor)
                // Along the side, labels stay within the frame's span (the corners hold the
                // corner coordinates); across it, within the collar.
                let span =
                    side == .top || side == .bottom
                    ? (box.minX >= frame.minX - 0.5 && box.maxX <= frame.maxX + 0.5)
                    : (box.minY >= frame.minY - 0.5 && box.maxY <= frame.maxY + 0.5)
                // Outside, in the collar; inside, over the map within the frame.
                let room = placement.inside ? frame.contains(box) : collar.contains(box)
                guard span, room, !(boxes + occupied).contains(where: { $0.expanded(by: 0.6).overlaps(box) }) else {
                    continue
                }
                placed.append(text)
                boxes.append(box)
                if full { lastPrefix = prefix }
                break
            }
        }
        return (placed, boxes)
    }

    /// The crossings on `side` of the lines labelled there: meridians and eastings on the top
    /// and bottom, parallels and northings on the left and right.
    func crossings(labelledOn side: Side) -> [Crossing] {
        crossings.filter { c in
            let axis = lines[c.line].axis
            return c.side == side
                && (side == .top || side == .bottom ? axis.labelsOnHorizontalEdges : axis.labelsOnVerticalEdges)
        }
    }

    static func box(of size: PageTextSize, at position: PlanePoint, anchor: PageTextAnchor) -> Rect {
        let corner = size.topLeft(at: position, anchor: anchor)
        return Rect(x: corner.x, y: corner.y, width: size.width, height: size.height)
    }
}
