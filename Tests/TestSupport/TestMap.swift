import Foundation
import MapModel
import Raster
import Render
import Testing

/// Small maps for tests: GeoJSON features and layer styles written to a temporary folder and
/// loaded, drawn with the fonts shipped in Fixtures so renders match on every machine.
public enum TestMap {
    /// Writes `features` (GeoJSON Feature objects) and a map whose layers are `layers` (JSON
    /// objects without their "source", which is added), then loads it. `extra` is spliced
    /// into the map object: `#", "referenceScale": 25000"#`.
    public static func load(features: [String], layers: [String], map extra: String = "") throws -> LoadedMap {
        let directory = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(directory) }
        let data = #"{"type": "FeatureCollection", "features": [\#(features.joined(separator: ","))]}"#
        try data.write(to: directory.appendingPathComponent("data.geojson"), atomically: true, encoding: .utf8)
        let layerJSON = layers.map { layer in
            "{\"source\": \"data.geojson\", " + layer.dropFirst()
        }.joined(separator: ",")
        let map =
            #"{"background": "white", "fonts": ["\#(Repository.fonts)"], "systemFonts": false \#(extra), "layers": [\#(layerJSON)]}"#
        let path = directory.appendingPathComponent("map.json").path
        try map.write(toFile: path, atomically: true, encoding: .utf8)
        return try LoadedMap.load(path: path)
    }

    /// A GeoJSON point feature.
    public static func point(_ lon: Double, _ lat: Double, _ properties: String = "{}") -> String {
        #"{"type": "Feature", "properties": \#(properties), "geometry": {"type": "Point", "coordinates": [\#(lon), \#(lat)]}}"#
    }

    public static func render(_ map: LoadedMap, _ view: View) throws -> Image {
        try MapRenderer(map: map).renderImage(view: view)
    }
}

extension Image {
    /// How dark a pixel is against white, 0 (white) to 1 (black), from its grey level.
    public func darkness(_ x: Int, _ y: Int) -> Double {
        let p = self[x, y]
        return 1 - (Double(p.r) + Double(p.g) + Double(p.b)) / (3 * 255)
    }

    /// Sum of darkness over the image: the inked area in pixels (anti-aliasing included).
    public var inkedArea: Double {
        var sum = 0.0
        for y in 0..<height { for x in 0..<width { sum += darkness(x, y) } }
        return sum
    }
}

extension MapDocument {
    /// Turns `avoidEdges` off in every label: for scenes made before labels avoided a single
    /// image's edges by default, whose labels the edge cuts.
    public mutating func letLabelsCrossEdges() {
        for l in layers.indices {
            for r in layers[l].rules.indices { layers[l].rules[r].label?.avoidEdges = false }
        }
    }
}
