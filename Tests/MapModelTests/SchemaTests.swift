import Foundation
import Geodesy
import TestSupport
import Testing

@testable import MapModel

/// The JSON Schema editors use and the decoder must accept the same keys.
@Suite struct SchemaTests {
    let schema: JSONValue

    init() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Repository.root + "/schema/map.schema.json"))
        schema = try JSONParser.parse([UInt8](data), file: "map.schema.json")
    }

    func properties(_ path: [String]) -> [String] {
        var value = schema
        for key in path {
            guard case .object(let members) = value, let next = members.first(where: { $0.key == key }) else {
                return []
            }
            value = next.value
        }
        guard case .object(let members) = value,
            case .object(let props)? = members.first(where: { $0.key == "properties" })?.value
        else { return [] }
        return props.map(\.key)
    }

    @Test func schemaKeysMatchTheDecoder() {
        #expect(Set(properties([])) == Set(MapDocument.keys))
        #expect(Set(properties(["$defs", "layer"])) == Set(MapDocument.layerKeys))
        #expect(Set(properties(["$defs", "rasterLayer"])) == Set(MapDocument.rasterLayerKeys))
        #expect(Set(properties(["$defs", "rule"])) == Set(MapDocument.ruleKeys))
        #expect(Set(properties(["$defs", "databaseSource"])) == Set(MapDocument.sourceKeys))
        #expect(Set(properties(["$defs", "line"])) == Set(SymbolKeys.line))
        #expect(Set(properties(["$defs", "gridLine"])) == Set(SymbolKeys.gridLine))
        #expect(Set(properties(["$defs", "marker"])) == Set(SymbolKeys.marker))
        #expect(Set(properties(["$defs", "fill"])) == Set(SymbolKeys.fill))
        #expect(Set(properties(["$defs", "pattern"])) == Set(SymbolKeys.pattern))
        #expect(Set(properties(["$defs", "hatch"])) == Set(SymbolKeys.hatch))
        #expect(Set(properties(["$defs", "label"])) == Set(SymbolKeys.label))
        #expect(Set(properties(["$defs", "label", "properties", "halo"])) == Set(SymbolKeys.halo))
        #expect(Set(properties(["$defs", "grid"])) == Set(GridSettings.keys))
        #expect(Set(properties(["$defs", "gridLevel"])) == Set(GridSettings.levelKeys))
        #expect(Set(properties(["$defs", "gridText"])) == Set(GridSettings.textKeys))
        #expect(Set(properties(["$defs", "gridText", "properties", "halo"])) == Set(SymbolKeys.halo))
    }

    /// docs/map-document.md and the style pages it links to name every key the decoder reads,
    /// and every grid option.
    @Test func everyKeyIsDocumented() throws {
        let style = Repository.root + "/docs/style"
        let pages =
            ["map-document.md"].map { Repository.root + "/docs/" + $0 }
            + (try FileManager.default.contentsOfDirectory(atPath: style)).sorted().map { style + "/" + $0 }
        let page = try pages.map { try String(contentsOfFile: $0, encoding: .utf8) }.joined()
        let documentKeys: [String] =
            MapDocument.keys + MapDocument.layerKeys + MapDocument.ruleKeys + MapDocument.rasterLayerKeys
            + MapDocument.hillshadeKeys
        let symbolKeys: [String] =
            SymbolKeys.line + SymbolKeys.marker + SymbolKeys.fill + SymbolKeys.pattern + SymbolKeys.hatch
            + SymbolKeys.label + SymbolKeys.halo
        let gridKeys: [String] =
            GridSettings.keys + GridSettings.levelKeys + GridSettings.textKeys + GridAnnotation.keys
            + GridAnnotation.sideKeys
        let gridValues: [String] =
            GridType.allCases.map(\.rawValue) + GridSettings.LabelPosition.allCases.map(\.rawValue)
            + GridSettings.LabelPriority.allCases.map(\.rawValue)
            + LatLongLabelFormat.allCases.map(\.rawValue) + MGRSLabelUnit.allCases.map(\.rawValue)
            + GridMarkStyle.Kind.allCases.map(\.rawValue) + GridMarkStyle.TickPosition.allCases.map(\.rawValue)
            + GridMarkStyle.Frame.allCases.map(\.rawValue) + GridAnnotation.Format.allCases.map(\.rawValue)
            + GridAnnotation.Axis.allCases.map(\.rawValue) + GridAnnotation.Position.allCases.map(\.rawValue)
            + GridAnnotation.Direction.allCases.map(\.rawValue) + HemisphereStyle.allCases.map(\.rawValue)
        let styleValues: [String] =
            Compositing.allCases.map(\.rawValue) + LabelStyle.Position.allCases.map(\.rawValue)
            + LabelStyle.TextTransform.allCases.map(\.rawValue) + MarkerShape.allCases.map(\.rawValue)
        let keys = documentKeys + symbolKeys + gridKeys + gridValues + styleValues
        let missing = Set(keys).filter { !page.contains("`\($0)`") }.sorted()
        #expect(missing.isEmpty, "docs/map-document.md and docs/style/ do not mention \(missing)")
    }

    /// The grid's enumerations in the schema are the decoder's.
    @Test func gridEnumsMatchTheDecoder() {
        func values(_ key: String) -> [String] {
            guard case .object(let root) = schema,
                case .object(let defs)? = root.first(where: { $0.key == "$defs" })?.value,
                case .object(let grid)? = defs.first(where: { $0.key == "grid" })?.value,
                case .object(let props)? = grid.first(where: { $0.key == "properties" })?.value,
                case .object(let entry)? = props.first(where: { $0.key == key })?.value,
                case .array(let items)? = entry.first(where: { $0.key == "enum" })?.value
            else { return [] }
            return items.compactMap { if case .string(let s) = $0 { return s } else { return nil } }
        }
        #expect(values("type") == GridType.allCases.map(\.rawValue))
        #expect(values("labelPosition") == GridSettings.LabelPosition.allCases.map(\.rawValue))
        #expect(values("labelPriority") == GridSettings.LabelPriority.allCases.map(\.rawValue))
        #expect(values("labelFormat") == LatLongLabelFormat.allCases.map(\.rawValue))
        #expect(values("labelUnit") == MGRSLabelUnit.allCases.map(\.rawValue))
        #expect(values("style") == GridMarkStyle.Kind.allCases.map(\.rawValue))
        #expect(values("tickPosition") == GridMarkStyle.TickPosition.allCases.map(\.rawValue))
        #expect(values("frame") == GridMarkStyle.Frame.allCases.map(\.rawValue))
    }

    @Test func shippedMapsDecode() throws {
        let maps = Repository.fixture("maps")
        let files = try FileManager.default.contentsOfDirectory(atPath: maps).filter { $0.hasSuffix(".json") }
        #expect(!files.isEmpty)
        for file in files {
            _ = try MapDocument.load(path: maps + "/" + file)
        }
    }
}
