import Testing

@testable import MapModel

/// A layer's `source` and the keys that choose what of it is read.
@Suite struct LayerSourceTests {
    func source(_ layerKeys: String) throws -> LayerSource {
        let text = #"{"layers": [{"name": "a", \#(layerKeys), "fill": {}}]}"#
        let value = try JSONParser.parse(Array(text.utf8), file: "map.json")
        return try MapDocument.decode(JSONNode(value: value, file: "map.json"), baseDirectory: "/data").layers[0].source
    }

    func error(_ layerKeys: String) -> String {
        do {
            _ = try source(layerKeys)
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    @Test func pathsAndKeys() throws {
        let file = try source(#""source": "roads.gpkg", "layer": "roads", "where": "lanes > 2", "srs": "EPSG:3857""#)
        #expect(
            file
                == LayerSource(
                    dataset: "/data/roads.gpkg", layer: "roads", attributeFilter: "lanes > 2", srs: "EPSG:3857"))
        #expect(file.fileExtension == "gpkg")
        let csv = try source(#""source": "/abs/p.csv", "sql": "SELECT * FROM p""#)
        #expect(csv == LayerSource(dataset: "/abs/p.csv", sql: "SELECT * FROM p"))
    }

    @Test func connections() throws {
        let text = try source(#""source": "PG:dbname=gis", "layer": "roads""#)
        #expect(text == LayerSource(dataset: "PG:dbname=gis", isConnection: true, layer: "roads"))
        #expect(text.fileExtension == "")
        let table = try source(#""source": {"connection": "PG:dbname=gis", "table": "public.roads"}"#)
        #expect(table == LayerSource(dataset: "PG:dbname=gis", isConnection: true, layer: "public.roads"))
        let query = try source(#""source": {"connection": "PG:dbname=gis", "sql": "SELECT 1"}, "where": "a = 1""#)
        #expect(
            query
                == LayerSource(dataset: "PG:dbname=gis", isConnection: true, sql: "SELECT 1", attributeFilter: "a = 1"))
    }

    @Test func errorsNameTheKey() {
        #expect(
            error(#""source": {"connection": "PG:x", "table": "t", "sql": "s"}"#)
                == #"map.json: layers[0].source: give either "table" or "sql", not both"#)
        #expect(
            error(#""source": {"connection": "PG:x", "tabel": "t"}"#).hasPrefix("map.json: layers[0].source"))
        #expect(error(#""source": {"table": "t"}"#).contains("connection"))
        #expect(error(#""source": "a.gpkg", "layer": "x", "sql": "s""#).hasPrefix("map.json: layers[0].sql: "))
        #expect(
            error(#""source": {"connection": "PG:x", "table": "t"}, "layer": "u""#)
                == "map.json: layers[0].layer: the source already names its table")
        #expect(error(#""source": "a.gpkg", "srs": """#) == "map.json: layers[0].srs: expected a non-empty string")
        #expect(error(#""source": 3"#).hasPrefix("map.json: layers[0].source: "))
    }
}
