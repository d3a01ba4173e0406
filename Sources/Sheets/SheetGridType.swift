import MapModel

/// The grid printed on a sheet. The UTM family (utm, mgrs, usng) is drawn in the sheet's own
/// zone, where its lines are straight and square to the frame; latitude/longitude lines are
/// the gently curved meridians and parallels of that plane.
public enum SheetGridType: String, Sendable, CaseIterable {
    case latlong, utm, mgrs, usng, none

    var isUTMFamily: Bool { self == .utm || self == .mgrs || self == .usng }

    /// The grid as a map document names it; nil for `.none`.
    var kind: GridSettings.Kind? { GridSettings.Kind(rawValue: rawValue) }

    /// The grid a sheet prints when none is asked for: the map document's own grid type
    /// (none when the document hides its grid), else MGRS.
    static func `default`(for document: MapDocument) -> SheetGridType {
        guard let grid = document.grid else { return .mgrs }
        return grid.visible ? SheetGridType(rawValue: grid.type.rawValue)! : .none
    }

    /// How the sheet names the grid: `MGRS`, `USNG`, `UTM`, `latitude/longitude`.
    var displayName: String {
        switch self {
        case .latlong: return "latitude/longitude"
        case .utm: return "UTM"
        case .mgrs: return "MGRS"
        case .usng: return "USNG"
        case .none: return "none"
        }
    }
}
