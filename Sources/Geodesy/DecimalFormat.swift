import Foundation

/// Numbers as users read them: in messages, labels, notes, GeoJSON and metadata. Every
/// module formats its numbers here (Geodesy is the one module they all see), so a value
/// reads the same in every message.
///
/// Fixed-point forms round from the exact binary value (as C's printf and GeographicLib do,
/// so 0.125 → "0.12" and 2.675 → "2.67").
public enum DecimalFormat {
    /// `x` with exactly `decimals` digits after the point (0...17).
    public static func fixed(_ x: Double, decimals: Int) -> String {
        String(format: "%.*f", Swift.max(0, Swift.min(17, decimals)), x)
    }

    /// As `fixed`, then trailing zeros of the fraction (and a bare point) removed; a value
    /// that rounds to zero reads `0`, never `-0`.
    public static func trimmed(_ x: Double, decimals: Int) -> String {
        let text = trimZeros(fixed(x, decimals: decimals))
        return text == "-0" ? "0" : text
    }

    /// Whole numbers without a trailing `.0` (`3`, not `3.0`); others with the fewest digits
    /// that read back as the same double (`0.1`, `2.5e-07`), as the user most likely wrote them.
    public static func shortest(_ x: Double) -> String {
        if x == x.rounded(), Swift.abs(x) < 1e15 { return String(Int64(x)) }
        return String(x)
    }

    /// A number with thousands separated by commas, up to three decimals without trailing
    /// zeros: `250,000`, `12,500.5`, `10,000,000`.
    public static func grouped(_ value: Double) -> String {
        let rounded = (value * 1000).rounded() / 1000
        let whole = rounded.rounded(.towardZero)
        var digits = fixed(Swift.abs(whole), decimals: 0)
        var groups: [String] = []
        while digits.count > 3 {
            groups.insert(String(digits.suffix(3)), at: 0)
            digits.removeLast(3)
        }
        groups.insert(digits, at: 0)
        let text = (rounded < 0 ? "-" : "") + groups.joined(separator: ",")
        let fraction = trimmed(Swift.abs(rounded - whole), decimals: 3)
        return fraction == "0" ? text : text + fraction.dropFirst()
    }

    static func trimZeros(_ s: String) -> String {
        guard s.contains(".") else { return s }
        var t = Substring(s)
        while t.last == "0" { t.removeLast() }
        if t.last == "." { t.removeLast() }
        return String(t)
    }
}
