import Foundation
import MapModel
import Render
import Testing

@testable import DataSources

/// A real PostgreSQL 15 with PostGIS 3, started by scripts/postgis.sh for this test (its data,
/// log and socket in a scratch folder, no TCP), loaded with ogr2ogr, and stopped at the end
/// whatever happens; if the test process dies first, the script's watcher stops it.
final class PostGISServer {
    let folder: URL
    let connection: String
    private static let script = Support.root.appendingPathComponent("scripts/postgis.sh").path

    init() throws {
        // Short: the socket's path must fit in 107 bytes.
        folder = URL(fileURLWithPath: "/tmp").appendingPathComponent("pg-\(UUID().uuidString.prefix(8))")
        try Support.run("bash", [PostGISServer.script, "start", folder.path, "\(getpid())"])
        connection = "PG:host=\(folder.path) dbname=gis user=postgres"
    }

    func stop() {
        _ = try? Support.run("bash", [PostGISServer.script, "stop", folder.path])
        try? FileManager.default.removeItem(at: folder)
    }

    func psql(_ sql: String) throws -> String {
        try Support.run(
            "psql", ["-h", folder.path, "-U", "postgres", "-d", "gis", "-qAt", "-v", "ON_ERROR_STOP=1", "-c", sql])
    }

    /// The statements the server ran since the log was last cleared (log_statement = all).
    func statements() throws -> [String] {
        let log = try String(contentsOf: folder.appendingPathComponent("postgres.log"), encoding: .utf8)
        return log.components(separatedBy: "LOG:  ").filter { $0.hasPrefix("execute") || $0.hasPrefix("statement") }
    }

    func clearLog() throws {
        try Data().write(to: folder.appendingPathComponent("postgres.log"))
    }

    static func with(_ body: (PostGISServer) throws -> Void) throws {
        let server = try PostGISServer()
        defer { server.stop() }
        try body(server)
    }
}

@Suite(.serialized) struct PostGISTests {
    @Test func boroughsFromPostGIS() throws {
        try PostGISServer.with { server in
            // LAUNDER=NO keeps the attribute names as in the GeoJSON (BoroName, not boroname).
            try Support.run(
                "ogr2ogr",
                ["-f", "PostgreSQL", server.connection, Support.boroughs, "-nln", "boroughs", "-lco", "LAUNDER=NO"])
            _ = try server.psql("ALTER DATABASE gis SET log_statement = 'all'")
            let connection = server.connection.replacingOccurrences(of: "\"", with: "\\\"")
            let expected = try Support.geoJSONRender()

            try Support.withScratch { folder in
                // The same pixels as the GeoJSON, from the table and from a query with its key.
                for source in [
                    #"{"connection": "\#(connection)", "table": "boroughs"}"#,
                    #"{"connection": "\#(connection)", "sql": "SELECT ogc_fid, wkb_geometry, \"BoroName\", \"BoroCode\" FROM boroughs"}"#,
                ] {
                    let map = try Support.writeMap(in: folder, layers: Support.nycLayers(source: source))
                    let loaded = try Support.load(map)
                    #expect(loaded.sources.allSatisfy { $0.isIndexed })
                    let image = try MapRenderer(map: loaded).renderImage(view: try Support.nycView())
                    #expect(image == expected, "\(source)")
                }

                // Every statement that reads geometry asks for one view's box, by the GiST index.
                try server.clearLog()
                let map = try Support.writeMap(
                    in: folder,
                    layers: Support.nycLayers(source: #"{"connection": "\#(connection)", "table": "boroughs"}"#))
                let loaded = try Support.load(map)
                let view = try View.fitting(
                    west: -74.2, south: 40.52, east: -74.1, north: 40.6, width: 256, height: 256)
                _ = try MapRenderer(map: loaded).renderImage(view: view)
                // (At load, the extent is one aggregate, ST_Extent, which sends no rows.)
                let reads = try server.statements().filter {
                    $0.contains("CURSOR for SELECT") && $0.contains("\"wkb_geometry\"")
                }
                #expect(!reads.isEmpty)
                for statement in reads {
                    #expect(statement.contains("WHERE \"wkb_geometry\" && ST_SetSRID('BOX3D("), "\(statement)")
                }
                // The features that come back are those the view reaches, not the table.
                let reader = try loaded.sources[0].makeReader()
                let found = try reader.features(in: view.extent)
                #expect(found.map { $0.properties["BoroName"] } == [.string("Staten Island")])

                // A query result without the table's key is read once, in memory.
                let unkeyed = try Support.writeMap(
                    in: folder,
                    layers: [
                        #"{"name": "b", "source": {"connection": "\#(connection)", "sql": "SELECT wkb_geometry FROM boroughs"}, "fill": {}}"#
                    ],
                    name: "unkeyed.json")
                #expect(try !Support.load(unkeyed).sources[0].isIndexed)
            }
        }
    }

    @Test func databaseErrors() throws {
        try PostGISServer.with { server in
            try Support.run("ogr2ogr", ["-f", "PostgreSQL", server.connection, Support.boroughs, "-nln", "boroughs"])
            let connection = server.connection
            try Support.withScratch { folder in
                func error(_ source: String) throws -> String {
                    let map = try Support.writeMap(
                        in: folder, layers: [#"{"name": "b", "source": \#(source), "fill": {}}"#])
                    let message = try #require(Support.loadError(map))
                    #expect(message.hasPrefix(map + ": layers[0]"), "\(message)")
                    #expect(!message.contains("\n"))
                    return message
                }
                let sql = try error(
                    #"{"connection": "\#(connection)", "sql": "SELECT * FROM boroughs WHER ogc_fid = 1"}"#)
                #expect(
                    sql.contains("layers[0].sql: the statement failed: ERROR: syntax error at or near \"ogc_fid\""),
                    "\(sql)")
                let table = try error(#"{"connection": "\#(connection)", "table": "roads"}"#)
                #expect(table.contains("layers[0].layer: ") && table.contains("no layer \"roads\""), "\(table)")
                let filter = try error(#"{"connection": "\#(connection)", "table": "boroughs"}, "where": "nope > 1""#)
                #expect(filter.contains("layers[0].where: ") && filter.contains("nope"), "\(filter)")

                // A table dropped after the map was loaded: the render fails, naming the source.
                let map = try Support.writeMap(
                    in: folder,
                    layers: [
                        #"{"name": "b", "source": {"connection": "\#(connection)", "table": "boroughs"}, "fill": {}}"#
                    ])
                let loaded = try Support.load(map)
                _ = try server.psql("DROP TABLE boroughs")
                do {
                    _ = try MapRenderer(map: loaded).renderImage(view: try Support.nycView())
                    Issue.record("a render from a dropped table should fail")
                } catch {
                    let message = "\(error)"
                    #expect(message.hasPrefix(map + ": layers[0].source: "), "\(message)")
                    #expect(message.contains("has no layer \"boroughs\" (it holds none)"), "\(message)")
                }
            }
        }
    }

    /// No server on that socket: the connection is refused, with libpq's reason.
    @Test func connectionRefused() throws {
        try Support.withScratch { folder in
            let map = try Support.writeMap(
                in: folder,
                layers: [
                    #"{"name": "b", "source": {"connection": "PG:host=\#(folder.path) dbname=gis", "table": "t"}, "fill": {}}"#
                ])
            let message = try #require(Support.loadError(map))
            #expect(message.hasPrefix(map + ": layers[0].source: cannot open PG:host="), "\(message)")
            #expect(message.contains("No such file or directory") && message.contains(".s.PGSQL.5432"), "\(message)")
            #expect(!message.contains("\n"))
        }
    }
}
