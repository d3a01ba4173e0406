import DataSources
import Foundation
import Geodesy
import Grids
import MapModel
import Render

/// One printable map sheet, laid out and ready to write with `PageWriter`.
///
/// The map is drawn in the UTM zone of the sheet's centre (`UTMPlane`), at exactly the scale
/// asked for on the grid: a kilometre of grid distance is 1,000,000 / scale millimetres on
/// paper, in the PDF's points and in the PNG's pixels alike. UTM's scale factor is within
/// 0.04% of 1 across the middle of a zone (0.9996 on the central meridian, 1 about 180 km
/// either side), so ground distances agree with the scale to that too, and MGRS/UTM grid
/// lines come out straight and square to the frame, as on printed topographic sheets.
public struct Sheet {
    public let title: String
    public let plane: any SheetPlane
    /// The scale denominator.
    public let scale: Double
    /// True when the scale was chosen to fit a bbox rather than given.
    public let scaleWasChosen: Bool
    public let layout: SheetLayout
    /// The map view: its plane, scale, size in pixels and dpi.
    public let view: View
    public let transform: FrameTransform
    /// The main grid: the first of `grids`.
    public let grid: FrameGrid?
    /// Every grid the sheet prints, in order, each with its band of values in the collar
    /// (`SheetGrids`).
    public let grids: [FrameGrid]
    /// The neatline on the page (mm), a closed ring: the frame's corners, or a quadrangle's
    /// meridians and parallels walked clockwise from its north-west corner.
    public let neatline: [PlanePoint]
    public let page: Page
    /// How much deeper (mm) the band below the map must be for the notes to fit at the
    /// smallest notes font; 0 when they fit.
    let notesShortfall: Double

    /// Frames must stay this close to the zone's central meridian (metres): there the grid
    /// scale factor is within 1.3% of its value at the centre, so the sheet stays a
    /// true-scale sheet; beyond, a map is better drawn with `meridian render`.
    static let maxDistanceFromCentralMeridian = 1_000_000.0
    /// The legend rows kept above a grid-reference box.
    static let legendRowsAboveBox = 6
    /// The largest scale denominator accepted (before the distance check, which is stricter).
    static let maxScale = 100_000_000.0

    /// Lays out a sheet of `request` for the map `renderer` draws.
    public static func make(_ request: SheetRequest, renderer: MapRenderer) throws -> Sheet {
        try withRoomForNotes { bottomHeight in
            var layout = try self.layout(for: request, renderer: renderer, bottomHeight: bottomHeight)
            let placed = try place(request.area, scale: request.scale, layout: layout, crs: request.crs)
            let quadrangle = request.quadrangle
            if let quad = quadrangle {
                // The frame shrinks to the quadrangle's rectangle, a millimetre to spare each side.
                let bounds = planeBounds(placed.plane, quad.box)
                let mm = 1000 / placed.scale
                layout = try self.layout(
                    for: request, renderer: renderer, bottomHeight: bottomHeight,
                    mapSize: (bounds.width * mm + 2, bounds.height * mm + 2))
            }
            return try compose(
                request, renderer: renderer, plane: placed.plane, centre: placed.centre, scale: placed.scale,
                scaleWasChosen: request.scale == nil, layout: layout, subtitle: quadrangle?.description,
                extra: { _ in [] }, quadrangle: quadrangle)
        }
    }

    /// Lays out with the standard band below the map, then, while the notes do not fit it
    /// even in the smallest notes font, with a deeper band (the map frame gives up the room).
    static func withRoomForNotes<T>(_ make: (Double?) throws -> T, shortfall: (T) -> (Double, Double))
        throws -> T
    {
        var bottomHeight: Double?
        var result = try make(nil)
        for _ in 0..<3 {
            let (needed, current) = shortfall(result)
            guard needed > 0.01 else { return result }
            bottomHeight = current + needed + 0.5
            result = try make(bottomHeight)
        }
        let (needed, _) = shortfall(result)
        guard needed <= 0.01 else { throw SheetError.notesTooLong }
        return result
    }

