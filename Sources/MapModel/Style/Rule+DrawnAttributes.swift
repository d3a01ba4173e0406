extension Rule {
    /// The attribute names its feature symbols read (fill, strokes, marker): all that drawing
    /// a feature needs of its attributes once its rules are chosen. A view keeps only these
    /// while it draws a layer (the filter and the label are evaluated elsewhere).
    public var drawnAttributeNames: [String] {
        (fill?.attributeNames ?? []) + lines.flatMap(\.attributeNames) + (marker?.attributeNames ?? [])
    }
}
