import Foundation
import Geodesy
import MapModel
import TestSupport
import Testing

@testable import Render

/// A polygon cut by the rendered area's edge is labelled in its part inside the area, checked
/// against GDAL's clip of the same GeoJSON (ogr2ogr -clipsrc); a polygon wholly inside keeps
/// its whole polygon's label point; every tile of a pyramid agrees on the point.
@Suite struct VisibleLabelPointTests {
    /// A 300 x 200 px view of lon -1..1 centred on (0, 0), made from Web Mercator metres so
    /// that its extent is exact.
    static func view() throws -> View {
        let resolution = 2 * WebMercator.x(longitude: 1) / 300
        return try View(
            resolution: resolution, centre: PlanePoint(x: 0, y: 0), width: 300, height: 200, dpi: View.standardDPI)
    }

    /// A GeoJSON polygon feature from lon/lat rings.
    static func polygon(_ rings: [[(Double, Double)]], name: String) -> String {
        let text = rings.map { ring in
            "[" + (ring + [ring[0]]).map { "[\($0.0), \($0.1)]" }.joined(separator: ",") + "]"
        }.joined(separator: ",")
        return
            #"{"type": "Feature", "properties": {"name": "\#(name)"}, "geometry": {"type": "Polygon", "coordinates": [\#(text)]}}"#
    }

    static let layer = ##"{"name": "areas", "fill": {"color": "#dddddd"}, "label": {"attribute": "name", "size": 9}}"##

