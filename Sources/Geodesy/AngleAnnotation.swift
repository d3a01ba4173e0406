/// How a map annotation shows which side of the equator or the prime meridian an angle is on.
public enum HemisphereStyle: String, CaseIterable, Sendable {
    /// `N 40°45′`
    case prefix
    /// `40°45′ N`
    case suffix
    /// `−73°58′` (a minus sign, U+2212, west and south; nothing east and north)
    case sign
    /// `73°58′`: the reader knows the hemisphere from the sheet.
    case none
}

/// How an angle is written on a map's frame, as QGIS and ArcGIS Pro grids let the user
/// choose: the last unit written (D°, D°M′ or D°M′S″), the decimals on it, zero padding and
/// the hemisphere. Every component is written, zeros included (`40°45′00″ N`), so the
/// labels along a side line up; minutes and seconds carry the prime and double prime.
public struct AngleAnnotationStyle: Sendable, Equatable {
    public var unit: DMSUnit
    /// Digits after the point of the last unit (0...8).
    public var decimals: Int
    /// Degrees two digits wide for latitudes and three for longitudes, minutes and seconds
    /// two: `073°58′05″`.
    public var padding: Bool
    public var hemisphere: HemisphereStyle

    public static let maxDecimals = 8

    public init(unit: DMSUnit, decimals: Int, padding: Bool, hemisphere: HemisphereStyle) {
        self.unit = unit
        self.decimals = Swift.max(0, Swift.min(AngleAnnotationStyle.maxDecimals, decimals))
        self.padding = padding
        self.hemisphere = hemisphere
    }

    /// The fewest decimals of `unit` that write every multiple of `step` (degrees) exactly,
    /// at most `limit`: a 30″ step needs one decimal of a minute, 0.05° two of a degree.
    public static func decimals(toWrite step: Double, in unit: DMSUnit, limit: Int) -> Int {
        let perDegree: Double = unit == .degree ? 1 : unit == .minute ? 60 : 3600
        var scaled = step * perDegree
        var places = 0
        while places < limit, Swift.abs(scaled - scaled.rounded()) > 1e-9 * Swift.max(1, scaled) {
            scaled *= 10
            places += 1
        }
        return places
    }
}

extension AngleFormat {
    /// `angle` (degrees) written in `style`: `40°45.50′ N`, `N 40°45′`, `−073°58′05″`.
    /// Zero, and 180° of longitude, carry no hemisphere and no sign.
    public static func annotation(_ angle: Double, kind: AngleKind, style: AngleAnnotationStyle) -> String {
        guard angle.isFinite else { return angle.isNaN ? "nan" : (angle < 0 ? "-inf" : "inf") }
        let parts = components(Swift.abs(angle), trailing: style.unit, decimals: style.decimals)
        let width = style.padding ? (kind == .longitude ? 3 : 2) : 1
        var text = padWhole(parts.degree, width) + "°"
        if style.unit != .degree { text += padWhole(parts.minute, style.padding ? 2 : 1) + "′" }
        if style.unit == .second { text += padWhole(parts.second, style.padding ? 2 : 1) + "″" }
        let degrees = Double(parts.degree) ?? 0
        let zero = degrees == 0 && (Double(parts.minute) ?? 0) == 0 && (Double(parts.second) ?? 0) == 0
        let antimeridian =
            kind == .longitude && degrees == 180 && (Double(parts.minute) ?? 0) == 0
            && (Double(parts.second) ?? 0) == 0
        if zero || antimeridian { return text }
        let negative = angle < 0
        switch style.hemisphere {
        case .none:
            return text
        case .sign:
            return negative ? "−" + text : text
        case .prefix, .suffix:
            let letter = letter(kind, negative: negative)
            guard !letter.isEmpty else { return negative ? "−" + text : text }
            return style.hemisphere == .prefix ? letter + " " + text : text + " " + letter
        }
    }
}
