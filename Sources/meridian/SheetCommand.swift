import DataSources
import Foundation
import MapModel
import Render
import Sheets
import Tiles

/// `meridian sheet`: a printable map sheet at an exact scale, or a series of them.
enum SheetCommand: Subcommand {
    static let name = "sheet"
    static let summary = "print a map sheet (or a series) at an exact scale: PDF, SVG or PNG"
    static let usage = """
        usage: meridian sheet MAP.json [--scale DENOM] (--center LON,LAT | --bbox W,S,E,N) [--paper SIZE]
               meridian sheet MAP.json --quad SIZE (--center LON,LAT | --corner LON,LAT) [--scale DENOM] ...
                              [--orientation portrait|landscape] [--margins MM] [--dpi D] [--title TEXT]
                              [--grid TYPE] [--annotation JSON|FILE] [--crs CODE] [--date] [--series [--overlap MM]]
                              -o SHEET.pdf|SHEET.svg|SHEET.png

          --scale DENOM         the scale denominator (25000 for 1:25,000); with --bbox and no --scale,
                                the largest round scale at which the bbox fits is chosen and printed
          --center LON,LAT      the centre of the map frame, in degrees (needs --scale)
          --bbox W,S,E,N        the area the map frame must show, in degrees
          --quad SIZE           a quadrangle sheet: 7.5', 15', 30' or 1° of latitude and longitude
                                at round corners, bounded by its meridians and parallels; the one
                                holding --center, or the one whose south-east corner is --corner.
                                Without --scale: 1:24,000, 1:62,500, 1:125,000 or 1:250,000 when
                                it fits the paper, else the largest round scale that does
          --corner LON,LAT      with --quad: the quadrangle's south-east corner
          --paper SIZE          A4 (default), A3, A2, A1, A0, letter, legal, tabloid or WIDTHxHEIGHTmm
          --orientation O       portrait or landscape (default: as the paper is named; with --bbox
                                and a named paper, whichever fits the bbox at the larger scale)
          --margins MM          unprinted border on every side, in millimetres (default 10)
          --dpi D               PNG resolution, recorded in the file; the map is drawn at it in every
                                format (default 300)
          --title TEXT          the title (default: the map document's name)
          --grid TYPE           mgrs, usng, utm, latlong, crs (the eastings and northings of --crs)
                                or none (default: the type of the map document's grid, in its
                                style; mgrs when it has none)
          --annotation A        how the grid's values are written and placed: a grid annotation
                                object (docs/grids.md), inline or in a file, instead of the
                                document grid's
          --crs CODE            draw the sheet in this projected CRS (EPSG:27700, a WKT or a PROJ
                                string): the scale is exact on its grid (default: the UTM zone of
                                the centre)
          --date                print today's date (UTC) in the notes; off by default so that the
                                same command gives the same bytes
          --series              cover the bbox with sheets at one scale, named by row (A, B... from
                                the north) and column (1, 2... from the west): SHEET-A1.pdf...,
                                plus SHEET-index.pdf showing where each lies
          --overlap MM          with --series: how much neighbouring sheets share (default 10)
          -o, --output FILE     .pdf or .svg (vector: lines stay lines, text stays text) or .png

        The sheet is drawn in the UTM zone of its centre (or --crs) and the scale is exact on that grid.
        """
    static let flags: Set<String> = ["date", "series"]