    /// The pieces GDAL cuts from `features` with `view`'s extent, in `view`'s global pixels.
    static func clippedByGDAL(_ features: [String], _ view: View) throws -> [[PlanePoint]] {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let input = folder.appendingPathComponent("in.geojson").path
        let output = folder.appendingPathComponent("out.geojson").path
        try #"{"type": "FeatureCollection", "features": [\#(features.joined(separator: ","))]}"#.write(
            toFile: input, atomically: true, encoding: .utf8)
        let low = WebMercator.inverse(PlanePoint(x: view.extent.minX, y: view.extent.minY))
        let high = WebMercator.inverse(PlanePoint(x: view.extent.maxX, y: view.extent.maxY))
        try Tool.output(
            "ogr2ogr",
            [
                "-f", "GeoJSON", "-clipsrc", "\(low.longitude)", "\(low.latitude)",
                "\(high.longitude)", "\(high.latitude)", output, input,
            ])
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output)))
        let features = try #require((json as? [String: Any])?["features"] as? [[String: Any]])
        // Each polygon's exterior (the tests' polygons have no holes).
        let exteriors = try features.flatMap { feature in
            let geometry = try #require(feature["geometry"] as? [String: Any])
            if geometry["type"] as? String == "MultiPolygon" {
                return try #require(geometry["coordinates"] as? [[[[Double]]]]).map { $0[0] }
            }
            return [try #require(geometry["coordinates"] as? [[[Double]]])[0]]
        }
        return exteriors.map { ring in
            ring.map { view.globalPixel(WebMercator.forward(latitude: $0[1], longitude: $0[0])) }
        }
    }

    static func area(_ ring: [PlanePoint]) -> Double {
        var sum = 0.0
        for (a, b) in zip(ring, ring.dropFirst() + ring.prefix(1)) { sum += a.x * b.y - b.x * a.y }
        return abs(sum) / 2
    }

    /// Ray casting: whether `p` is inside the ring.
    static func inside(_ p: PlanePoint, _ ring: [PlanePoint]) -> Bool {
        var result = false
        for (a, b) in zip(ring, ring.dropFirst() + ring.prefix(1))
        where (a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x {
            result.toggle()
        }
        return result
    }

    /// A rectangle reaching from lon -3 to -0.25 in a view of lon -1..1: its whole polygon's
    /// pole (lon about -1.6) is outside; its label goes to the centre of the square GDAL cuts
    /// from it, whole inside the view.
    @Test func labelGoesIntoTheVisiblePart() throws {
        let view = try Self.view()
        let feature = Self.polygon([[(-3, -0.375), (-0.25, -0.375), (-0.25, 0.375), (-3, 0.375)]], name: "Half")
        let map = try TestMap.load(features: [feature], layers: [Self.layer])
        let pieces = try Self.clippedByGDAL([feature], view)
        #expect(pieces.count == 1)
        let piece = try #require(pieces.first)
        let extent = piece.reduce(Rect.empty) { $0.including($1) }
        // The clipped part is about a square (0.75 x 0.75 degrees): its pole is its centre.
        #expect(abs(extent.width - extent.height) < 1)
        let label = try #require(try LabelPlacementTests.placed(map, view).first { $0.text == "Half" })
        #expect(abs(label.box.centerX - extent.centerX) < 1 && abs(label.box.centerY - extent.centerY) < 1)
        #expect(view.globalBounds.contains(label.box))
        #expect(label.box.corners.allSatisfy { Self.inside($0, piece) })
    }

    /// A U upside down whose bottom lies south of the view: the view's edge cuts it into two
    /// legs of different widths (GDAL finds the same two), and the label goes into the larger.
    @Test func labelGoesIntoTheLargestVisiblePiece() throws {
        let view = try Self.view()
        let feature = Self.polygon(
            [[(-0.9, -2), (0.9, -2), (0.9, 0.3), (0.3, 0.3), (0.3, -1), (0.1, -1), (0.1, 0.3), (-0.9, 0.3)]],
            name: "Legs")
        let map = try TestMap.load(features: [feature], layers: [Self.layer])
        let pieces = try Self.clippedByGDAL([feature], view)
        #expect(pieces.count == 2)
        let larger = try #require(pieces.max { Self.area($0) < Self.area($1) })
        let label = try #require(try LabelPlacementTests.placed(map, view).first { $0.text == "Legs" })
        #expect(view.globalBounds.contains(label.box))
        #expect(label.box.corners.allSatisfy { Self.inside($0, larger) })
    }

    /// A polygon wholly inside the view keeps the label point of the whole polygon, and a
    /// pyramid without a bbox (nothing cuts the map) labels a cut polygon at its whole pole.
    @Test func polygonInsideIsUnchanged() throws {
        let view = try Self.view()
        let feature = Self.polygon([[(-0.5, -0.3), (0.2, -0.3), (0.2, 0.4), (-0.5, 0.1)]], name: "Inside")
        let map = try TestMap.load(features: [feature], layers: [Self.layer])
        let whole = try #require(try LayerReaders(map: map).features(layer: 0, in: view.extent).first)
        let anchor = try #require(LabelPoint.anchor(for: whole))
        let pixel = view.globalPixel(anchor)
        #expect(VisibleLabelPoint.point(of: whole, anchor: anchor, view: view, area: view.globalBounds) == pixel)
        let label = try #require(try LabelPlacementTests.placed(map, view).first { $0.text == "Inside" })
        #expect(abs(label.box.centerX - pixel.x) < 1e-9 && abs(label.box.centerY - pixel.y) < 1e-9)
        var tiles = try View.tiles(z: 6, x: 31, y: 31, columns: 2, rows: 2)
        #expect(CandidateMaker.area(of: tiles) == nil)
        tiles.renderedArea = Rect(minX: 0, minY: 0, maxX: 1, maxY: 1)
        #expect(CandidateMaker.area(of: tiles) == tiles.renderedArea)
    }

    /// A `--bbox` pyramid at zoom 7: a polygon cut by the pyramid's area is labelled in its
    /// part inside, at the same place in a 4x4 metatile and in each of its tiles alone.
    @Test func everyTileOfAPyramidAgrees() throws {
        let feature = Self.polygon([[(-3, -0.5), (0.6, -0.5), (0.6, 0.5), (-3, 0.5)]], name: "Cut")
        let map = try TestMap.load(features: [feature], layers: [Self.layer])
        // Tiles 62-65 x 62-65 at zoom 7: lon -5.6..2.8; the area keeps columns 64-65 (lon 0..5.6).
        let area = Rect(minX: 64 * 256, minY: 62 * 256, maxX: 66 * 256, maxY: 66 * 256)
        func placed(_ x: Int, _ y: Int, _ side: Int) throws -> LabelCandidate? {
            var view = try View.tiles(z: 7, x: x, y: y, columns: side, rows: side)
            view.renderedArea = area
            return try LabelPlacementTests.placed(map, view).first { $0.text == "Cut" }
        }
        let label = try #require(try placed(62, 62, 4))
        #expect(area.contains(label.box))
        for x in 62..<66 {
            for y in 62..<66 {
                let tile = Rect(
                    minX: Double(x * 256), minY: Double(y * 256), maxX: Double(x * 256 + 256),
                    maxY: Double(y * 256 + 256))
                let alone = try placed(x, y, 1)
                #expect(alone?.box == (label.box.intersects(tile) ? label.box : nil), "tile 7/\(x)/\(y)")
            }
        }
    }
}
