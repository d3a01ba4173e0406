import Foundation
import Geodesy

/// Scales and ground distances as the sheet prints them; the one place they are formatted.
public enum ScaleText {
    /// `1:50,000` (whole denominators; others keep up to three decimals).
    public static func ratio(_ scale: Double) -> String {
        "1:" + grouped(scale)
    }

    /// A number with thousands separated by commas: `250,000`, `12,500.5`.
    public static func grouped(_ value: Double) -> String { DecimalFormat.grouped(value) }

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
