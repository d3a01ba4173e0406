/// What SQLite said went wrong, and with which database file.
public struct SQLiteError: Error, CustomStringConvertible, Sendable {
    public let path: String
    public let message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): sqlite: \(message)" }
}
