import Geodesy
import Grids
import MapModel
import Render

/// How one level of a sheet's grid is printed: its line, and the font family, weight and
/// colour of its values in the collar (their sizes are the sheet's, which the collar is
/// made deep enough for).
public struct SheetGridStyle: Sendable {
    public var visible: Bool
    public var stroke: PageStroke
    public var font: String
    public var bold: Bool
    public var textColor: Color

    /// The sheet's own style, used when the map document has no grid: thin dark blue lines,
    /// black values.
    public static let plain = SheetGridStyle(
        visible: true, stroke: PageStroke(color: Color(rgb: 0x1f3a60), width: 0.12),
        font: "DejaVu Sans", bold: false, textColor: .black)

    /// The style of each level of a grid of `type`: from the document's grid settings when it
    /// has a grid (its per-level line and text symbols, carried over to `type` where the levels
    /// correspond, sizes in points turned into millimetres), else `plain`.
    static func resolver(type: GridType, settings: GridSettings?) -> (Int) -> SheetGridStyle {
        guard let settings else { return { _ in .plain } }
        let typed = settings.withType(type)
        let millimetres = 25.4 / 72
        return { level in
            let style = typed.style(level: level)
            return SheetGridStyle(
                visible: style.visible,
                stroke: PageStroke(
                    color: style.line.color.withOpacity(style.line.opacity),
                    width: style.line.width * millimetres,
                    dash: style.line.dash.map { $0 * millimetres }),
                font: style.text.font, bold: style.text.bold, textColor: style.text.color)
        }
    }
}
