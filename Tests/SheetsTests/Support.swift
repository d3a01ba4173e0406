import Foundation
import MapModel
import Raster
import Render

@testable import Sheets

/// Maps, tools and measurements shared by the sheet tests.
enum Support {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let fonts = root.appendingPathComponent("Fixtures/fonts").path

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("meridian-sheets-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A map of `features` (GeoJSON Feature objects) drawn by `layers` (JSON objects without
    /// their source), with the shipped fonts only, so renders are the same on every machine.
    static func map(features: [String], layers: [String], extra: String = "") throws -> LoadedMap {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let data = #"{"type": "FeatureCollection", "features": [\#(features.joined(separator: ","))]}"#
        try data.write(to: directory.appendingPathComponent("data.geojson"), atomically: true, encoding: .utf8)
        let layerJSON = layers.map { "{\"source\": \"data.geojson\", " + $0.dropFirst() }.joined(separator: ",")
        let map =
            #"{"name": "Test sheet", "background": "white", "fonts": ["\#(fonts)"], "systemFonts": false \#(extra), "layers": [\#(layerJSON)]}"#
        let path = directory.appendingPathComponent("map.json").path
        try map.write(toFile: path, atomically: true, encoding: .utf8)
        return try LoadedMap.load(path: path)
    }

    static func point(_ lon: Double, _ lat: Double) -> String {
        #"{"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": [\#(lon), \#(lat)]}}"#
    }

    /// A white map with nothing on it but one far-away point: only the sheet's own ink shows.
    static func blankMap() throws -> LoadedMap {
        try map(features: [point(100, -60)], layers: [#"{"name": "far", "marker": {"size": 1}}"#])
    }

    /// Runs a tool (GeoConvert, pdftoppm, pdfinfo, pdftotext) and returns what it printed.
    @discardableResult
    static func run(_ tool: String, _ arguments: [String], input: String? = nil) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        let output = Pipe()
        let stdin = Pipe()
        process.standardOutput = output
        process.standardInput = stdin
        try process.run()
        if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
        try stdin.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw SupportError("\(tool) \(arguments.joined(separator: " ")) exited with \(process.terminationStatus)")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// A PDF page rasterised by poppler (independent of Cairo): `region` in pixels at `dpi`.
    static func rasterise(pdf: String, dpi: Int, region: (x: Int, y: Int, width: Int, height: Int)? = nil) throws
        -> Image
    {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var arguments = ["-r", String(dpi), "-png", "-singlefile"]
        if let r = region {
            arguments += ["-x", String(r.x), "-y", String(r.y), "-W", String(r.width), "-H", String(r.height)]
        }
        let stem = directory.appendingPathComponent("page").path
        try run("pdftoppm", arguments + [pdf, stem])
        return try PNG.decode(contentsOf: stem + ".png")
    }

    /// GeoConvert's UTM easting and northing of a position in a forced zone.
    static func geoConvertUTM(latitude: Double, longitude: Double, zone: String) throws -> (
        easting: Double, northing: Double
    ) {
        let line = try run("GeoConvert", ["-u", "-z", zone, "-p", "3"], input: "\(latitude) \(longitude)\n")
        let parts = line.split(whereSeparator: { $0 == " " || $0 == "\n" })
        return (Double(parts[1])!, Double(parts[2])!)
    }
}

struct SupportError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension Image {
    /// How dark a pixel is against white, 0 to 1.
    func darkness(_ x: Int, _ y: Int) -> Double {
        let p = self[x, y]
        return 1 - (Double(p.r) + Double(p.g) + Double(p.b)) / (3 * 255)
    }

    /// The centres (darkness-weighted, sub-pixel) of the thin dark lines crossing the rows
    /// `rows` between columns `xs`: vertical lines, found from the column profile.
    func verticalLineCentres(rows: Range<Int>, xs: Range<Int>) -> [Double] {
        let profile = xs.map { x in rows.reduce(0.0) { $0 + darkness(x, $1) } / Double(rows.count) }
        return Image.peaks(profile, offset: xs.lowerBound)
    }

    /// As `verticalLineCentres`, for horizontal lines crossing the columns `columns`.
    func horizontalLineCentres(columns: Range<Int>, ys: Range<Int>) -> [Double] {
        let profile = ys.map { y in columns.reduce(0.0) { $0 + darkness($1, y) } / Double(columns.count) }
        return Image.peaks(profile, offset: ys.lowerBound)
    }

    /// Runs of the profile above a third of its maximum, each reduced to its centroid.
    static func peaks(_ profile: [Double], offset: Int) -> [Double] {
        let threshold = (profile.max() ?? 0) / 3
        var centres: [Double] = []
        var i = 0
        while i < profile.count {
            guard profile[i] > threshold else {
                i += 1
                continue
            }
            var j = i
            while j < profile.count, profile[j] > threshold { j += 1 }
            // Widen by two pixels each side to take in the anti-aliased fringe.
            let lo = max(0, i - 2)
            let hi = min(profile.count, j + 2)
            var sum = 0.0
            var weighted = 0.0
            for k in lo..<hi {
                sum += profile[k]
                weighted += profile[k] * Double(k)
            }
            centres.append(weighted / sum + Double(offset) + 0.5)
            i = j
        }
        return centres
    }
}
