import Foundation
import Geodesy
import MapModel
import Testing

@testable import DataSources
@testable import Render

/// A reader told the simplification tolerance hands over a line smaller than it as its ends
/// alone; drawn, it must be exactly what the whole line simplifies to, and the views must
/// get the same features.
@Suite struct CollapsedLinesTests {
    /// Random walks (some closed, like islands; some in two parts) of every size from a few
    /// metres to a few hundred kilometres, near the equator, at mid latitudes and beyond the
    /// ±85.05° Web Mercator clamps, written by ogr2ogr to a GeoPackage.
    func reader(in folder: URL) throws -> () throws -> any FeatureReader {
        var seed: UInt64 = 15
        func next() -> Double {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(seed >> 11) / Double(1 << 53)
        }
        func walk(_ lon: Double, _ lat: Double, steps: Int, step: Double, closed: Bool) -> String {
            var points = [(lon, lat)]
            for _ in 0..<steps {
                let (x, y) = points[points.count - 1]
                points.append((x + (next() - 0.5) * step, min(89.9, max(-89.9, y + (next() - 0.5) * step))))
            }
            if closed { points.append(points[0]) }
            return "[" + points.map { "[\($0.0), \($0.1)]" }.joined(separator: ",") + "]"
        }
        var features: [String] = []
        for i in 0..<600 {
            let lat = [-87.0, -60, -3, 0.5, 41, 84.9, 86][i % 7] + next()
            let lon = -175 + 350 * next()
            // Extents from about 10 m to about 500 km.
            let step = pow(10, -4 - 0.6 * Double(i % 9) + 5.2 * next() / 2)
            let steps = 1 + Int(next() * 60)
            let closed = i % 3 == 0
            let geometry =
                i % 5 == 0
                ? #"{"type": "MultiLineString", "coordinates": [\#(walk(lon, lat, steps: steps, step: step, closed: closed)), \#(walk(lon + step, lat, steps: 1 + steps / 2, step: step, closed: false))]}"#
                : #"{"type": "LineString", "coordinates": \#(walk(lon, lat, steps: steps, step: step, closed: closed))}"#
            features.append(#"{"type": "Feature", "properties": {"n": \#(i)}, "geometry": \#(geometry)}"#)
        }
        let geojson = folder.appendingPathComponent("lines.geojson").path
        try #"{"type": "FeatureCollection", "features": [\#(features.joined(separator: ","))]}"#.write(
            toFile: geojson, atomically: true, encoding: .utf8)
        try Support.run("ogr2ogr", ["-f", "GPKG", folder.appendingPathComponent("lines.gpkg").path, geojson])
        let map = try Support.writeMap(
            in: folder, layers: [##"{"name": "lines", "source": "lines.gpkg", "line": {"color": "#000000"}}"##])
        let loaded = try Support.load(map)
        return { try loaded.sources[0].makeReader() }
    }

    /// Each feature the reader hands over for `rect`, generalised for `pixel`, by index; and
    /// the vertices handed over.
    func drawn(_ reader: any FeatureReader, _ rect: Rect, pixel: Double, collapsing: Bool) throws -> (
        [Int: Feature?], vertices: Int
    ) {
        let generaliser = Generaliser(pixel: pixel)
        var found: [Int: Feature?] = [:]
        var vertices = 0
        try reader.visitFeatures(in: rect, collapsingLinesWithin: collapsing ? generaliser.tolerance : nil) {
            vertices += $0.geometries.reduce(0) { $0 + $1.vertexCount }
            #expect(found.updateValue(generaliser.generalise($0), forKey: $0.index) == nil)
        }
        return (found, vertices)
    }

    @Test func collapsedLinesDrawAsTheWholeLinesSimplified() throws {
        try Support.withScratch { folder in
            let makeReader = try reader(in: folder)
            let world = Rect(minX: -2.1e7, minY: -2.1e7, maxX: 2.1e7, maxY: 2.1e7)
            // The world, and a view whose edges cut through some of the lines' bounds.
            let views = [world, Rect(minX: -1.2e7, minY: -3e6, maxX: 9e6, maxY: 1.5e7)]
            for zoom in 0...12 {
                let pixel = 2 * WebMercator.halfWorld / 256 / Double(1 << zoom)
                for view in views {
                    let whole = try drawn(makeReader(), view, pixel: pixel, collapsing: false)
                    let collapsed = try drawn(makeReader(), view, pixel: pixel, collapsing: true)
                    #expect(Set(collapsed.0.keys) == Set(whole.0.keys), "zoom \(zoom)")
                    for (index, feature) in whole.0 {
                        let other = collapsed.0[index] ?? nil
                        #expect(
                            other?.geometries.map(\.coordinates) == feature?.geometries.map(\.coordinates),
                            "zoom \(zoom), feature \(index)")
                        #expect(
                            other?.geometries.map(\.partStarts) == feature?.geometries.map(\.partStarts),
                            "zoom \(zoom), feature \(index)")
                        #expect(other?.properties == feature?.properties)
                    }
                    // Lines were collapsed at the small zooms (the test is not vacuous) and
                    // none is when the pixel is smaller than every line.
                    if zoom <= 6 {
                        #expect(collapsed.vertices < whole.vertices / 2, "zoom \(zoom)")
                    }
                }
            }
        }
    }
}