    static func withRoomForNotes(_ make: (Double?) throws -> Sheet) throws -> Sheet {
        try withRoomForNotes(make) { ($0.notesShortfall, $0.layout.notes.height) }
    }

    /// The largest round scale at which the request's bbox fits its paper.
    public static func fittingScale(_ request: SheetRequest, renderer: MapRenderer) throws -> Double {
        var request = request
        request.scale = nil
        return try place(request.area, scale: nil, layout: layout(for: request, renderer: renderer), crs: request.crs)
            .scale
    }

    /// The layout, with a collar deep enough for every grid's widest value, each in its band.
    static func layout(
        for request: SheetRequest, renderer: MapRenderer, bottomHeight: Double? = nil,
        mapSize: (width: Double, height: Double)? = nil
    ) throws(SheetError) -> SheetLayout {
        let choices = SheetGrids.choices(request, document: renderer.map.document)
        let bands = SheetGrids.bands(choices) { renderer.measure($0) }
        return try SheetLayout(
            paper: request.paper, margins: request.margins, dpi: request.dpi,
            labelWidth: bands.width, labelHeight: bands.height, bottomHeight: bottomHeight, mapSize: mapSize)
    }

    /// The plane, the frame's centre in it and the scale, for an area on a layout.
    static func place(_ area: SheetRequest.Area, scale: Double?, layout: SheetLayout, crs: ProjectedPlane? = nil)
        throws(SheetError) -> (plane: any SheetPlane, centre: PlanePoint, scale: Double)
    {
        if let scale { try checkScaleValue(scale) }
        switch area {
        case .center(let longitude, let latitude):
            guard longitude.isFinite, latitude.isFinite, abs(longitude) <= 180, abs(latitude) <= 90 else {
                throw .invalid(
                    "the centre \(DecimalFormat.shortest(longitude)),\(DecimalFormat.shortest(latitude)) is not a longitude,latitude position"
                )
            }
            guard let scale else {
                throw .centreNeedsScale
            }
            let plane = try self.plane(crs, latitude: latitude, longitude: longitude)
            return (plane, plane.project(latitude: latitude, longitude: longitude), scale)
        case .bbox(let west, let south, let east, let north):
            let box = try checkBBox(west: west, south: south, east: east, north: north)
            return try place(box, scale: scale, preferred: nil, layout: layout, crs: crs)
        case .quadrangle(let quad):
            do {
                return try place(quad.box, scale: scale, preferred: quad.seriesScale, layout: layout, crs: crs)
            } catch {
                // Said of the quadrangle, and without a series to suggest: a quadrangle is one sheet.
                guard case .bboxDoesNotFit(let scale, let needed, let frame, let fitting?) = error else { throw error }
                throw .invalid(
                    SheetError.bboxDoesNotFitProblem(scale: scale, needed: needed, frame: frame)
                        .replacingOccurrences(of: "the bbox", with: "the quadrangle")
                        + ": use --scale \(Int(fitting)) or more, or larger paper")
            }
        }
    }

    /// The plane, centre and scale for a longitude/latitude box: without a scale, `preferred`
    /// when the box fits at it, else the largest round scale at which it fits.
    static func place(
        _ box: GeoBox, scale: Double?, preferred: Double?, layout: SheetLayout, crs: ProjectedPlane?
    ) throws(SheetError) -> (plane: any SheetPlane, centre: PlanePoint, scale: Double) {
        let plane = try self.plane(crs, latitude: (box.south + box.north) / 2, longitude: (box.west + box.east) / 2)
        let bounds = planeBounds(plane, box)
        let centre = bounds.center
        let frame = layout.frameMetres
        let needed = max(bounds.width / frame.width, bounds.height / frame.height)
        let round = RoundScale.atLeast(max(1, needed))
        let fitting = preferred.map { needed <= $0 * (1 + 1e-9) ? $0 : round } ?? round
        guard let scale else { return (plane, centre, fitting) }
        if needed > scale * (1 + 1e-6) {
            throw .bboxDoesNotFit(
                scale: scale, needed: (bounds.width / scale * 1000, bounds.height / scale * 1000),
                frame: (layout.frame.width, layout.frame.height), fitting: fitting)
        }
        return (plane, centre, scale)
    }

