import Foundation
import Geodesy

/// The letters of MGRS/USNG 100 km squares (level 1), each at the centroid of its square
/// clipped to its zone, so the partial squares along zone edges are named too.
enum SquareLabelGenerator {
    static let side = 100_000.0
    /// Points per square edge when tracing it on the ellipsoid.
    static let samples = 8

    static func generate<P: GridProjection>(_ b: inout GridBuilder<P>) {
        guard b.request.labels else { return }
        zones(&b)
        caps(&b)
    }

    /// The boundary of the square (i, j) of a plane, traced counter-clockwise (y up).
    static func outline(_ i: Double, _ j: Double) -> [PlanePoint] {
        var points: [PlanePoint] = []
        let x0 = i * side
        let y0 = j * side
        let corners = [(x0, y0), (x0 + side, y0), (x0 + side, y0 + side), (x0, y0 + side)]
        for k in 0..<4 {
            let (ax, ay) = corners[k]
            let (bx, by) = corners[(k + 1) % 4]
            for s in 0..<samples {
                let f = Double(s) / Double(samples)
                points.append(PlanePoint(x: ax + (bx - ax) * f, y: ay + (by - ay) * f))
            }
        }
        return points
    }

    private static func zones<P: GridProjection>(_ b: inout GridBuilder<P>) {
        let geo = b.geoQuery.intersection(GeoBox(south: -80, north: 84, west: -180, east: 180))
        guard !geo.isEmpty else { return }
        for zone in 1...60 {
            let cells = UTMCell.all[zone - 1]
            let visible = cells.filter { $0.box.intersects(geo) }
            guard !visible.isEmpty else { continue }
            let frame = UTMZoneFrame(zone: zone)
            var e0 = Double.infinity
            var e1 = -Double.infinity
            var n0 = Double.infinity
            var n1 = -Double.infinity
            for cell in visible {
                let r = frame.ranges(cell.box.intersection(geo))
                e0 = Swift.min(e0, r.easting.lowerBound)
                e1 = Swift.max(e1, r.easting.upperBound)
                n0 = Swift.min(n0, r.northing.lowerBound)
                n1 = Swift.max(n1, r.northing.upperBound)
            }
            let iLo = Swift.max(1, (e0 / side).rounded(.down))
            let iHi = Swift.min(8, (e1 / side).rounded(.down))
            let jLo = (n0 / side).rounded(.down)
            let jHi = (n1 / side).rounded(.down)
            guard iLo <= iHi, jLo <= jHi else { continue }
            for i in stride(from: iLo, through: iHi, by: 1) {
                for j in stride(from: jLo, through: jHi, by: 1) {
                    guard
                        let letters = MGRS.squareLetters(
                            zone: zone, easting: (i + 0.5) * side, northing: (j + 0.5) * side)
                    else { continue }
                    let cache = b.cache
                    let projection = b.projection
                    // The square's parts on the plane, and the cell of the largest (which names it).
                    func projected() -> GridCache.SquarePlane {
                        let pieces =
                            cache?.squarePieces(.init(zone: zone, i: i, j: j)) {
                                squarePieces(frame, i, j, cells: cells)
                            } ?? squarePieces(frame, i, j, cells: cells)
                        var parts: [[PlanePoint]] = []
                        var largest: (area: Double, cell: UTMCell?) = (0, nil)
                        for (cell, piece) in pieces {
                            let plane = piece.map { projection.project(latitude: $0.y, longitude: $0.x) }
                            let area = Swift.abs(PolygonMath.areaCentroid(plane).area)
                            guard area > 0 else { continue }
                            parts.append(plane)
                            if area > largest.area { largest = (area, cell) }
                        }
                        return (parts, largest.cell)
                    }
                    // Where the plane depends on the scale alone (tiles), kept for every label
                    // region of the zoom that meets the square.
                    let (parts, named) =
                        if let cache, let scale = projection.chunkCacheScale {
                            cache.squarePlane(.init(square: .init(zone: zone, i: i, j: j), scale: scale), projected)
                        } else {
                            projected()
                        }
                    guard let cell = named else { continue }
                    let roundness =
                        GridLabelRank.roundness(Int64(i), cap: 6) + GridLabelRank.roundness(Int64(j), cap: 6)
                    let rank = GridLabelRank(
                        level: 1, roundness: roundness, order: 0, key: Double(zone) * 1e6 + i * 1e3 + j)
                    b.addCellLabel(
                        String([letters.column, letters.row]), level: 1, polygons: parts, zone: cell.designator,
                        rank: rank)
                }
            }
        }
    }

