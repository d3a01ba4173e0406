import CPango
import Synchronization

/// What the C libraries (GLib, Pango, librsvg) would print on standard error. They log
/// through GLib; its writer is replaced so that nothing reaches the terminal unasked, and the
/// command line turns what was logged into its own warning lines.
public enum LibraryWarnings {
    private static let messages = Mutex<[String]>([])
    /// Past this many kept, further messages are dropped: a broken font can log for every label.
    static let limit = 100

    /// Installs the writer, once per process (GLib allows no more).
    static func install() { _ = installed }

    private static let installed: Bool = {
        g_log_set_writer_func(
            { level, fields, count, _ in
                var domain = ""
                var message = ""
                for i in 0..<Int(count) {
                    let field = fields![i]
                    guard let key = field.key, let value = field.value, field.length < 0 else { continue }
                    let text = String(cString: value.assumingMemoryBound(to: CChar.self))
                    switch String(cString: key) {
                    case "GLIB_DOMAIN": domain = text
                    case "MESSAGE": message = text
                    default: break
                    }
                }
                let serious = G_LOG_LEVEL_ERROR.rawValue | G_LOG_LEVEL_CRITICAL.rawValue | G_LOG_LEVEL_WARNING.rawValue
                if level.rawValue & serious != 0, !message.isEmpty {
                    let line = domain.isEmpty ? message : "\(domain): \(message)"
                    LibraryWarnings.messages.withLock { kept in
                        if kept.count < LibraryWarnings.limit, !kept.contains(line) { kept.append(line) }
                    }
                }
                return G_LOG_WRITER_HANDLED
            }, nil, nil)
        return true
    }()

    /// The distinct messages logged since the last call, oldest first.
    public static func drain() -> [String] {
        messages.withLock { kept in
            defer { kept.removeAll() }
            return kept
        }
    }
}