    static func checkScaleValue(_ scale: Double) throws(SheetError) {
        guard scale.isFinite, scale >= 1, scale <= maxScale else { throw .scaleOutOfRange(scale, max: maxScale) }
    }

    static func checkBBox(west: Double, south: Double, east: Double, north: Double) throws(SheetError) -> GeoBox {
        do {
            return try GeoBox(checkingWest: west, south: south, east: east, north: north)
        } catch {
            throw .invalid(error.description)
        }
    }

    /// The plane rectangle that holds a longitude/latitude box (its edges walked: they are
    /// curves in the plane).
    static func planeBounds(_ plane: any SheetPlane, _ box: GeoBox) -> Rect {
        box.rect.boundsOfEdges(steps: 64) { plane.project(latitude: $0.y, longitude: $0.x) }
    }

    /// Refuses frames the zone cannot carry at a true scale: too far from its central
    /// meridian, or over a pole.
    static func checkReach(plane: UTMPlane, extent: Rect, scale: Double, paper: Paper) throws(SheetError) {
        let offset = max(abs(extent.minX - WGS84.utmFalseEasting), abs(extent.maxX - WGS84.utmFalseEasting))
        if offset > maxDistanceFromCentralMeridian {
            let centreOffset = abs(extent.centerX - WGS84.utmFalseEasting)
            let largest = (maxDistanceFromCentralMeridian - centreOffset) / (extent.width / 2) * scale
            throw .scaleTooSmall(
                scale: scale,
                reason:
                    "the sheet on \(paper.description) reaches \(ScaleText.grouped((offset / 1000).rounded())) km from the central meridian of \(plane.identifier), where the grid's scale is more than 1% off; a true-scale sheet stays within \(ScaleText.grouped(maxDistanceFromCentralMeridian / 1000)) km of it",
                largestScale: largest >= 1 ? Int(largest.rounded(.down)) : nil)
        }
        let lon0 = plane.centralMeridian
        let top = plane.project(latitude: 89.5, longitude: lon0).y
        let bottom = plane.project(latitude: -89.5, longitude: lon0).y
        if extent.maxY > top || extent.minY < bottom {
            throw .scaleTooSmall(
                scale: scale, reason: "the sheet on \(paper.description) reaches past a pole", largestScale: nil)
        }
    }

