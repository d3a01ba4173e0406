/// Errors from rendering, each printed as one line.
public enum RenderError: Error, CustomStringConvertible, Sendable {
    case cairo(String)
    case invalidView(String)
    case output(path: String, message: String)

    public var description: String {
        switch self {
        case .cairo(let message): return "cairo: \(message)"
        case .invalidView(let message): return message
        case .output(let path, let message): return "\(path): \(message)"
        }
    }
}
