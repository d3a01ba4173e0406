import Foundation
import Geodesy
import MapModel
import Render

/// A series of sheets at one scale covering a bbox, the way printed map series work: all in
/// one UTM plane (the zone of the bbox's centre) so their frames tile exactly, neighbours
/// sharing a strip of `overlap` millimetres, named by row (A, B... from the north) and column
/// (1, 2... from the west), with an index sheet showing where each lies.
public struct SheetSeries {
    public struct Cell: Sendable {
        /// `B3`: row letter(s) and column number.
        public var name: String
        public var row: Int
        public var column: Int
        /// The frame's centre in the plane.
        public var centre: PlanePoint
        /// The frame's rectangle in the plane.
        public var extent: Rect
    }

    public static let defaultOverlap = 10.0
    /// More sheets than this is surely a mistake (a scale off by a factor of ten).
    public static let maxSheets = 500

    public let request: SheetRequest
    public let plane: any SheetPlane
    public let scale: Double
    public let layout: SheetLayout
    /// Millimetres of paper neighbouring sheets share.
    public let overlap: Double
    public let rows: Int
    public let columns: Int
    /// Row by row from the north-west.
    public let cells: [Cell]

    /// The series covering the request's bbox, every sheet of it and its index, laid out
    /// (nothing written yet). When a sheet's notes need more room below the map than the
    /// standard band, the whole series is planned again with a deeper band, so that all its
    /// frames stay alike.
    public static func layOut(_ request: SheetRequest, overlap: Double, renderer: MapRenderer) throws -> (
        plan: SheetSeries, sheets: [(name: String, sheet: Sheet)], index: Sheet
    ) {
        try Sheet.withRoomForNotes(
            { bottomHeight in
                let plan = try self.plan(request, overlap: overlap, renderer: renderer, bottomHeight: bottomHeight)
                return (plan, try plan.sheets(renderer: renderer), try plan.indexSheet(renderer: renderer))
            },
            shortfall: { laid in
                (
                    (laid.sheets.map(\.sheet) + [laid.index]).map(\.notesShortfall).max() ?? 0,
                    laid.plan.layout.notes.height
                )
            })
    }

    /// Plans the series covering the request's bbox at its scale, with `bottomHeight` (mm)
    /// below the map when given.
    public static func plan(
        _ request: SheetRequest, overlap: Double, renderer: MapRenderer, bottomHeight: Double? = nil
    ) throws -> SheetSeries {
        guard case .bbox(let west, let south, let east, let north) = request.area else {
            throw SheetError.seriesNeedsBBox
        }
        guard let scale = request.scale else { throw SheetError.seriesNeedsScale }
        try Sheet.checkScaleValue(scale)
        let box = try Sheet.checkBBox(west: west, south: south, east: east, north: north)
        let layout = try Sheet.layout(for: request, renderer: renderer, bottomHeight: bottomHeight)
        guard overlap.isFinite, overlap >= 0, overlap < min(layout.frame.width, layout.frame.height) / 2 else {
            throw SheetError.invalid(
                "an overlap of \(Millimetres.text(overlap)) mm is more than half the map frame (\(Millimetres.text(layout.frame.width)) x \(Millimetres.text(layout.frame.height)) mm)"
            )
        }
        let plane = try Sheet.plane(
            request.crs, latitude: (box.south + box.north) / 2, longitude: (box.west + box.east) / 2)
        let bounds = Sheet.planeBounds(plane, box)
        let metresPerMillimetre = scale / 1000
        let frameWidth = layout.frame.width * metresPerMillimetre
        let frameHeight = layout.frame.height * metresPerMillimetre
        let shared = overlap * metresPerMillimetre
        func count(_ extent: Double, _ frame: Double) -> Int {
            max(1, Int(((extent - shared) / (frame - shared) - 1e-9).rounded(.up)))
        }
        let columns = count(bounds.width, frameWidth)
        let rows = count(bounds.height, frameHeight)
        guard rows * columns <= maxSheets else {
            throw SheetError.invalid(
                "at \(ScaleText.ratio(scale)) the bbox needs \(rows) x \(columns) = \(rows * columns) sheets on \(layout.paper.description) (at most \(maxSheets)): use a larger scale denominator or larger paper"
            )
        }
        // The series is centred on the bbox.
        let totalWidth = Double(columns) * (frameWidth - shared) + shared
        let totalHeight = Double(rows) * (frameHeight - shared) + shared
        let left = bounds.centerX - totalWidth / 2
        let top = bounds.centerY + totalHeight / 2
        var cells: [Cell] = []
        for row in 0..<rows {
            for column in 0..<columns {
                let minX = left + Double(column) * (frameWidth - shared)
                let maxY = top - Double(row) * (frameHeight - shared)
                let extent = Rect(minX: minX, minY: maxY - frameHeight, maxX: minX + frameWidth, maxY: maxY)
                cells.append(
                    Cell(
                        name: rowName(row) + String(column + 1), row: row, column: column,
                        centre: extent.center, extent: extent))
            }
        }
        return SheetSeries(
            request: request, plane: plane, scale: scale, layout: layout, overlap: overlap,
            rows: rows, columns: columns, cells: cells)
    }