    /// Builds the page: map, grid, frame, collar and marginalia.
    static func compose(
        _ request: SheetRequest, renderer: MapRenderer, plane: any SheetPlane, centre: PlanePoint,
        scale: Double, scaleWasChosen: Bool, layout: SheetLayout, subtitle: String?,
        extra: (FrameTransform) -> [PageItem], notes extraNotes: [String] = [], quadrangle: Quadrangle? = nil
    ) throws -> Sheet {
        try checkScaleValue(scale)
        let view: View
        do {
            view = try View.centered(
                in: plane, x: centre.x, y: centre.y, scale: scale,
                width: layout.pixelWidth, height: layout.pixelHeight, dpi: layout.dpi)
        } catch {
            throw SheetError.frameNotDrawable(
                width: layout.pixelWidth, height: layout.pixelHeight, dpi: layout.dpi, reason: "\(error)")
        }
        let transform = FrameTransform(frame: layout.frame, extent: view.planeExtent)
        try plane.checkReach(extent: transform.extent, scale: scale, paper: layout.paper)

        let document = renderer.map.document
        let title = request.title ?? document.name ?? "Map"
        let measure: (PageText) -> PageTextSize = { renderer.measure($0) }
        let choices = SheetGrids.choices(request, document: document)
        var grids = try SheetGrids.make(
            choices, offsets: SheetGrids.bands(choices, measure: measure).offsets, plane: plane, transform: transform,
            crs: request.gridCRS)
        let centreGeo = plane.unproject(centre)
        // The neatline: the frame, or the quadrangle's meridians and parallels inside it, which
        // then clips the map and the grid and carries the grid's ticks.
        let neatline = quadrangle.map { QuadrangleFrame.neatline($0, plane: plane, transform: transform) }
        func clipped(_ inner: [PageItem]) -> [PageItem] {
            guard let neatline else { return inner }
            return [.clippedToPath([PagePolyline(neatline, closed: true)], inner)]
        }
        if let neatline { grids = grids.map { QuadrangleFrame.crossing($0, neatline: neatline) } }
        let grid = grids.first

        // The map without the document's grid: the sheet prints its grid itself, in its zone.
        var items = clipped([
            .map(view, origin: PlanePoint(x: layout.frame.minX, y: layout.frame.minY), grid: false)
        ])
        if !grids.isEmpty {
            // Values along a quadrangle's sides stay between its corners.
            let labelling = neatline.map { FrameTransform(frame: QuadrangleFrame.inner($0), extent: view.planeExtent) }
            let drawn = SheetGrids.items(
                grids, transform: labelling ?? transform, collar: layout.border, measure: measure)
            items += (drawn.lines + drawn.labels).flatMap { item -> [PageItem] in
                if case .clipped(_, let lines) = item { return clipped([.clipped(transform.frame, lines)]) }
                return [item]
            }
            if grids.contains(where: { $0.type == .mgrs || $0.type == .usng }) {
                items += clipped(SquareLetters.items(plane: plane, transform: transform))
            }
        }
        // A latitude/longitude grid among the sheet's grids stands in for the geographic ticks.
        if !grids.contains(where: { $0.type == .latlong }) {
            items += GeographicTicks.items(
                plane: plane, transform: transform, quadrangle: quadrangle, border: grid?.marks,
                annotation: SheetGrids.angleAnnotation(grids), measure: measure)
        }
        items += extra(transform)
        items.append(
            .path(
                [PagePolyline(neatline ?? layout.frame.corners, closed: true)],
                stroke: PageStroke(width: 0.35, squareCaps: true), fill: nil))
        items.append(
            .path(
                [PagePolyline(layout.border.corners, closed: true)], stroke: PageStroke(width: 0.7, squareCaps: true),
                fill: nil))
        let f = layout.frame
        let corners =
            neatline.map(QuadrangleFrame.corners)
            ?? [
                PlanePoint(x: f.minX, y: f.minY), PlanePoint(x: f.maxX, y: f.minY), PlanePoint(x: f.minX, y: f.maxY),
                PlanePoint(x: f.maxX, y: f.maxY),
            ]
        items += CornerCoordinates.items(
            corners, plane: plane, transform: transform, annotation: SheetGrids.angleAnnotation(grids))

        let centreText =
            AngleFormat.dms(centreGeo.latitude, kind: .latitude, trailing: .second, style: .compact) + " "
            + AngleFormat.dms(centreGeo.longitude, kind: .longitude, trailing: .second, style: .compact)
        items += Marginalia.titleItems(
            title: title, subtitle: subtitle ?? "Centred on \(centreText)",
            in: layout.titleBand)
        let notes =
            self.notes(
                request: request, document: document, plane: plane, grids: grids, transform: transform,
                scale: scale, centreScale: centreGeo.scale) + extraNotes
        // The notes share their column with the legend when the map has layers to show, and
        // on an MGRS or USNG sheet with the grid-reference box below it.
        let legend = Legend.entries(document, scale: scale)
        // The box reads references off the plane's own UTM grid, so only a UTM sheet has one.
        let sample = grid.flatMap { g in
            (g.type == .mgrs || g.type == .usng) && g.crs == nil
                ? (plane as? UTMPlane).flatMap {
                    GridReferenceBox.sample(plane: $0, transform: transform, interval: g.interval)
                } : nil
        }
        var notesBox = layout.notes
        var columnShortfall = 0.0
        if !legend.isEmpty || sample != nil {
            let legendWidth = min(45, layout.notes.width * 0.36)
            notesBox.maxX -= legendWidth + SheetLayout.gap
            let column = Rect(
                x: notesBox.maxX + SheetLayout.gap, y: layout.notes.minY, width: legendWidth,
                height: layout.notes.height)
            var legendBox = column
            if let sample, let grid {
                // Below the legend, whose rows beyond `legendRowsAboveBox` are left out (so a
                // long legend never pushes the box off the page); the band grows to hold both.
                let rows = min(legend.count, Sheet.legendRowsAboveBox)
                let legendHeight = legend.isEmpty ? 0 : Legend.height(rows: rows) + 2
                legendBox.maxY = column.minY + legendHeight
                let box = GridReferenceBox.items(
                    sample, interval: grid.interval, in: column.offsetTop(by: legendHeight), transform: transform,
                    measure: measure)
                items += box.items
                columnShortfall = max(0, legendHeight + box.height - column.height)
            }
            if !legend.isEmpty { items += Legend.items(legend, in: legendBox) }
        }
        let fitted = Marginalia.fittedParagraphs(notes, in: notesBox, measure: measure)
        items += fitted.items
        items += Marginalia.scaleItems(
            scale: scale, caption: plane.scaleCaption,
            in: layout.scaleBox, measure: measure)
        items += NorthArrow(convergence: centreGeo.convergence).items(in: layout.northBox, measure: measure)

        let page = Page(width: layout.paper.width, height: layout.paper.height, items: items, title: title)
        return Sheet(
            title: title, plane: plane, scale: scale, scaleWasChosen: scaleWasChosen, layout: layout, view: view,
            transform: transform, grid: grid, grids: grids, neatline: neatline ?? layout.frame.corners, page: page,
            notesShortfall: max(fitted.shortfall, columnShortfall))
    }

