/// An image file a style draws (a marker icon, a fill pattern): PNG or SVG, by path. The
/// renderer reads it when the map is opened; `place` names the key that gave it, for errors.
public struct ImageReference: Sendable, Equatable, Hashable {
    public enum Format: String, Sendable { case png, svg }

    /// Absolute path (resolved against the document's folder).
    public let path: String
    public let format: Format
    /// The JSON path of the key, e.g. `layers[3].marker.icon`.
    public let place: String

    public init(path: String, format: Format, place: String) {
        self.path = path
        self.format = format
        self.place = place
    }
}
