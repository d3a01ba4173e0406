import Foundation
import Geodesy
import MapModel
import Testing

@testable import DataSources

/// An indexed source's reader drops the converted features it kept once the views, coming row
/// after row from the north as a tile job asks for them, are past them (`ViewSweep`): what it
/// keeps follows a row of views, not every edge a zoom crosses.
@Suite struct ReaderSweepTests {
    static let rows = 8
    static let columns = 4
    /// Web Mercator metres: a view's side, and the top of the first row.
    static let side = 1_000_000.0
    static let top = 4_000_000.0

    /// The view in row `row` (from the north) and column `column`.
    static func view(_ row: Int, _ column: Int) -> Rect {
        let minX = -2 * side + Double(column) * side
        let maxY = top - Double(row) * side
        return Rect(minX: minX, minY: maxY - side, maxX: minX + side, maxY: maxY)
    }

    /// Short lines crossing each edge between two views: in each row one across every edge
    /// between columns, and in each column one across every edge between rows.
    static func lines() -> [[(x: Double, y: Double)]] {
        var lines: [[(x: Double, y: Double)]] = []
        for row in 0..<rows {
            let y = top - (Double(row) + 0.5) * side
            for edge in 1..<columns {
                let x = -2 * side + Double(edge) * side
                lines.append([(x - 0.1 * side, y), (x + 0.1 * side, y)])
            }
        }
        for edge in 1..<rows {
            let y = top - Double(edge) * side
            for column in 0..<columns {
                let x = -2 * side + (Double(column) + 0.5) * side
                lines.append([(x, y + 0.1 * side), (x, y - 0.1 * side)])
            }
        }
        return lines
    }

    /// The lines in a GeoPackage (longitude, latitude) written by ogr2ogr.
    func source(in folder: URL) throws -> OGRIndexedSource {
        let features = Self.lines().map { line in
            let points = line.map { p in "[\(WebMercator.longitude(x: p.x)), \(WebMercator.latitude(y: p.y))]" }
            return
                #"{"type": "Feature", "properties": {}, "geometry": {"type": "LineString", "coordinates": [\#(points.joined(separator: ","))]}}"#
        }
        let geojson = folder.appendingPathComponent("l.geojson").path
        try #"{"type": "FeatureCollection", "features": [\#(features.joined(separator: ","))]}"#.write(
            toFile: geojson, atomically: true, encoding: .utf8)
        try Support.run("ogr2ogr", ["-f", "GPKG", folder.appendingPathComponent("l.gpkg").path, geojson])
        let map = try Support.writeMap(in: folder, layers: [#"{"name": "l", "source": "l.gpkg", "line": {}}"#])
        return try #require(try Support.load(map).sources[0] as? OGRIndexedSource)
    }

    /// A reader of `source`: OGR's, or ours straight from SQLite, with the count of features
    /// it keeps.
    func reader(of source: OGRIndexedSource, ogr: Bool) throws -> (reader: any FeatureReader, kept: () -> Int) {
        if ogr {
            let reader = try OGRIndexedReader(source: source)
            return (reader, { reader.converted.count })
        }
        let reader = try GeoPackageReader(source: source, table: try #require(source.geoPackage))
        return (reader, { reader.converted.count })
    }

    static func ids(_ reader: any FeatureReader, _ rect: Rect) throws -> [Int] {
        var ids: [Int] = []
        try reader.visitFeatures(in: rect) { ids.append($0.index) }
        return ids.sorted()
    }

    /// Row after row from the north, each view gets what a new reader gets, and the reader
    /// keeps at most the lines of the row it is in and of the edges below and above it (11
    /// here; every one of the 52 lines crosses an edge, and all were kept till the budget).
    /// A view back north ends the sweep: it gets the same, and the reader keeps as before.
    @Test(arguments: [false, true])
    func keptFeaturesFollowTheRowOfViews(ogr: Bool) throws {
        try Support.withScratch { folder in
            let source = try source(in: folder)
            let (reader, kept) = try reader(of: source, ogr: ogr)
            let lines = Self.lines().count
            #expect(lines == 52)
            var most = 0
            for row in 0..<Self.rows {
                for column in 0..<Self.columns {
                    let view = Self.view(row, column)
                    #expect(try Self.ids(reader, view) == Self.ids(try self.reader(of: source, ogr: ogr).reader, view))
                    most = max(most, kept())
                }
            }
            #expect(most > 0)
            #expect(most <= 2 * Self.columns + Self.columns - 1)
            // Back north: the same features, and nothing dropped from then on.
            for row in 0..<Self.rows {
                for column in 0..<Self.columns {
                    let view = Self.view(row, column)
                    #expect(try Self.ids(reader, view) == Self.ids(try self.reader(of: source, ogr: ogr).reader, view))
                }
            }
            #expect(kept() == lines)
        }
    }
}
