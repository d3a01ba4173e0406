import Geodesy

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

extension DocumentError {
    /// The longest piece of the input that a message quotes.
    public static let maxQuotedCharacters = 80

    /// Text from the input as a message shows it: in double quotes with control characters
    /// escaped as JSON writes them, so that the message stays one line, and cut after 80
    /// characters, so that a 10 MB value does not fill the terminal.
    public static func quote(_ text: String) -> String {
        guard text.count > maxQuotedCharacters else { return JSONText.quoted(text) }
        return JSONText.quoted(String(text.prefix(maxQuotedCharacters))) + "... (\(text.count) characters)"
    }
}