    /// The notes in the bottom-left: projection and datum, the grid, what the scale means,
    /// the data's attribution and (only when asked) the date.
    static func notes(
        request: SheetRequest, document: MapDocument, plane: any SheetPlane, grids: [FrameGrid],
        transform: FrameTransform, scale: Double, centreScale: Double
    ) -> [String] {
        var notes = [plane.projectionNote]
        notes += grids.map { gridNote($0, plane: plane, transform: transform, quadrangle: request.quadrangle) }
        if grids.isEmpty { notes.append("No grid.") }
        let km = 1_000_000 / scale
        let ground = (1 / centreScale - 1) * 100
        let direction = ground >= 0 ? "longer" : "shorter"
        notes.append(
            "Scale \(ScaleText.ratio(scale)) on the grid: 1 km = \(ScaleText.number((km * 100).rounded() / 100)) mm. "
                + "Scale factor \(String(format: "%.5f", centreScale)) at the centre: ground distances there are \(String(format: "%.2f", abs(ground)))% \(direction)."
        )
        if let attribution = document.attribution, !attribution.isEmpty { notes.append("Data: \(attribution)") }
        if let date = request.date { notes.append("Printed \(date).") }
        return notes
    }

    /// `Grid: MGRS, WGS84, 1,000 m squares. Grid zone 18T; 100,000 m squares WL, XL.`
    static func gridNote(
        _ grid: FrameGrid, plane: any SheetPlane, transform: FrameTransform, quadrangle: Quadrangle? = nil
    ) -> String {
        var note: String
        if let crs = grid.crs { return "Grid: \(crs), \(ScaleText.grouped(grid.interval)) m; values in metres." }
        switch grid.type {
        case .latlong:
            note = "Grid: latitude/longitude, WGS84, every \(GridText.interval(grid.interval, format: grid.format))."
        case .utm:
            note =
                "Grid: UTM \(plane.zoneName), WGS84, \(ScaleText.grouped(grid.interval)) m; values in metres."
        case .mgrs, .usng:
            var zones: [String] = []
            var squares: [String] = []
            for point in mapSamples(plane: plane, transform: transform, quadrangle: quadrangle) {
                let p = plane.unproject(point)
                if let band = LatitudeBand.containing(latitude: p.latitude) {
                    let gzd = MGRS.gridZoneDesignator(zone: plane.zone, band: band)
                    if !zones.contains(gzd) { zones.append(gzd) }
                }
                let utm = plane.utmCoordinates(point)
                if let letters = MGRS.squareLetters(zone: plane.zone, easting: utm.x, northing: utm.y) {
                    let id = String(letters.column) + String(letters.row)
                    if !squares.contains(id) { squares.append(id) }
                }
            }
            note =
                "Grid: \(grid.type.displayName), WGS84, \(ScaleText.grouped(grid.interval)) m. Grid zone \(zones.sorted().joined(separator: ", ")); 100,000 m square\(squares.count == 1 ? "" : "s") \(squares.sorted().joined(separator: ", "))."
        }
        // A sheet that reaches into the next zone shows its own zone's grid carried over. A
        // quadrangle never does (zone edges are whole degrees), though the frame around it may.
        let edges = quadrangle == nil ? zoneEdges(plane: plane, transform: transform) : []
        if grid.type.isUTMFamily, !edges.isEmpty {
            note +=
                " The sheet crosses the zone edge\(edges.count == 1 ? "" : "s") at \(edges.joined(separator: " and ")); the grid shown beyond it is zone \(plane.zone)'s, extended."
        }
        return note
    }

