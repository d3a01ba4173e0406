/// A map document: what to draw and how. Decoded from JSON by `MapDocument.load(path:)`;
/// every key is documented in docs/map-document.md and in `schema/map.schema.json`.
public struct MapDocument: Sendable {
    /// The document's path (as given), for error messages.
    public var path: String
    public var name: String?
    public var attribution: String?
    public var background: Color = .white
    /// The scale denominator at which symbols of scaling layers have their authored size; nil for none.
    public var referenceScale: Double?
    /// Font files or directories (absolute paths) added to the fonts the renderer can use.
    public var fonts: [String] = []
    /// Whether the machine's installed fonts are used too. Documents that must render the same
    /// everywhere (golden tests, the demo) set this to false and ship their fonts.
    public var systemFonts: Bool = true
    public var layers: [Layer] = []
    /// The coordinate grid drawn over the layers and labels, if any.
    public var grid: GridSettings?

    public init(path: String, layers: [Layer] = []) {
        self.path = path
        self.layers = layers
    }
}

public struct Layer: Sendable {
    public var name: String
    /// Where the features come from (a file, a layer of it, a database table or query).
    public var source: LayerSource
    public var visible: Bool = true
    /// The layer draws when `minScale <= scale < maxScale` (scale denominators; nil = unbounded).
    public var minScale: Double?
    public var maxScale: Double?
    /// Whether the map's reference scale applies to this layer's symbols.
    public var scalesSymbols: Bool = true
    public var filter: Filter?
    public var marker: MarkerSymbol?
    public var line: LineSymbol?
    public var fill: FillSymbol?
    public var label: LabelSymbol?
    /// For a raster layer (`"raster": "dem.tif"`, the source's dataset): how it is drawn.
    public var raster: RasterStyle?

    public init(name: String, source: LayerSource) {
        self.name = name
        self.source = source
    }

    public func isVisible(atScale scale: Double) -> Bool {
        guard visible else { return false }
        if let minScale, scale < minScale { return false }
        if let maxScale, scale >= maxScale { return false }
        return true
    }
}
