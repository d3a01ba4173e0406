import DataSources
import Foundation
import Geodesy
import Grids
import MapModel
import Raster
import Render

/// `meridian grid`: writes the grid the renderer would draw, as GeoJSON in EPSG:4326.
enum GridCommand: Subcommand {
    static let name = "grid"
    static let summary = "write a coordinate grid (latlong, UTM, MGRS, USNG) as GeoJSON"
    static let usage = """
        usage: meridian grid --type latlong|utm|mgrs|usng (--bbox W,S,E,N --size WxH | --bbox W,S,E,N --zoom Z) [--levels L,...] [--interval D[,D]] [--offset D[,D]] [--label-format F] [--label-unit U] [--annotation A] [--crs CODE] -o GRID.geojson

        Writes the lines and labels that `meridian render --grid TYPE` draws, as a GeoJSON
        FeatureCollection in longitude/latitude (EPSG:4326): one LineString per line piece
        (properties kind "line", level, zone, axis, value) and one Point per label (kind
        "label", level, text). Labels are all candidates, before overlapping ones are dropped.

          --type TYPE           latlong, utm, mgrs or usng
          --bbox W,S,E,N        the area, in degrees
          --size WxH            the image the area is drawn into (levels follow its scale)
          --zoom Z              or: the zoom level of 256-pixel tiles (0 to 24)
          --levels L,...        levels to write (default: those the renderer draws at that scale)
          --interval D[,D]      lines every D (x, then y): degrees (0.25), minutes (5') or
                                seconds (30") for latlong, whole metres for the others
          --offset D[,D]        where the interval's lines start (needs --interval)
          --label-format F      latlong labels: degreesMinutesSeconds (default) or decimalDegrees
          --label-unit U        MGRS/USNG labels: kilometersMeters (default) or meters
          --annotation A        latlong labels written as a grid annotation says (docs/grids.md),
                                an object inline ('{"format": "DM"}') or a file
          --crs CODE            with --type utm: the eastings and northings of this projected CRS
                                (EPSG:27700) instead of UTM zones'
          -o, --output FILE     the GeoJSON file
        """
    static let flags: Set<String> = []

    static func run(_ arguments: Arguments) throws -> Int32 {
        let typeText = try arguments.required("type")
        guard let type = GridType(rawValue: typeText.lowercased()) else {
            throw UsageError("--type \(typeText): expected latlong, utm, mgrs or usng")
        }
        let bbox = try ViewOptions.bbox(try arguments.required("bbox"))
        let size = try arguments.value("size")
        let zoom = try arguments.value("zoom")
        var request = GridRequest(type: type)
        if let text = try arguments.value("levels") {
            let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            let levels = parts.compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            guard !parts.isEmpty, levels.count == parts.count else {
                throw UsageError("--levels expects level numbers such as 0,1,2, got '\(text)'")
            }
            request.levels = levels
        }
        if let text = try arguments.value("label-format") {
            guard let format = LatLongLabelFormat(rawValue: text) else {
                throw UsageError("--label-format \(text): expected decimalDegrees or degreesMinutesSeconds")
            }
            request.labelFormat = format
        }
        if let text = try arguments.value("label-unit") {
            guard let unit = MGRSLabelUnit(rawValue: text) else {
                throw UsageError("--label-unit \(text): expected kilometersMeters or meters")
            }
            request.labelUnit = unit
        }
        // A format without --label-format puts the lines on its ladder (decimal degrees for D).
        var annotationSettings: GridSettings?
        if let text = try arguments.value("annotation") {
            var settings = GridSettings(type: type)
            settings.labelFormat = request.labelFormat
            let given = try arguments.value("label-format") != nil
            annotationSettings = try AnnotationOption.settings(text, onto: settings, labelFormatGiven: given)
            request.labelFormat = annotationSettings?.labelFormat ?? request.labelFormat
        }
        let intervalText = try arguments.value("interval")
        let offsetText = try arguments.value("offset")
        if let intervalText {
            do {
                request.interval = try GridInterval.parse(
                    interval: intervalText, offset: offsetText, type: type, format: request.labelFormat)
            } catch {
                throw UsageError(
                    "\(error.file) \(error.file == "--offset" ? offsetText ?? "" : intervalText): \(error.message)")
            }
        } else if offsetText != nil {
            throw UsageError("--offset needs --interval")
        }
        if let code = try arguments.value("crs") {
            guard type == .utm else { throw UsageError("--crs goes with --type utm") }
            do { request.crs = try ProjectedPlane.projected(crs: code) } catch {
                throw UsageError("--crs \(code): \(error.message)")
            }
        }
        let output = try arguments.required("output")
        try arguments.finish(maxPositional: 0)

        // The same levels as `meridian render`: the document default spacing at the standard pixel.
        request.minSpacing = GridSettings.defaultMinSpacing * View.standardDPI / 72
        let projection: WebMercatorGridProjection
        let area: Rect
        switch (size, zoom) {
        case (let size?, nil):
            let s = try ViewOptions.size(size)
            let view = try View.fitting(
                west: bbox.west, south: bbox.south, east: bbox.east, north: bbox.north,
                width: s.width, height: s.height)
            projection = WebMercatorGridProjection(resolution: view.resolution)
            area = view.globalBounds
            request.cellAnchor = .visiblePart
        case (nil, let zoom?):
            guard let z = Int(zoom), (0...24).contains(z) else {
                throw UsageError("--zoom expects a whole number from 0 to 24, got '\(zoom)'")
            }
            do {
                _ = try GeoBox(checkingWest: bbox.west, south: bbox.south, east: bbox.east, north: bbox.north)
            } catch {
                throw UsageError(error.description)
            }
            projection = WebMercatorGridProjection(resolution: Geodesy.WebMercator.resolution(zoom: z))
            let a = projection.project(latitude: bbox.north, longitude: bbox.west)
            let b = projection.project(latitude: bbox.south, longitude: bbox.east)
            area = Rect(minX: a.x, minY: a.y, maxX: b.x, maxY: b.y)
            request.cellAnchor = .fixed
        case (nil, nil):
            throw UsageError("give --size WxH or --zoom Z with --bbox")
        case (_?, _?):
            throw UsageError("give either --size or --zoom, not both")
        }
        if type == .latlong && request.levels == nil && request.interval == nil {
            // As the renderer: finer parallels where Web Mercator spreads them apart.
            request.parallelLevels = GridLevels.parallelLevels(
                format: request.labelFormat, pixelsPerMetre: projection.pixelsPerMetre, minSpacing: request.minSpacing)
            request.parallelMinSpacing = request.minSpacing
        }
        var grid = try Grid.generate(request, projection: projection, area: area)
        if let annotation = annotationSettings?.annotation, type == .latlong {
            grid = grid.annotatingAngles { annotation.angleStyle(step: $0) }
        }
        do {
            try FileIO.writeAtomically(Array(grid.geoJSON().utf8), toPath: output)
        } catch {
            throw RenderError.output(path: output, message: error.reason)
        }
        return 0
    }
}