    /// The parts of the square (i, j) of a zone in each of its cells, as (longitude, latitude)
    /// points: the same in every view (a tile job's label regions meet each square many times).
    static func squarePieces(_ frame: UTMZoneFrame, _ i: Double, _ j: Double, cells: [UTMCell]) -> [(
        cell: UTMCell, piece: [PlanePoint]
    )] {
        // The square on the ellipsoid, as (longitude, latitude) points.
        let square = outline(i, j).map { p -> PlanePoint in
            let g = frame.position(p.x, p.y)
            return PlanePoint(x: g.longitude, y: g.latitude)
        }
        var south = Double.infinity
        var north = -Double.infinity
        for p in square {
            south = Swift.min(south, p.y)
            north = Swift.max(north, p.y)
        }
        var pieces: [(cell: UTMCell, piece: [PlanePoint])] = []
        for cell in cells where cell.box.north >= south && cell.box.south <= north {
            let r = Rect(minX: cell.box.west, minY: cell.box.south, maxX: cell.box.east, maxY: cell.box.north)
            let piece = PlaneClipping.clipRing(square, to: r)
            if piece.count >= 3 { pieces.append((cell, piece)) }
        }
        return pieces
    }

    private static func caps<P: GridProjection>(_ b: inout GridBuilder<P>) {
        for north in [true, false] {
            let frame = UPSFrame(north: north)
            guard let seen = frame.visible(b.geoQuery) else { continue }
            let r = frame.ranges(seen.box)
            let outer = frame.radius(latitude: north ? 84 : -80)
            let origin = UPSFrame.origin
            // The cap's edge as a polygon around the pole (counter-clockwise, y up).
            let disc = (0..<360).map { k -> PlanePoint in
                let a = Double(k) * .pi / 180
                return PlanePoint(x: origin + outer * cos(a), y: origin + outer * sin(a))
            }
            let iLo = (r.easting.lowerBound / side).rounded(.down)
            let iHi = (r.easting.upperBound / side).rounded(.down)
            let jLo = (r.northing.lowerBound / side).rounded(.down)
            let jHi = (r.northing.upperBound / side).rounded(.down)
            guard iLo <= iHi, jLo <= jHi else { continue }
            for i in stride(from: iLo, through: iHi, by: 1) {
                for j in stride(from: jLo, through: jHi, by: 1) {
                    guard
                        let letters = MGRS.upsSquareLetters(
                            north: north, easting: (i + 0.5) * side, northing: (j + 0.5) * side)
                    else { continue }
                    let square = outline(i, j)
                    let inside = square.allSatisfy { hypot($0.x - origin, $0.y - origin) <= outer }
                    let piece = inside ? square : PolygonMath.clip(square, toConvex: disc)
                    guard piece.count >= 3 else { continue }
                    // A square west of the 0°/180° meridian keeps its edge on it at -180°.
                    let west = i * side < origin
                    let plane = piece.map { p -> PlanePoint in
                        let g = frame.position(p.x, p.y, west: west)
                        return b.projection.project(latitude: g.latitude, longitude: g.longitude)
                    }
                    let roundness =
                        GridLabelRank.roundness(Int64(i), cap: 6) + GridLabelRank.roundness(Int64(j), cap: 6)
                    let rank = GridLabelRank(
                        level: 1, roundness: roundness, order: 0, key: (north ? 1e6 : 0) + i * 1e3 + j)
                    b.addCellLabel(
                        String([letters.column, letters.row]), level: 1, polygons: [plane],
                        zone: frame.designator(east: i * side >= origin), rank: rank)
                }
            }
        }
    }
}