    /// A, B, ... Z, AA, AB, ...: rows as spreadsheets name columns.
    static func rowName(_ index: Int) -> String {
        var n = index + 1
        var name = ""
        while n > 0 {
            let r = (n - 1) % 26
            name = String(UnicodeScalar(UInt8(65 + r))) + name
            n = (n - 1) / 26
        }
        return name
    }

    var rowRange: String { rows == 1 ? "A" : "A–\(SheetSeries.rowName(rows - 1))" }
    var columnRange: String { columns == 1 ? "1" : "1–\(columns)" }

    /// The name of the cell at (row, column), or nil beyond the series.
    func name(row: Int, column: Int) -> String? {
        guard (0..<rows).contains(row), (0..<columns).contains(column) else { return nil }
        return SheetSeries.rowName(row) + String(column + 1)
    }

    /// Every sheet of the series, laid out (nothing written yet).
    public func sheets(renderer: MapRenderer) throws -> [(name: String, sheet: Sheet)] {
        try cells.map { cell in
            let neighbours = [
                ("north", cell.row - 1, cell.column), ("east", cell.row, cell.column + 1),
                ("south", cell.row + 1, cell.column), ("west", cell.row, cell.column - 1),
            ]
            .compactMap { direction, r, c in name(row: r, column: c).map { "\(direction) \($0)" } }
            var note = "Sheet \(cell.name) of \(rows) x \(columns); overlap \(Millimetres.text(overlap)) mm."
            if !neighbours.isEmpty { note += " Adjoining: \(neighbours.joined(separator: ", "))." }
            let notes = [note]
            let subtitle = "Sheet \(cell.name) · rows \(rowRange), columns \(columnRange)"
            let sheet = try Sheet.compose(
                request, renderer: renderer, plane: plane, centre: cell.centre, scale: scale,
                scaleWasChosen: false, layout: layout, subtitle: subtitle, extra: { _ in [] }, notes: notes)
            return (cell.name, sheet)
        }
    }

    static let indexStroke = PageStroke(color: Color(rgb: 0xc0392b), width: 0.4)
    static let indexFont = PageFont(size: 12, bold: true)

    /// The index: a sheet showing the whole series at the largest round scale that fits,
    /// each sheet's frame outlined and named.
    public func indexSheet(renderer: MapRenderer) throws -> Sheet {
        var union = Rect.empty
        for cell in cells { union = union.union(cell.extent) }
        let frame = layout.frameMetres
        // A little room around the outlines so the outer ones are not drawn on the neatline.
        let needed = max(union.width / frame.width, union.height / frame.height) * 1.04
        let scale = RoundScale.atLeast(needed)
        var request = self.request
        request.title = (request.title ?? renderer.map.document.name ?? "Map") + " — index"
        let subtitle =
            "Index to \(rows) x \(columns) sheets at \(ScaleText.ratio(self.scale))"
        let notes = [
            "Each outline is the map frame of one sheet of the series, named by row (\(rowRange), from the north) and column (\(columnRange), from the west); neighbours overlap by \(Millimetres.text(overlap)) mm."
        ]
        return try Sheet.compose(
            request, renderer: renderer, plane: plane, centre: union.center, scale: scale,
            scaleWasChosen: true, layout: layout, subtitle: subtitle,
            extra: { transform in
                var outlines: [PagePolyline] = []
                var names: [PageItem] = []
                for cell in cells {
                    let a = transform.page(PlanePoint(x: cell.extent.minX, y: cell.extent.maxY))
                    let b = transform.page(PlanePoint(x: cell.extent.maxX, y: cell.extent.minY))
                    outlines.append(
                        PagePolyline(Rect(minX: a.x, minY: a.y, maxX: b.x, maxY: b.y).corners, closed: true))
                    let centre = transform.page(cell.centre)
                    names.append(
                        .text(
                            PageText(
                                cell.name, font: SheetSeries.indexFont, at: centre,
                                anchor: PageTextAnchor(.center, .middle),
                                color: SheetSeries.indexStroke.color, halo: (.white, 0.5))))
                }
                return [
                    .clipped(transform.frame, [.path(outlines, stroke: SheetSeries.indexStroke, fill: nil)] + names)
                ]
            }, notes: notes)
    }

    /// `out/nyc.pdf` with suffix `A1` -> `out/nyc-A1.pdf`.
    public static func path(_ output: String, suffix: String) -> String {
        let ext = (output as NSString).pathExtension
        let stem = (output as NSString).deletingPathExtension
        return "\(stem)-\(suffix).\(ext)"
    }
}
