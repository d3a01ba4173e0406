import Foundation
import Geodesy
import TestSupport
import Testing

@testable import Grids

/// Crosses and edge ticks as geometry: a cross sits where GeoConvert puts its easting and
/// northing (or where the Web Mercator formula puts its meridian and parallel), its arms lie
/// on the two lines, views that overlap find the same crosses, and ticks meet the edge at
/// right angles where the lines cross it.
@Suite struct GridMarksTests {
    static func pixel(latitude: Double, longitude: Double, resolution: Double) -> PlanePoint {
        WebMercatorFormula.pixel(latitude: latitude, longitude: longitude, resolution: resolution)
    }

    static func distance(_ a: PlanePoint, _ b: PlanePoint) -> Double { WebMercatorFormula.distance(a, b) }

    /// The least distance from `p` to the polyline `line`.
    static func distance(_ p: PlanePoint, to line: [PlanePoint]) -> Double {
        var best = Double.infinity
        for i in 0..<(line.count - 1) {
            let a = line[i]
            let b = line[i + 1]
            let dx = b.x - a.x
            let dy = b.y - a.y
            let t = max(0, min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / max(1e-300, dx * dx + dy * dy)))
            best = min(best, distance(p, PlanePoint(x: a.x + t * dx, y: a.y + t * dy)))
        }
        return best
    }

    /// UTM crosses over Manhattan at 1:50,000: every easting meets every northing in view once,
    /// at the pixel where GeoConvert's position of (easting, northing) falls by the Web Mercator
    /// formula, to the quarter pixel the lines are densified to.
    @Test func utmCrossesAreWhereGeoConvertPutsThem() throws {
        let view = TestView.scale("Manhattan 1:50,000", 50_000, lon: -73.97, lat: 40.77)
        let grid = try view.generate(.utm)
        let meetings = grid.intersections()
        let eastings = Set(grid.lines.filter { $0.axis == .easting }.map(\.value))
        let northings = Set(grid.lines.filter { $0.axis == .northing }.map(\.value))
        #expect(eastings.count >= 4 && northings.count >= 4)
        let inView = meetings.filter { view.area.contains($0.point) }
        // Every pair whose crossing is inside the view, once.
        let pairs = inView.map { "\(grid.lines[$0.xLine].value) \(grid.lines[$0.yLine].value)" }
        #expect(Set(pairs).count == pairs.count, "a crossing found twice")
        #expect(inView.count >= (eastings.count - 2) * (northings.count - 2))
        let converted = try GeoConvert.run(
            ["-g", "-p", "9"], inView.map { "18n \(grid.lines[$0.xLine].value) \(grid.lines[$0.yLine].value)" })
        for (meeting, text) in zip(inView, converted) {
            let parts = text.split(separator: " ").compactMap { Double($0) }
            try #require(parts.count == 2, "GeoConvert said '\(text)'")
            let expected = Self.pixel(latitude: parts[0], longitude: parts[1], resolution: view.projection.resolution)
            #expect(
                Self.distance(meeting.point, expected) < 0.3,
                "\(grid.lines[meeting.xLine].value) \(grid.lines[meeting.yLine].value): \(meeting.point) not \(expected)"
            )
        }
    }

    /// A cross's arms lie on its two lines and reach the half length along each, both ways.
    @Test func armsLieOnTheirLines() throws {
        let view = TestView.scale("Manhattan 1:50,000", 50_000, lon: -73.97, lat: 40.77)
        let grid = try view.generate(.utm)
        let half = 12.0
        let arms = grid.crosses(halfLength: half)
        #expect(arms.count == 2 * grid.intersections().count)
        for (arm, meeting) in zip(
            stride(from: 0, to: arms.count, by: 2).map { (arms[$0], arms[$0 + 1]) }, grid.intersections())
        {
            for (piece, index) in [(arm.0, meeting.xLine), (arm.1, meeting.yLine)] {
                let line = grid.lines[index]
                #expect(piece.axis == line.axis && piece.value == line.value && piece.level == line.level)
                for v in piece.vertices {
                    #expect(Self.distance(v.point, to: line.vertices.map(\.point)) < 1e-6)
                }
                var length = 0.0
                for i in 0..<(piece.vertices.count - 1) {
                    length += Self.distance(piece.vertices[i].point, piece.vertices[i + 1].point)
                }
                #expect(abs(length - 2 * half) < 1e-6, "an arm of \(line.value) is \(length) long")
            }
        }
    }

    /// Graticule crosses at zoom 10 over Paris sit on the Web Mercator formula's pixel of their
    /// meridian and parallel; and a view shifted by 300 pixels finds the same points where
    /// the two overlap (what tiles across an edge need).
    @Test func graticuleCrossesAgreeAcrossViews() throws {
        let a = TestView.zoom("Paris z10", 10, lon: 2.35, lat: 48.85)
        let grid = try a.generate(.latlong)
        let meetings = grid.intersections()
        #expect(meetings.count >= 9)
        for m in meetings {
            let expected = Self.pixel(
                latitude: grid.lines[m.yLine].value, longitude: grid.lines[m.xLine].value,
                resolution: a.projection.resolution)
            #expect(Self.distance(m.point, expected) < 1e-6)
        }
        let area = a.area
        let b = TestView(
            name: "shifted", projection: a.projection,
            area: Rect(minX: area.minX + 300, minY: area.minY + 300, maxX: area.maxX + 300, maxY: area.maxY + 300))
        let other = try b.generate(.latlong)
        let overlap = area.intersection(b.area)
        func key(_ g: GridGeometry, _ m: GridIntersection) -> String {
            "\(g.lines[m.xLine].value) \(g.lines[m.yLine].value) \(m.point.x) \(m.point.y)"
        }
        let inA = Set(meetings.filter { overlap.contains($0.point) }.map { key(grid, $0) })
        let inB = Set(other.intersections().filter { overlap.contains($0.point) }.map { key(other, $0) })
        #expect(!inA.isEmpty && inA == inB)
    }

    /// A tick starts where its line crosses the edge and runs at right angles into the area
    /// (or out of it), as long as asked; zone boundaries get none.
    @Test func ticksMeetTheEdgesAtRightAngles() throws {
        let view = TestView.zoom("Paris z10", 10, lon: 2.35, lat: 48.85)
        let grid = try view.generate(.latlong, margin: 0)
        let r = view.area
        for inward in [true, false] {
            let ticks = grid.edgeTicks(length: 7, inward: inward, of: r)
            #expect(ticks.count == grid.edgeCrossings(of: r).count)
            for tick in ticks {
                let p = tick.vertices[0].point
                let q = tick.vertices[1].point
                #expect(abs(Self.distance(p, q) - 7) < 1e-9)
                let onVertical = abs(p.x - r.minX) < 1e-9 || abs(p.x - r.maxX) < 1e-9
                // Along the edge's normal: x changes on the left and right edges, y on the others.
                #expect(onVertical ? q.y == p.y : q.x == p.x)
                #expect(r.contains(PlanePoint(x: (p.x + q.x) / 2, y: (p.y + q.y) / 2)) == inward)
                if tick.axis == .longitude && !onVertical {
                    let expected = Self.pixel(
                        latitude: 0, longitude: tick.value, resolution: view.projection.resolution)
                    #expect(abs(p.x - expected.x) < 1e-6)
                }
            }
        }
        let mgrs = try TestView.zoom("zoom 6", 6, lon: -75, lat: 40).generate(.mgrs)
        #expect(mgrs.edgeTicks(length: 5, inward: true).allSatisfy { $0.axis != .boundary })
    }
}
