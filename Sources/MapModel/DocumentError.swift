/// An error in a map document or a data file, naming the file, the place in it (a JSON path
/// such as `layers[2].marker.size`, a feature index, or a line and column) and the problem.
public struct DocumentError: Error, CustomStringConvertible, Sendable, Equatable {
    public let file: String
    public let place: String
    public let message: String

    public init(file: String, place: String, message: String) {
        self.file = file
        self.place = place
        self.message = message
    }

    public var description: String {
        place.isEmpty ? "\(file): \(message)" : "\(file): \(place): \(message)"
    }
}
