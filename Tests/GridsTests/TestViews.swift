import Foundation
import Geodesy

@testable import Grids

/// Views the tests generate grids for: Web Mercator at a resolution, an area in its global pixels.
struct TestView: CustomStringConvertible {
    let name: String
    let projection: WebMercatorGridProjection
    let area: Rect

    var description: String { name }

    /// The area around a centre at a zoom level of 256-pixel tiles, `width` x `height` pixels.
    static func zoom(_ name: String, _ z: Double, lon: Double, lat: Double, width: Double = 1024, height: Double = 1024)
        -> TestView
    {
        let resolution = 2 * WebMercator.halfWorld / (256 * pow2(z))
        return at(name, resolution: resolution, lon: lon, lat: lat, width: width, height: height)
    }

    /// The area around a centre at a scale denominator (standard 0.28 mm pixels).
    static func scale(
        _ name: String, _ denominator: Double, lon: Double, lat: Double, width: Double = 1024, height: Double = 1024
    ) -> TestView {
        at(name, resolution: denominator * 0.00028, lon: lon, lat: lat, width: width, height: height)
    }

    static func at(_ name: String, resolution: Double, lon: Double, lat: Double, width: Double, height: Double)
        -> TestView
    {
        let projection = WebMercatorGridProjection(resolution: resolution)
        let c = projection.project(latitude: lat, longitude: lon)
        return TestView(
            name: name, projection: projection,
            area: Rect(minX: c.x - width / 2, minY: c.y - height / 2, maxX: c.x + width / 2, maxY: c.y + height / 2))
    }

    static func pow2(_ z: Double) -> Double { pow(2, z) }

    /// The renderer's default spacing: 32 pt at the standard pixel.
    static let minSpacing = 32 * (25.4 / 0.28) / 72

    func generate(
        _ type: GridType, levels: [Int]? = nil, anchor: GridRequest.CellAnchor = .fixed,
        format: LatLongLabelFormat = .degreesMinutesSeconds, margin: Double = 4
    ) throws -> GridGeometry {
        var request = GridRequest(type: type)
        request.levels = levels
        request.minSpacing = TestView.minSpacing
        request.cellAnchor = anchor
        request.labelFormat = format
        request.margin = margin
        return try Grid.generate(request, projection: projection, area: area)
    }

    /// World to 1:25,000, the poles, the zone exceptions and the antimeridian.
    static let all: [TestView] = [
        .zoom("world", 2, lon: 0, lat: 0),
        .zoom("zoom 6, north-east US", 6, lon: -75, lat: 40),
        .zoom("zoom 12, Washington", 12, lon: -77.03, lat: 38.89),
        .scale("1:25,000, Manhattan", 25_000, lon: -73.97, lat: 40.78),
        .zoom("Norway 31V/32V", 7, lon: 4, lat: 58),
        .zoom("Svalbard 31X-37X", 7, lon: 9, lat: 76),
        .zoom("Svalbard 37X/38X", 8, lon: 42, lat: 78),
        .zoom("north cap", 8, lon: 10, lat: 84.6, height: 512),
        .zoom("south cap", 9, lon: -90, lat: -80.5),
        .zoom("equator, Gabon", 8, lon: 9, lat: 0),
        .zoom("antimeridian, Fiji", 8, lon: 179.9, lat: -17),
        .zoom("zoom 14, Tromsø", 14, lon: 18.95, lat: 69.65),
    ]
}
