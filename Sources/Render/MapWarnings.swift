import Foundation
import MapModel

/// What looks wrong in a map but does not stop it from rendering, one line each: attributes
/// no feature has (see `LoadedMap.warnings`), and font families that match no font.
public enum MapWarnings {
    public static func list(for map: LoadedMap) throws -> [String] {
        let fonts = try FontConfiguration(document: map.document)
        var lines = map.warnings
        var checked = Set<String>()
        func check(_ family: String, _ place: String) {
            guard checked.insert(family).inserted, !fonts.hasFamily(family) else { return }
            let source =
                map.document.fonts.isEmpty && !map.document.systemFonts
                ? "the map lists no fonts and leaves out the system's"
                : "among the fonts of \"fonts\"\(map.document.systemFonts ? " and the system's" : "")"
            lines.append(
                DocumentError(
                    file: map.document.path, place: place,
                    message:
                        "no font of the family \"\(family)\" (\(source)): its text is drawn in another font or as boxes"
                ).description)
        }
        for (index, layer) in map.document.layers.enumerated() {
            for label in layer.rules.compactMap(\.label) { check(label.font, "layers[\(index)]") }
        }
        for (index, grid) in map.document.grids.enumerated() where grid.visible && grid.labelsVisible {
            let place = map.document.grids.count == 1 ? "grid" : "grids[\(index)]"
            for level in 0..<GridSettings.levelCount(grid.type) { check(grid.style(level: level).text.font, place) }
        }
        return lines
    }
}
