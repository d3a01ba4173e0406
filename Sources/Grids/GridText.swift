import Foundation
import Geodesy

/// Every label a grid writes, formatted in one place (the renderer, the sheets' frame labels
/// and `meridian grid` all read them from here).
///
/// - latitude/longitude: `45.5°N`, `75°W` (decimal degrees) or `45°30'N`, `75°15'30"W`
///   (degrees, minutes and seconds; zero parts left out); 0° and 180° have no letter.
/// - UTM: the whole value in metres, `323000mE`, `4306000mN` (UPS alike).
/// - MGRS and USNG: the value within the 100 km square: `23km` for lines 1 km apart or more
///   with `kilometersMeters`, else `23400m`; always metres with `meters` (`23000m`).
/// - Zones: `18S` (MGRS/USNG grid zone designator), `18N` (UTM zone and hemisphere), `Z`,
///   `UPS N`; squares: `UJ`.
public enum GridText {
    public static func latLong(_ degrees: Double, axis: GridAxis, format: LatLongLabelFormat) -> String {
        let kind: AngleKind = axis == .latitude ? .latitude : .longitude
        switch format {
        case .decimalDegrees:
            return AngleFormat.decimalDegrees(degrees, kind: kind, decimals: 4, style: .compact)
        case .degreesMinutesSeconds:
            return AngleFormat.dms(degrees, kind: kind, trailing: .second, decimals: 0, style: .compact)
        }
    }

    /// A UTM or UPS easting or northing in whole metres: `323000mE`, `4306000mN`.
    public static func utm(_ metres: Double, axis: GridAxis) -> String {
        String(Int64(metres.rounded())) + (axis == .northing ? "mN" : "mE")
    }

    /// An MGRS/USNG line value: the easting or northing within its 100 km square.
    public static func mgrs(_ metres: Double, step: Double, unit: MGRSLabelUnit) -> String {
        var within = Int64(metres.rounded()) % 100_000
        if within < 0 { within += 100_000 }
        if unit == .kilometersMeters && step >= 1_000 {
            return zeroPadded(within / 1_000, 2) + "km"
        }
        return zeroPadded(within, 5) + "m"
    }

    /// The label of a UTM, MGRS or USNG line of `level`: UTM values in full, MGRS and USNG
    /// values within their square; nil for MGRS and USNG 100 km lines, which the square
    /// letters name.
    static func utmFamilyLine(
        _ metres: Double, axis: GridAxis, type: GridType, level: Int, unit: MGRSLabelUnit
    ) -> String? {
        switch type {
        case .utm: return utm(metres, axis: axis)
        default: return level == 1 ? nil : mgrs(metres, step: GridLevels.utmStep(level), unit: unit)
        }
    }

    /// A UTM zone with its hemisphere: `18N`, `18S`.
    public static func utmZone(_ zone: Int, north: Bool) -> String {
        String(zone) + (north ? "N" : "S")
    }

    /// A graticule step for people: `30°`, `0.5°`, `10'`, `5"`.
    public static func interval(_ degrees: Double, format: LatLongLabelFormat) -> String {
        if format == .decimalDegrees || degrees >= 1 { return DecimalFormat.trimmed(degrees, decimals: 4) + "°" }
        let seconds = (degrees * 3600).rounded()
        if seconds >= 60 { return DecimalFormat.trimmed(seconds / 60, decimals: 0) + "'" }
        return DecimalFormat.trimmed(seconds, decimals: 0) + "\""
    }

    static func pixels(_ value: Double) -> String {
        value >= 10 ? DecimalFormat.trimmed(value, decimals: 0) : DecimalFormat.trimmed(value, decimals: 2)
    }

    static func zeroPadded(_ value: Int64, _ width: Int) -> String {
        let s = String(value)
        return String(repeating: "0", count: Swift.max(0, width - s.count)) + s
    }
}
