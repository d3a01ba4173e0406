/// An `annotation` given apart from the document, as `--annotation` on the command line.
extension GridSettings {
    /// These settings with `annotation` read from `node` exactly as the document's
    /// `grid.annotation` is read: text keys without a `format` follow `labelFormat`, and a
    /// `format` puts the graticule's lines on its ladder unless `labelFormatGiven`.
    public func annotated(_ node: JSONNode, labelFormatGiven: Bool) throws -> GridSettings {
        var copy = self
        try copy.annotate(node, labelFormatGiven: labelFormatGiven)
        return copy
    }
}
