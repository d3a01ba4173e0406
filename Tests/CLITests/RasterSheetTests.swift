import Foundation
import Raster
import TestSupport
import Testing

/// `meridian sheet` with shaded relief under the vectors and the grid.
@Suite struct RasterSheetTests {
    func sheetMap(_ folder: URL) throws -> String {
        _ = try RasterLayerTests().coneInUTM(folder)
        let roads =
            #"{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {}, "geometry": {"type": "LineString", "coordinates": [[14.9, 46.9], [15.1, 46.95]]}}]}"#
        try roads.write(to: folder.appendingPathComponent("roads.geojson"), atomically: true, encoding: .utf8)
        return try RasterLayerTests().writeMap(
            folder,
            layers: [
                ##"{"name": "heights", "raster": "cone.tif", "colors": [[0, "#a0c080"], [1000, "#f0e0b0"]]}"##,
                ##"{"name": "relief", "raster": "cone.tif", "hillshade": true, "compositing": "multiply"}"##,
                ##"{"name": "roads", "source": "roads.geojson", "line": {"color": "#c00000", "width": 2}}"##,
            ])
    }

    @Test func pngSheetShowsReliefUnderTheRoadAndGrid() throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let map = try sheetMap(folder)
        let output = folder.appendingPathComponent("sheet.png").path
        let run = try Meridian.run(
            ["sheet", map, "--center", "15,46.93", "--scale", "50000", "--dpi", "100", "--grid", "utm", "-o", output])
        #expect(run.status == 0, "\(run.stderr)")
        let image = try PNG.decode(contentsOf: output)
        // The cone's shade: many levels of the ramp's colours darkened by the hillshade (a flat
        // ramp alone, or no raster, gives a handful).
        var colours = Set<UInt32>()
        for y in stride(from: image.height / 4, to: image.height * 3 / 4, by: 3) {
            for x in stride(from: image.width / 4, to: image.width * 3 / 4, by: 3) {
                let i = (y * image.width + x) * 4
                let (r, g, b) = (image.pixels[i], image.pixels[i + 1], image.pixels[i + 2])
                if g > r, g > b { colours.insert(UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b)) }
            }
        }
        #expect(colours.count > 50, "only \(colours.count) greenish colours: no relief drawn")
    }

    @Test func pdfSheetEmbedsTheRasterAtTheSheetsResolution() throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let map = try sheetMap(folder)
        let output = folder.appendingPathComponent("sheet.pdf").path
        let run = try Meridian.run(
            ["sheet", map, "--center", "15,46.93", "--scale", "50000", "--dpi", "150", "--grid", "utm", "-o", output])
        #expect(run.status == 0, "\(run.stderr)")
        let listing = try Tool.output("pdfimages", ["-list", output])
        // page num type width height color comp bpc enc interp object ID x-ppi y-ppi size ratio
        let images = listing.split(separator: "\n").dropFirst(2).map { $0.split(separator: " ") }
        let ppis = images.compactMap { $0.count > 13 ? Double($0[12]) : nil }
        #expect(!ppis.isEmpty, "no image in the PDF: \(listing)")
        #expect(ppis.allSatisfy { abs($0 - 150) <= 1 }, "images at \(ppis) ppi, not 150: \(listing)")
    }
}
