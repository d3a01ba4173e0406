import DataSources
import Foundation
import Geodesy
import MapModel
import Render
import Tiles

enum RenderCommand: Subcommand {
    static let name = "render"
    static let summary = "render a map document to a PNG, PDF or SVG image"
    static let usage = """
        usage: meridian render MAP.json (--bbox W,S,E,N | --bbox-crs X1,Y1,X2,Y2 | --center LON,LAT --scale DENOM) --size WxH [--crs CODE] [--dpi D] [--grid TYPE] [--grid-labels POSITION] -o OUT.png|OUT.pdf|OUT.svg

          --bbox W,S,E,N        the area to show, in degrees; it grows to the image's shape
          --bbox-crs X1,Y1,X2,Y2  the area to show in the coordinates of --crs (its unit: metres,
                                feet, degrees), or Web Mercator metres without --crs
          --center LON,LAT      the centre of the view, with --scale
          --scale DENOM         the scale denominator (50000 for 1:50,000), from the CRS's metres
                                per pixel
          --crs CODE            draw in this CRS: EPSG:3035, a WKT or a PROJ string (default
                                Web Mercator, EPSG:3857)
          --size WxH            the image size in pixels
          --dpi D               pixels per inch (default 90.714: the OGC 0.28 mm pixel)
          --grid TYPE           draw a grid: latlong, utm, mgrs or usng (replaces the document's
                                grids by one of this type, keeping the first's other settings);
                                none hides them
          --grid-labels POS     where the (first) grid's labels go: geographic, bottomLeft,
                                bottomRight, topLeft, topRight, center, allSides; none hides them
          -o, --output FILE     .png, .pdf or .svg
        """
    static let flags: Set<String> = []

    static func run(_ arguments: Arguments) throws -> Int32 {
        let view = try ViewOptions.view(arguments)
        let output = try arguments.required("output")
        let gridType = try arguments.value("grid")
        let gridLabels = try arguments.value("grid-labels")
        try arguments.finish(maxPositional: 1)
        guard let mapPath = arguments.positional.first else {
            throw UsageError("give the map document: meridian render MAP.json ...")
        }
        _ = try ImageWriter.format(forPath: output)
        var document = try MapDocument.load(path: mapPath)
        try applyGridOptions(type: gridType, labels: gridLabels, to: &document)
        // Signs of life when reading or drawing takes long ("reading roads: 1.2 M features").
        let progress = TileProgress.stages("reading the map")
        defer { progress.end() }
        let map = try LoadedMap(document: document, opener: DataSourceOpener(progress: progress))
        try warnAboutMap(map, command: name)
        let renderer = try MapRenderer(map: map)
        renderer.labelStage = progress.labelStage(zoom: nil)
        progress.setStage("rendering")
        try ImageWriter.write(renderer, view: view, to: output)
        return 0
    }

    /// `--grid TYPE` turns the grid on with that type (keeping the document's other grid
    /// settings); `--grid-labels POSITION` moves its labels.
    static func applyGridOptions(type: String?, labels: String?, to document: inout MapDocument) throws {
        if let type {
            if type == "none" {
                for index in document.grids.indices { document.grids[index].visible = false }
            } else {
                guard let kind = GridType(rawValue: type) else {
                    throw UsageError("--grid \(type): expected latlong, utm, mgrs, usng or none")
                }
                var grid = document.grid?.withType(kind) ?? GridSettings(type: kind)
                grid.visible = true
                // The one grid drawn: a document's other grids go with the grid it replaces.
                document.grids = [grid]
            }
        }
        if let labels {
            guard var grid = document.grid else {
                throw UsageError("--grid-labels needs a grid: add --grid TYPE or a grid to the map document")
            }
            if labels == "none" {
                grid.labelsVisible = false
            } else {
                guard let position = GridSettings.LabelPosition(rawValue: labels) else {
                    let names = GridSettings.LabelPosition.allCases.map(\.rawValue).joined(separator: ", ")
                    throw UsageError("--grid-labels \(labels): expected \(names) or none")
                }
                grid.labelPosition = position
                grid.labelsVisible = true
            }
            document.grid = grid
        }
    }
}
