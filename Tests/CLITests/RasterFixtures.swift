import Foundation
import Raster
import TestSupport

/// Synthetic rasters made with GDAL's own tools (an ASCII grid written here, turned into a
/// GeoTIFF by gdal_translate), and GDAL's renderings of them to compare Meridian's with.
enum RasterFixtures {
    static let halfWorld = 20037508.342789244

    /// Web Mercator bounds of tile z/x/y: (minX, minY, maxX, maxY).
    static func tileBounds(z: Int, x: Int, y: Int) -> (Double, Double, Double, Double) {
        let size = 2 * halfWorld / Double(1 << z)
        let minX = -halfWorld + Double(x) * size
        let maxY = halfWorld - Double(y) * size
        return (minX, maxY - size, minX + size, maxY)
    }

    /// An ASCII grid of `columns` x `rows` cells of `cell` units from (`minX`, `minY`), each
    /// cell's value `value(column, row)` (row 0 at the top); nil is `nodata`.
    static func asciiGrid(
        columns: Int, rows: Int, minX: Double, minY: Double, cell: Double, nodata: Double = -9999,
        value: (Int, Int) -> Double?
    ) -> String {
        var text = "ncols \(columns)\nnrows \(rows)\nxllcorner \(minX)\nyllcorner \(minY)\ncellsize \(cell)\n"
        text += "NODATA_value \(nodata)\n"
        for row in 0..<rows {
            text += (0..<columns).map { String(value($0, row) ?? nodata) }.joined(separator: " ") + "\n"
        }
        return text
    }

    /// A GeoTIFF from ASCII grids (one per band) in `srs`, of `type`; `alpha` makes the last
    /// band alpha. Returns the GeoTIFF's path.
    @discardableResult
    static func geoTIFF(
        _ folder: URL, _ name: String, bands: [String], srs: String, type: String = "Float32", alpha: Bool = false,
        nodata: Bool = true
    ) throws -> String {
        var inputs: [String] = []
        for (i, band) in bands.enumerated() {
            let path = folder.appendingPathComponent("\(name)-band\(i).asc").path
            try band.write(toFile: path, atomically: true, encoding: .utf8)
            inputs.append(path)
        }
        let output = folder.appendingPathComponent("\(name).tif").path
        var source = inputs[0]
        if inputs.count > 1 {
            source = folder.appendingPathComponent("\(name).vrt").path
            try Tool.output("gdalbuildvrt", ["-q", "-separate", source] + inputs)
        }
        var arguments = ["-q", "-a_srs", srs, "-ot", type]
        if !nodata { arguments += ["-a_nodata", "none"] }
        if alpha { arguments += ["-colorinterp_\(bands.count)", "alpha"] }
        try Tool.output("gdal_translate", arguments + [source, output])
        for path in inputs { try? FileManager.default.removeItem(atPath: path) }
        if inputs.count > 1 { try? FileManager.default.removeItem(atPath: source) }
        return output
    }

    /// gdalwarp's rendering of `raster` into tile z/x/y (Web Mercator, 256 px, alpha band),
    /// as a PNG image: what Meridian's raster layer must draw there.
    static func gdalwarpTile(_ raster: String, z: Int, x: Int, y: Int, resampling: String, folder: URL) throws
        -> Image
    {
        let (minX, minY, maxX, maxY) = tileBounds(z: z, x: x, y: y)
        let warped = folder.appendingPathComponent("ref-\(z)-\(x)-\(y).tif").path
        let png = folder.appendingPathComponent("ref-\(z)-\(x)-\(y).png").path
        defer {
            for path in [warped, png, png + ".aux.xml"] { try? FileManager.default.removeItem(atPath: path) }
        }
        try Tool.output(
            "gdalwarp",
            [
                "-q", "-t_srs", "EPSG:3857", "-te", "\(minX)", "\(minY)", "\(maxX)", "\(maxY)", "-ts", "256", "256",
                "-r", resampling, "-et", "0", "-dstalpha", "-ot", "Byte", raster, warped,
            ])
        try Tool.output("gdal_translate", ["-q", "-of", "PNG", warped, png])
        return try PNG.decode(contentsOf: png)
    }

    /// gdalwarp's values of band 1 of `raster` in tile z/x/y: nil where it has no data.
    static func gdalwarpValues(_ raster: String, z: Int, x: Int, y: Int, resampling: String, folder: URL) throws
        -> [Double?]
    {
        let (minX, minY, maxX, maxY) = tileBounds(z: z, x: x, y: y)
        let warped = folder.appendingPathComponent("val-\(z)-\(x)-\(y).tif").path
        let grid = folder.appendingPathComponent("val-\(z)-\(x)-\(y).asc").path
        defer {
            for path in [warped, grid, grid + ".aux.xml", folder.appendingPathComponent("val-\(z)-\(x)-\(y).prj").path]
            {
                try? FileManager.default.removeItem(atPath: path)
            }
        }
        try Tool.output(
            "gdalwarp",
            [
                "-q", "-t_srs", "EPSG:3857", "-te", "\(minX)", "\(minY)", "\(maxX)", "\(maxY)", "-ts", "256", "256",
                "-r", resampling, "-et", "0", "-dstnodata", "-9999", "-ot", "Float32", raster, warped,
            ])
        try Tool.output("gdal_translate", ["-q", "-of", "AAIGrid", warped, grid])
        let lines = try String(contentsOfFile: grid, encoding: .utf8).split(separator: "\n")
        var nodata = -9999.0
        var values: [Double?] = []
        for line in lines {
            let words = line.split(separator: " ")
            if let first = words.first, first.first!.isLetter {
                if first.lowercased() == "nodata_value" { nodata = Double(words[1])! }
                continue
            }
            values += words.map { Double($0).flatMap { $0 == nodata ? nil : $0 } }
        }
        return values
    }
}
