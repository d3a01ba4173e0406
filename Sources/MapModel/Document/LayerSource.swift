/// Where a layer's features come from: a file or a connection string, and which part of it.
/// Layers with equal sources share one loaded source.
public struct LayerSource: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// An absolute file path (resolved against the document's folder) or a connection string
    /// such as `PG:dbname=gis`, passed to GDAL as it is.
    public var dataset: String
    /// True when `dataset` is a connection string rather than a file.
    public var isConnection: Bool
    /// The layer of a multi-layer dataset, or a database table (`layer`, `source.table`).
    public var layer: String?
    /// An SQL statement whose result is the layer (`sql`, `source.sql`).
    public var sql: String?
    /// An attribute filter in OGR's SQL WHERE syntax (`where`).
    public var attributeFilter: String?
    /// The coordinate reference system of the data, overriding or supplying the data's own (`srs`).
    public var srs: String?

    public init(
        dataset: String, isConnection: Bool = false, layer: String? = nil, sql: String? = nil,
        attributeFilter: String? = nil, srs: String? = nil
    ) {
        self.dataset = dataset
        self.isConnection = isConnection
        self.layer = layer
        self.sql = sql
        self.attributeFilter = attributeFilter
        self.srs = srs
    }

    /// A file path.
    public init(stringLiteral path: String) {
        self.init(dataset: path)
    }

    /// The file's extension in lower case ("" for connection strings).
    public var fileExtension: String {
        guard !isConnection, let dot = dataset.lastIndex(of: "."),
            !dataset[dot...].contains("/")
        else { return "" }
        return dataset[dataset.index(after: dot)...].lowercased()
    }

    public var description: String { dataset }
}
