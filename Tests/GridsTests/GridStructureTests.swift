import Foundation
import Geodesy
import Testing

@testable import Grids

/// The shape of generated grids: graticule values, lines ending on zone edges, partial
/// squares named, crossings with edges, GeoJSON output.
@Suite struct GridStructureTests {
    /// Meridians and parallels sit on multiples of their step, each value once, straight on
    /// Web Mercator (one x for a meridian, one y for a parallel).
    @Test func graticule() throws {
        let view = TestView.zoom("zoom 9", 9, lon: 2.35, lat: 48.85)
        let grid = try view.generate(.latlong)
        #expect(grid.levels == [0, 1, 2, 3, 4, 5])
        let steps = [30.0, 10, 5, 1, 0.5, 10.0 / 60]
        var values: [GridAxis: Set<Double>] = [:]
        for line in grid.lines {
            #expect(line.zone == nil)
            let step = steps[line.level]
            let k = line.value / step
            #expect(abs(k - k.rounded()) < 1e-9, "\(line.value) is not on the \(step)° step")
            if line.level > 0 {
                let coarser = steps[line.level - 1]
                #expect(
                    abs((line.value / coarser) - (line.value / coarser).rounded()) > 1e-9,
                    "\(line.value) belongs to a coarser level")
            }
            if line.axis == .longitude {
                #expect(Set(line.vertices.map { $0.point.x }).count == 1)
            } else {
                #expect(Set(line.vertices.map { $0.point.y }).count == 1)
            }
            values[line.axis, default: []].insert(line.value)
        }
        // Every 10' meridian across the view (about 1.4° of longitude at zoom 9) is there.
        let west = view.projection.unproject(PlanePoint(x: view.area.minX, y: 0)).longitude
        let east = view.projection.unproject(PlanePoint(x: view.area.maxX, y: 0)).longitude
        let expected = Set(
            stride(from: (west * 6).rounded(.up), through: (east * 6).rounded(.down), by: 1).map { $0 / 6 })
        #expect(Set(values[.longitude]!.map { ($0 * 6).rounded() / 6 }).isSuperset(of: expected))
    }

    /// At a zone edge, 100 km lines stop on the zone's meridian, and the partial squares on
    /// both sides are named.
    @Test func linesStopAtTheZoneEdgeAndPartialSquaresAreNamed() throws {
        let view = TestView.zoom("zoom 7 on 78°W", 7, lon: -78, lat: 38)
        let grid = try view.generate(.mgrs)
        let northings = grid.lines.filter { $0.axis == .northing && $0.level == 1 }
        var onEdge = 0
        for line in northings {
            for end in [line.vertices.first!, line.vertices.last!] where abs(end.position.longitude + 78) < 1e-9 {
                onEdge += 1
                #expect(line.zone!.hasPrefix("17") || line.zone!.hasPrefix("18"))
            }
        }
        #expect(onEdge >= 4, "northing lines should end on 78°W from both sides")
        // Squares cut by 78°W: labels in zone 17 and in zone 18 within 50 km of the edge.
        let squares = grid.labels.filter { $0.level == 1 }
        let nearWest = squares.filter { $0.zone!.hasPrefix("17") && $0.position.longitude > -78.6 }
        let nearEast = squares.filter { $0.zone!.hasPrefix("18") && $0.position.longitude < -77.4 }
        #expect(!nearWest.isEmpty && !nearEast.isEmpty)
    }

    /// Crossings with the area's edges: each easting line crossing the bottom edge is found
    /// once, at the line's own x there.
    @Test func edgeCrossings() throws {
        let view = TestView.zoom("zoom 13", 13, lon: -77.03, lat: 38.89)
        let grid = try view.generate(.utm)
        let bottom = grid.edgeCrossings([.bottom])
        let eastings = bottom.filter { grid.lines[$0.lineIndex].axis == .easting }
        #expect(eastings.count >= 10)
        #expect(Set(eastings.map { grid.lines[$0.lineIndex].value }).count == eastings.count)
        for c in bottom {
            #expect(c.point.y == view.area.maxY)
            #expect(c.edge == .bottom)
            #expect(c.point.x >= view.area.minX && c.point.x <= view.area.maxX)
        }
        let left = grid.edgeCrossings([.left]).filter { grid.lines[$0.lineIndex].axis == .northing }
        #expect(left.count >= 10)
        #expect(left.allSatisfy { grid.lines[$0.lineIndex].label!.hasSuffix("mN") })
    }

    /// The GeoJSON is valid JSON with the documented properties.
    @Test func geoJSON() throws {
        let view = TestView.zoom("zoom 6", 6, lon: -75, lat: 40)
        let grid = try view.generate(.mgrs)
        let json = try JSONSerialization.jsonObject(with: Data(grid.geoJSON().utf8)) as! [String: Any]
        #expect(json["type"] as? String == "FeatureCollection")
        let features = json["features"] as! [[String: Any]]
        #expect(features.count == grid.lines.count + grid.labels.count)
        for feature in features {
            let properties = feature["properties"] as! [String: Any]
            let geometry = feature["geometry"] as! [String: Any]
            switch properties["kind"] as! String {
            case "line":
                #expect(geometry["type"] as? String == "LineString")
                #expect(properties["level"] is Int && properties["value"] is NSNumber && properties["zone"] is String)
                #expect(["easting", "northing", "boundary"].contains(properties["axis"] as! String))
            default:
                #expect(properties["kind"] as? String == "label")
                #expect(geometry["type"] as? String == "Point" && properties["text"] is String)
            }
        }
        let latlong = try view.generate(.latlong).geoJSON()
        let labels =
            (try JSONSerialization.jsonObject(with: Data(latlong.utf8)) as! [String: Any])["features"]
            as! [[String: Any]]
        #expect(labels.contains { ($0["properties"] as! [String: Any])["text"] as? String == "75°W" })
        #expect(!labels.contains { ($0["properties"] as! [String: Any])["zone"] != nil })
    }
}
