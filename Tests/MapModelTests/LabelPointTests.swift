import Testing

@testable import MapModel

@Suite struct LabelPointTests {
    func polygon(_ rings: [[(Double, Double)]]) -> Feature {
        var coords: [Double] = []
        var starts = [0]
        for ring in rings {
            for p in ring { coords += [p.0, p.1] }
            starts.append(coords.count / 2)
        }
        return Feature(
            index: 0,
            geometries: [
                Geometry(kind: .polygon, coordinates: coords, partStarts: starts, polygonStarts: [0, rings.count])
            ],
            properties: Properties())
    }

    @Test func concavePolygonAnchorIsInsideAndFarFromEdges() throws {
        // A "C" shape: its centroid and box centre (50, 50) lie in the notch, outside.
        let c = polygon([[(0, 0), (100, 0), (100, 30), (30, 30), (30, 70), (100, 70), (100, 100), (0, 100), (0, 0)]])
        let anchor = try #require(LabelPoint.anchor(for: c))
        let rings = [0]
        let distance = LabelPoint.signedDistance(anchor.x, anchor.y, c.geometries[0], rings)
        #expect(distance > 14)  // the best possible is 15 (the 30-wide bars)
    }

    @Test func holesAreAvoided() throws {
        let donut = polygon([
            [(0, 0), (100, 0), (100, 100), (0, 100), (0, 0)], [(20, 20), (80, 20), (80, 80), (20, 80), (20, 20)],
        ])
        let anchor = try #require(LabelPoint.anchor(for: donut))
        #expect(!(anchor.x > 20 && anchor.x < 80 && anchor.y > 20 && anchor.y < 80))
        #expect(LabelPoint.signedDistance(anchor.x, anchor.y, donut.geometries[0], [0, 1]) > 9)
    }

    @Test func lineAnchorIsHalfwayAlong() throws {
        let line = Feature(
            index: 0, geometries: [Geometry(kind: .line, coordinates: [0, 0, 10, 0, 10, 30], partStarts: [0, 3])],
            properties: Properties())
        let anchor = try #require(LabelPoint.anchor(for: line))
        #expect(anchor.x == 10 && anchor.y == 10)
    }
}
