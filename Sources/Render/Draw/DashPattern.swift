/// Dash patterns in pixels, bounded: every dash and gap drawn is at least `minimumLength`
/// pixels long (zero stays zero: a zero dash with round caps draws dots), so a line holds at
/// most ten dashes a pixel however small the lengths are written or scaled. A pattern of
/// 0.001 pt would otherwise make Cairo lay out millions of dashes.
enum DashPattern {
    static let minimumLength = 0.1

    /// `lengths` converted to pixels by `pixels`, bounded; empty when nothing is above zero
    /// (drawn solid).
    static func pixels(_ lengths: [Double], _ pixels: (Double) -> Double) -> [Double] {
        let pattern = lengths.map { length -> Double in
            let p = pixels(length)
            return p > 0 ? Swift.max(p, minimumLength) : 0
        }
        return pattern.contains { $0 > 0 } ? pattern : []
    }
}
