import Foundation
import Testing
@testable import MapModel

/// The JSON Schema editors use and the decoder must accept the same keys.
@Suite struct SchemaTests {
    let schema: JSONValue

    init() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let data = try Data(contentsOf: root.appendingPathComponent("schema/map.schema.json"))
        schema = try JSONParser.parse([UInt8](data), file: "map.schema.json")
    }

    func properties(_ path: [String]) -> [String] {
        var value = schema
        for key in path {
            guard case .object(let members) = value, let next = members.first(where: { $0.key == key }) else { return [] }
            value = next.value
        }
        guard case .object(let members) = value, case .object(let props)? = members.first(where: { $0.key == "properties" })?.value else { return [] }
        return props.map(\.key)
    }

    @Test func schemaKeysMatchTheDecoder() {
        #expect(Set(properties([])) == Set(MapDocument.keys))
        #expect(Set(properties(["$defs", "layer"])) == Set(MapDocument.layerKeys))
        #expect(Set(properties(["$defs", "line"])) == Set(SymbolKeys.line))
        #expect(Set(properties(["$defs", "marker"])) == Set(SymbolKeys.marker))
        #expect(Set(properties(["$defs", "fill"])) == Set(SymbolKeys.fill))
        #expect(Set(properties(["$defs", "label"])) == Set(SymbolKeys.label))
        #expect(Set(properties(["$defs", "label", "properties", "halo"])) == Set(SymbolKeys.halo))
    }

    @Test func shippedMapsDecode() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let maps = root.appendingPathComponent("Fixtures/maps")
        let files = try FileManager.default.contentsOfDirectory(atPath: maps.path).filter { $0.hasSuffix(".json") }
        #expect(!files.isEmpty)
        for file in files {
            _ = try MapDocument.load(path: maps.appendingPathComponent(file).path)
        }
    }
}
