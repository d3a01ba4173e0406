import Foundation

/// The round scale denominators map series use: 1, 2, 2.5 and 5 times a power of ten
/// (1:10,000, 1:20,000, 1:25,000, 1:50,000, 1:100,000, 1:250,000...).
public enum RoundScale {
    static let mantissas: [Double] = [1, 2, 2.5, 5]

    /// The smallest round denominator at or above `denominator`: the largest round scale at
    /// which something needing `denominator` still fits.
    public static func atLeast(_ denominator: Double) -> Double {
        precondition(denominator.isFinite && denominator > 0)
        // A hair of slack so an exact fit (computed in floating point) keeps its own scale.
        let target = denominator * (1 - 1e-9)
        var power = pow(10, floor(log10(target)))
        while true {
            for m in mantissas where m * power >= target { return m * power }
            power *= 10
        }
    }
}
