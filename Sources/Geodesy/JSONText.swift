import Foundation

/// Strings as JSON text. Here because both writers of JSON need it, the map model's (nested
/// attribute values) and the grids' (GeoJSON), and Geodesy is the module both see.
public enum JSONText {
    /// `s` as a JSON string literal: quotes, backslashes and control characters escaped
    /// (RFC 8259 §7), everything else as it is.
    public static func quoted(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    out += String(format: "\\u%04x", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
