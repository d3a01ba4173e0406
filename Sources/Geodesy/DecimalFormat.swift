import Foundation

/// Fixed-point formatting of doubles, rounded from the exact binary value (as C's printf
/// and GeographicLib do, so 0.125 → "0.12" and 2.675 → "2.67"). Every number a user
/// reads from this module goes through here.
public enum DecimalFormat {
    /// `x` with exactly `decimals` digits after the point (0...17).
    public static func fixed(_ x: Double, decimals: Int) -> String {
        String(format: "%.*f", Swift.max(0, Swift.min(17, decimals)), x)
    }

    /// As `fixed`, then trailing zeros of the fraction (and a bare point) removed.
    public static func trimmed(_ x: Double, decimals: Int) -> String {
        trimZeros(fixed(x, decimals: decimals))
    }

    static func trimZeros(_ s: String) -> String {
        guard s.contains(".") else { return s }
        var t = Substring(s)
        while t.last == "0" { t.removeLast() }
        if t.last == "." { t.removeLast() }
        return String(t)
    }
}
