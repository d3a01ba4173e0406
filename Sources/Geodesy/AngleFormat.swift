/// What an angle is, which decides its hemisphere letters and the width of its degrees.
public enum AngleKind: Sendable {
    /// N/S, degrees two digits wide in the fixed layout.
    case latitude
    /// E/W, degrees three digits wide in the fixed layout.
    case longitude
    /// A signed angle with no hemisphere letter.
    case plain
}

/// The last component written in a degrees-minutes-seconds angle.
public enum DMSUnit: Sendable {
    case degree, minute, second
}

/// How DMS and decimal-degree angles are laid out.
public enum AngleStyle: Sendable {
    /// Every component, zero-padded to a fixed width, GeoConvert's layout:
    /// `45°30'00.0"N`, `075°15'30.0"W`; degrees alone carry no degree sign (`045.5E`).
    case fixed
    /// For labels: no padding of degrees, trailing zero components and trailing zeros of
    /// the fraction left out, no hemisphere letter at 0° (nor at 180° of longitude):
    /// `45°30'N`, `75°15'30"W`, `45.5°N`, `0°`.
    case compact
}

/// Degrees, minutes and seconds, and decimal degrees, as text. The angle is rounded once
/// at the last written component and the result then split into components, so a carry
/// always propagates (59.99" at whole seconds is 1' 00", never 59'60").
public enum AngleFormat {
    /// DMS text of `angle` (degrees). `trailing` is the last component written and
    /// `decimals` the digits after its point. `degreeSign` replaces `°` (GeoConvert uses `d`).
    public static func dms(
        _ angle: Double, kind: AngleKind, trailing: DMSUnit = .second,
        decimals: Int = 0, style: AngleStyle = .fixed,
        degreeSign: String = "°"
    ) -> String {
        guard angle.isFinite else { return angle.isNaN ? "nan" : (angle < 0 ? "-inf" : "inf") }
        // Limit the digits to what a double holds for angles up to a few hundred degrees.
        let maxDecimals = 15 - 2 * (trailing == .degree ? 0 : trailing == .minute ? 1 : 2)
        let prec = Swift.max(0, Swift.min(maxDecimals, decimals))
        let negative = angle.sign == .minus
        let (degree, minute, second) = components(Swift.abs(angle), trailing: trailing, decimals: prec)

        let hemisphere = letter(kind, negative: negative)
        switch style {
        case .fixed:
            let width = kind == .latitude ? 2 : kind == .longitude ? 3 : 0
            let fieldExtra = prec > 0 ? prec + 1 : 0
            var out = kind == .plain && negative ? "-" : ""
            switch trailing {
            case .degree:
                out += pad(degree, width + (width > 0 ? fieldExtra : 0))
            case .minute:
                out += pad(degree, width) + degreeSign + pad(minute, 2 + fieldExtra) + "'"
            case .second:
                out += pad(degree, width) + degreeSign + pad(minute, 2) + "'" + pad(second, 2 + fieldExtra) + "\""
            }
            return out + hemisphere
        case .compact:
            let degreeText = trailing == .degree ? DecimalFormat.trimZeros(degree) : degree
            let minuteText = DecimalFormat.trimZeros(minute)
            let secondText = DecimalFormat.trimZeros(second)
            let secondShown = trailing == .second && (Double(secondText) ?? 0) != 0
            let minuteShown = trailing != .degree && (secondShown || (Double(minuteText) ?? 0) != 0)
            var out = degreeText + degreeSign
            if minuteShown { out += padWhole(minuteText) + "'" }
            if secondShown { out += padWhole(secondText) + "\"" }
            let bare = !minuteShown && !secondShown
            let zero = bare && (Double(degreeText) ?? 0) == 0
            let antimeridian = bare && kind == .longitude && Double(degreeText) == 180
            if kind == .plain { return (negative && !zero ? "-" : "") + out }
            return zero || antimeridian ? out : out + hemisphere
        }
    }

    /// The components of a non-negative angle as text, unpadded, rounded once at the last
    /// one (`decimals` digits after its point) and then split, so a carry propagates; the
    /// components after `trailing` are empty.
    static func components(_ a: Double, trailing: DMSUnit, decimals prec: Int) -> (
        degree: String, minute: String, second: String
    ) {
        if trailing == .degree { return (DecimalFormat.fixed(a, decimals: prec), "", "") }
        // Keep the whole degrees apart so the fraction keeps its precision.
        let wholeDegrees = a.rounded(.down)
        let scaled = (a - wholeDegrees) * (trailing == .minute ? 60 : 3600)
        let text = DecimalFormat.fixed(scaled, decimals: prec)
        let point = text.firstIndex(of: ".") ?? text.endIndex
        var whole = Int(text[..<point]) ?? 0
        let fraction = String(text[point...])
        var minute = ""
        var second = ""
        if trailing == .minute {
            minute = String(whole % 60) + fraction
            whole /= 60
        } else {
            second = String(whole % 60) + fraction
            whole /= 60
            minute = String(whole % 60)
            whole /= 60
        }
        return (DecimalFormat.fixed(Double(whole) + wholeDegrees, decimals: 0), minute, second)
    }

    /// Decimal degrees with `decimals` digits: signed numbers as GeoConvert prints them
    /// when `kind` is .plain (`-75.25000`), otherwise unsigned with the degree sign and a
    /// hemisphere letter (`75.25000°W`). The compact style trims zeros (`45.5°N`, `0°`).
    public static func decimalDegrees(
        _ angle: Double, kind: AngleKind, decimals: Int,
        style: AngleStyle = .fixed, degreeSign: String = "°"
    ) -> String {
        guard angle.isFinite else { return angle.isNaN ? "nan" : (angle < 0 ? "-inf" : "inf") }
        let prec = Swift.max(0, Swift.min(17, decimals))
        if kind == .plain {
            let s = DecimalFormat.fixed(angle, decimals: prec)
            return style == .compact ? DecimalFormat.trimZeros(s) : s
        }
        let negative = angle.sign == .minus
        var number = DecimalFormat.fixed(Swift.abs(angle), decimals: prec)
        if style == .compact {
            number = DecimalFormat.trimZeros(number)
            let value = Double(number) ?? 0
            if value == 0 || (kind == .longitude && value == 180) { return number + degreeSign }
        }
        return number + degreeSign + letter(kind, negative: negative)
    }

    static func letter(_ kind: AngleKind, negative: Bool) -> String {
        switch kind {
        case .latitude: return negative ? "S" : "N"
        case .longitude: return negative ? "W" : "E"
        case .plain: return ""
        }
    }

    /// Zero-pads the whole part to `width` digits: "5.5" → "05.5".
    static func padWhole(_ s: String, _ width: Int = 2) -> String {
        let whole = s.firstIndex(of: ".").map { s.distance(from: s.startIndex, to: $0) } ?? s.count
        return whole >= width ? s : String(repeating: "0", count: width - whole) + s
    }

    /// Zero-pads so that the whole text (fraction included) is `width` characters wide.
    private static func pad(_ s: String, _ width: Int) -> String {
        s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }
}
