/// A map's several grids: `"grids": [{...}, {...}]`, or `"grid": {...}` for one.
///
/// The first grid is the map's main grid: its labels are placed first, and a later grid's
/// labels give way to an earlier grid's (docs/grids.md, "Several grids").
extension MapDocument {
    /// The first grid, the one a single-grid document names `grid`. Setting it replaces the
    /// first grid (or adds one) and keeps the others; setting nil removes every grid.
    public var grid: GridSettings? {
        get { grids.first }
        set {
            guard let newValue else {
                grids = []
                return
            }
            if grids.isEmpty { grids = [newValue] } else { grids[0] = newValue }
        }
    }

    /// The grids that draw (visible ones), in document order.
    public var visibleGrids: [GridSettings] { grids.filter(\.visible) }

    /// `grid` (one) or `grids` (a list); both at once is an error, since which would win is
    /// not obvious.
    static func decodeGrids(_ object: JSONObject, root: JSONNode) throws -> [GridSettings] {
        let single = object["grid"]
        guard let list = object["grids"] else { return try single.map { [try $0.gridSettings()] } ?? [] }
        if single != nil {
            throw root.error(
                "\"grid\" and \"grids\" are both given: use \"grids\" alone, with the grid as its first element")
        }
        return try list.array().map { try $0.gridSettings() }
    }
}