    /// Points (plane metres) spread over what the map shows, 41 x 41: inside the neatline of a
    /// quadrangle (its meridians and parallels, not the frame's rectangle around it), else
    /// over the frame.
    static func mapSamples(plane: any SheetPlane, transform: FrameTransform, quadrangle: Quadrangle?) -> [PlanePoint] {
        let steps = 40
        var points: [PlanePoint] = []
        for i in 0...steps {
            for j in 0...steps {
                let u = Double(i) / Double(steps)
                let v = Double(j) / Double(steps)
                if let q = quadrangle {
                    points.append(plane.project(latitude: q.south + q.size * v, longitude: q.west + q.size * u))
                } else {
                    let e = transform.extent
                    points.append(PlanePoint(x: e.minX + e.width * u, y: e.minY + e.height * v))
                }
            }
        }
        return points
    }

    /// The edges of the sheet's zone that its frame reaches over, west to east then south to
    /// north: the zone's meridians as Geodesy draws the zones (so 3°E for 32V, whose cell
    /// spans 3°E–12°E, and 21°E for 33X), or the parallel where the zone stops having a cell
    /// (72°N for 32X, 34X and 36X; the UPS caps).
    static func zoneEdges(plane: any SheetPlane, transform: FrameTransform) -> [String] {
        var meridians = Set<Double>()
        var parallels = Set<Double>()
        let centralMeridian = plane.centralMeridian
        for point in transform.extent.edgePoints(steps: 32) {
            let p = plane.unproject(point)
            // Longitudes near the central meridian, so zones 1 and 60 stay whole at 180°.
            let longitude = centralMeridian + (p.longitude - centralMeridian).remainder(dividingBy: 360)
            if let range = UTM.longitudeRange(zone: plane.zone, latitude: p.latitude) {
                if longitude < range.lowerBound - 1e-9 { meridians.insert(range.lowerBound) }
                if longitude > range.upperBound + 1e-9 { meridians.insert(range.upperBound) }
            } else if p.latitude >= 84 || p.latitude < -80 {
                parallels.insert(p.latitude < 0 ? -80 : 84)
            } else if let band = LatitudeBand.containing(latitude: p.latitude) {
                parallels.insert(band.south)
            }
        }
        return meridians.sorted().map { AngleFormat.dms($0, kind: .longitude, trailing: .degree, style: .compact) }
            + parallels.sorted().map { AngleFormat.dms($0, kind: .latitude, trailing: .degree, style: .compact) }
    }
}

extension Rect {
    /// The rectangle with its top edge moved down by `amount` (its bottom kept).
    fileprivate func offsetTop(by amount: Double) -> Rect {
        Rect(minX: minX, minY: minY + amount, maxX: maxX, maxY: maxY)
    }
}
