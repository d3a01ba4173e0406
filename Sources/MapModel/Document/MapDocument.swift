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
    /// The coordinate grids drawn over the layers and labels, in document order (`grids`, or
    /// `grid` as a one-element list). See `MapDocument+Grids.swift`.
    public var grids: [GridSettings] = []

    public init(path: String, layers: [Layer] = []) {
        self.path = path
        self.layers = layers
    }
}

public struct Layer: Sendable {
    public var name: String
    /// What a reader calls the layer (`"title": "Built-up area"`), printed in a sheet's
    /// legend; the name, an identifier that rules and errors use, when absent.
    public var title: String?
    /// Where the features come from (a file, a layer of it, a database table or query).
    public var source: LayerSource
    public var visible: Bool = true
    /// The scales at which the layer draws (`minScale`/`maxScale`, `minZoom`/`maxZoom`).
    public var scales: ScaleRange = .all
    /// Whether the map's reference scale applies to this layer's symbols.
    public var scalesSymbols: Bool = true
    /// Bounds on every size of the layer's symbols, in points, after the reference-scale
    /// factor (as MapServer's MINSIZE and MAXSIZE): sizes that scale stay readable and drawable.
    public var minSize: Double = 0
    public var maxSize: Double = Layer.defaultMaxSize
    /// The features the layer draws at all; its rules choose among them.
    public var filter: Filter?
    /// The layer's features (not its labels) are drawn to a group, then put onto the map with
    /// this opacity and compositing.
    public var opacity: Double = 1
    public var compositing: Compositing = .normal
    public var rules: [Rule] = []
    /// For a raster layer (`"raster": "dem.tif"`, the source's dataset): how it is drawn.
    public var raster: RasterStyle?

    /// 250 pt: about 8.8 cm, larger than any symbol a map means to draw.
    public static let defaultMaxSize = 250.0

    public init(name: String, source: LayerSource, rules: [Rule] = []) {
        self.name = name
        self.source = source
        self.rules = rules
    }

    public func isVisible(atScale scale: Double) -> Bool { visible && scales.contains(scale) }

    /// Whether any rule labels features.
    public var hasLabels: Bool { rules.contains { $0.label != nil } }

    /// Whether it draws to a group (an opacity below 1 or another compositing).
    public var drawsToGroup: Bool { opacity < 1 || compositing != .normal }

    /// The attribute names its filter and rules read.
    public var attributeNames: [String] { (filter?.attributeNames ?? []) + rules.flatMap(\.attributeNames) }
}
