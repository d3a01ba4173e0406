import Foundation
import MapModel
import Raster

@testable import Render

/// Small maps written to a temporary folder, rendered with the fonts shipped in Fixtures.
enum TestMaps {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let fonts = root.appendingPathComponent("Fixtures/fonts").path

    /// Writes `features` (GeoJSON Feature objects) and a map whose layers are `layers`
    /// (JSON objects without their "source", which is added), then loads it.
    static func load(features: [String], layers: [String], map extra: String = "") throws -> LoadedMap {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "meridian-render-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let data = #"{"type": "FeatureCollection", "features": [\#(features.joined(separator: ","))]}"#
        try data.write(to: directory.appendingPathComponent("data.geojson"), atomically: true, encoding: .utf8)
        let layerJSON = layers.map { layer in
            "{\"source\": \"data.geojson\", " + layer.dropFirst()
        }.joined(separator: ",")
        let map =
            #"{"background": "white", "fonts": ["\#(fonts)"], "systemFonts": false \#(extra), "layers": [\#(layerJSON)]}"#
        let path = directory.appendingPathComponent("map.json").path
        try map.write(toFile: path, atomically: true, encoding: .utf8)
        return try LoadedMap.load(path: path)
    }

    static func point(_ lon: Double, _ lat: Double, _ properties: String = "{}") -> String {
        #"{"type": "Feature", "properties": \#(properties), "geometry": {"type": "Point", "coordinates": [\#(lon), \#(lat)]}}"#
    }

    static func render(_ map: LoadedMap, _ view: View) throws -> Image {
        try MapRenderer(map: map).renderImage(view: view)
    }
}

extension Image {
    /// How dark a pixel is against white, 0 (white) to 1 (black), from its grey level.
    func darkness(_ x: Int, _ y: Int) -> Double {
        let p = self[x, y]
        return 1 - (Double(p.r) + Double(p.g) + Double(p.b)) / (3 * 255)
    }

    /// Sum of darkness over the image: the inked area in pixels (anti-aliasing included).
    var inkedArea: Double {
        var sum = 0.0
        for y in 0..<height { for x in 0..<width { sum += darkness(x, y) } }
        return sum
    }
}