    static func run(_ arguments: Arguments) throws -> Int32 {
        let bbox = try arguments.value("bbox")
        let center = try arguments.value("center")
        let quadText = try arguments.value("quad")
        let corner = try arguments.value("corner")
        let scale = try arguments.value("scale").map { try ViewOptions.positiveNumber($0, option: "scale") }
        let paperText = try arguments.value("paper")
        let orientation = try arguments.value("orientation").map(SheetOptions.orientation)
        let margins =
            try arguments.value("margins").map { try nonNegative($0, option: "margins") } ?? SheetRequest.defaultMargins
        let dpi =
            try arguments.value("dpi").map { try ViewOptions.positiveNumber($0, option: "dpi") }
            ?? SheetRequest.defaultDPI
        let title = try arguments.value("title")
        let gridText = try arguments.value("grid")
        let annotationText = try arguments.value("annotation")
        let crs = try SheetOptions.crs(arguments)
        let wantsDate = arguments.flag("date")
        let series = arguments.flag("series")
        let overlapText = try arguments.value("overlap")
        let output = try arguments.required("output")
        try arguments.finish(maxPositional: 1)
        guard let mapPath = arguments.positional.first else {
            throw UsageError("give the map document: meridian sheet MAP.json ...")
        }

        let area: SheetRequest.Area
        if let quadText {
            area = try quadrangle(quadText, center: center, corner: corner, bbox: bbox, series: series)
        } else if corner != nil {
            throw UsageError("--corner goes with --quad SIZE")
        } else {
            switch (bbox, center) {
            case (let bbox?, nil):
                let b = try ViewOptions.bbox(bbox)
                area = .bbox(west: b.west, south: b.south, east: b.east, north: b.north)
            case (nil, let center?):
                let c = try ViewOptions.numbers(center, count: 2, option: "center", format: "LON,LAT in degrees")
                if scale == nil { throw UsageError("--center needs --scale DENOM") }
                area = .center(longitude: c[0], latitude: c[1])
            case (nil, nil):
                throw UsageError("give the area as --center LON,LAT --scale DENOM or --bbox W,S,E,N")
            case (_?, _?):
                throw UsageError("give either --bbox or --center, not both")
            }
        }
        if overlapText != nil, !series { throw UsageError("--overlap goes with --series") }
        if series, bbox == nil { throw UsageError("--series covers a --bbox: give --bbox W,S,E,N") }
        if series, scale == nil {
            throw UsageError("--series needs --scale DENOM (every sheet of a series has the same scale)")
        }
        let overlap = try overlapText.map { try nonNegative($0, option: "overlap") } ?? SheetSeries.defaultOverlap

        let paper = try paperText.map(SheetOptions.paper) ?? Paper.standard(named: "A4")!
        let gridInCRS = gridText?.lowercased() == "crs"
        if gridInCRS, crs == nil { throw UsageError("--grid crs draws the grid of --crs: give --crs CODE") }
        let grid = try gridText.map { gridInCRS ? .type(.utm) : try SheetOptions.grid($0) } ?? .document
        _ = try ImageWriter.format(forPath: output)

        // Signs of life when reading or drawing takes long ("reading roads: 1.2 M features").
        let progress = TileProgress.stages("reading the map")
        defer { progress.end() }
        let map = try LoadedMap.load(path: mapPath, opener: DataSourceOpener(progress: progress))
        try warnAboutMap(map, command: name)
        let renderer = try MapRenderer(map: map)
        renderer.labelStage = progress.labelStage(zoom: nil)
        progress.setStage("rendering")
        var request = SheetRequest(
            area: area, scale: scale, paper: paper.oriented(orientation), margins: margins, dpi: dpi,
            title: title, grid: grid, date: wantsDate ? today() : nil)
        request.crs = crs
        if gridInCRS { request.gridCRS = crs }
        if let annotationText {
            // Written onto the main grid's settings, so text keys without a format follow its labelFormat.
            request.annotation =
                try AnnotationOption.settings(
                    annotationText, onto: map.document.grid ?? GridSettings(type: .mgrs), labelFormatGiven: true
                ).annotation
        }
        if orientation == nil, paper.isNamed, !series {
            request.paper = try bestOrientation(request, paper: paper, renderer: renderer)
        }

        if series {
            let (plan, sheets, index) = try SheetSeries.layOut(request, overlap: overlap, renderer: renderer)
            // Everything is laid out before the first file is written, so bad input leaves nothing.
            for (name, sheet) in sheets {
                let path = SheetSeries.path(output, suffix: name)
                try PageWriter.write(sheet.page, renderer: renderer, dpi: dpi, to: path)
                print(
                    "\(path): sheet \(name), \(ScaleText.ratio(sheet.scale)), \(sheet.layout.paper.description), \(sheet.plane.identifier)"
                )
            }
            let indexPath = SheetSeries.path(output, suffix: "index")
            try PageWriter.write(index.page, renderer: renderer, dpi: dpi, to: indexPath)
            print(
                "\(indexPath): index of \(plan.rows) x \(plan.columns) sheets at \(ScaleText.ratio(plan.scale)), drawn at \(ScaleText.ratio(index.scale))"
            )
            return 0
        }

        let sheet = try Sheet.make(request, renderer: renderer)
        try PageWriter.write(sheet.page, renderer: renderer, dpi: dpi, to: output)
        var chosen = sheet.scaleWasChosen ? " (the largest round scale at which the bbox fits)" : ""
        if let quad = request.quadrangle, sheet.scaleWasChosen {
            chosen =
                sheet.scale == quad.seriesScale
                ? " (the quadrangle's series scale)" : " (the largest round scale at which the quadrangle fits)"
        }
        print(
            "\(output): \(ScaleText.ratio(sheet.scale))\(chosen), \(sheet.layout.paper.description), \(sheet.plane.identifier)"
        )
        return 0
    }

    /// A quadrangle sheet's area: the quadrangle of `--quad` holding `--center`, or whose
    /// south-east corner is `--corner`.
    static func quadrangle(_ sizeText: String, center: String?, corner: String?, bbox: String?, series: Bool)
        throws -> SheetRequest.Area
    {
        if bbox != nil || series {
            throw UsageError("--quad makes one sheet of one quadrangle: leave out --bbox and --series")
        }
        let size = try Quadrangle.size(parsing: sizeText)
        switch (center, corner) {
        case (let center?, nil):
            let c = try ViewOptions.numbers(center, count: 2, option: "center", format: "LON,LAT in degrees")
            return .quadrangle(try Quadrangle(holding: c[1], longitude: c[0], size: size))
        case (nil, let corner?):
            let c = try ViewOptions.numbers(corner, count: 2, option: "corner", format: "LON,LAT in degrees")
            return .quadrangle(try Quadrangle(southEast: c[0], latitude: c[1], size: size))
        default:
            throw UsageError(
                "--quad needs --center LON,LAT (the quadrangle holding it) or --corner LON,LAT (its south-east corner), not both"
            )
        }
    }

    /// With a bbox or a quadrangle and no orientation given: the orientation whose frame shows
    /// it at the larger scale (portrait when equal). With a centre: the paper as named.
    static func bestOrientation(_ request: SheetRequest, paper: Paper, renderer: MapRenderer) throws -> Paper {
        if case .center = request.area { return request.paper }
        var best: (paper: Paper, scale: Double)?
        for candidate in [paper.oriented(.portrait), paper.oriented(.landscape)] {
            var r = request
            r.paper = candidate
            r.scale = nil
            guard let fitting = try? Sheet.fittingScale(r, renderer: renderer) else { continue }
            if best == nil || fitting < best!.scale { best = (candidate, fitting) }
        }
        return best?.paper ?? request.paper
    }

    static func nonNegative(_ text: String, option: String) throws -> Double {
        guard let value = Double(text), value.isFinite, value >= 0 else {
            throw UsageError("--\(option) expects a number of millimetres (0 or more), got '\(text)'")
        }
        return value
    }

    /// Today's date in UTC, `2025-03-14`: only printed when `--date` asks for it.
    static func today() -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: Date())
    }
}
