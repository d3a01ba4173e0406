import Foundation
import Geodesy

/// Scales and ground distances as the sheet prints them; the one place they are formatted.
public enum ScaleText {
    /// `1:50,000` (whole denominators; others keep up to three decimals).
    public static func ratio(_ scale: Double) -> String {
        "1:" + grouped(scale)
    }

    /// A number with thousands separated by commas: `250,000`, `12,500.5`.
    public static func grouped(_ value: Double) -> String {
        let rounded = (value * 1000).rounded() / 1000
        let whole = Int(rounded.rounded(.towardZero))
        var digits = String(abs(whole))
        var groups: [String] = []
        while digits.count > 3 {
            groups.insert(String(digits.suffix(3)), at: 0)
            digits.removeLast(3)
        }
        groups.insert(digits, at: 0)
        var text = (rounded < 0 ? "-" : "") + groups.joined(separator: ",")
        let fraction = abs(rounded - Double(whole))
        if fraction > 0 {
            let f = String(format: "%.3f", fraction).dropFirst()  // ".500"
            text += f.replacingOccurrences(of: "0+$", with: "", options: .regularExpression)
        }
        return text
    }

    /// A ground distance in metres as `500 m`, `2 km`, `2.5 km`.
    public static func distance(_ metres: Double) -> String {
        metres >= 1000 ? "\(number(metres / 1000)) km" : "\(number(metres)) m"
    }

    /// A whole or decimal number without trailing zeros: `2`, `2.5`, `0.25`.
    public static func number(_ value: Double) -> String {
        DecimalFormat.trimmed(value, decimals: 6)
    }
}

/// Millimetres of paper as users read them: at most one decimal, no trailing zero.
enum Millimetres {
    static func text(_ value: Double) -> String { DecimalFormat.trimmed(value, decimals: 1) }
}
