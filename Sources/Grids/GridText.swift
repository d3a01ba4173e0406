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
    /// `decimals`: decimal degrees written to exactly that many places (`45.0°N` beside
    /// `45.5°N`); nil trims trailing zeros.
    public static func latLong(
        _ degrees: Double, axis: GridAxis, format: LatLongLabelFormat, decimals: Int? = nil
    ) -> String {
        let kind: AngleKind = axis == .latitude ? .latitude : .longitude
        switch format {
        case .decimalDegrees:
            guard let decimals else {
                return AngleFormat.decimalDegrees(degrees, kind: kind, decimals: 4, style: .compact)
            }
            let bare = AngleFormat.decimalDegrees(degrees, kind: .plain, decimals: decimals, style: .fixed)
            let magnitude = bare.hasPrefix("-") ? String(bare.dropFirst()) : bare
            let value = Swift.abs(Double(magnitude) ?? 0)
            let letter =
                value == 0 || (kind == .longitude && value == 180)
                ? "" : (degrees < 0 ? (kind == .latitude ? "S" : "W") : (kind == .latitude ? "N" : "E"))
            return magnitude + "°" + letter
        case .degreesMinutesSeconds:
            return AngleFormat.dms(degrees, kind: kind, trailing: .second, decimals: 0, style: .compact)
        }
    }

    /// A latitude or longitude as a map annotation writes it: `40°45.50′ N`, `N 40°45′`,
    /// `−073°58′05″` (`AngleAnnotationStyle`).
    public static func latLong(_ degrees: Double, axis: GridAxis, annotation style: AngleAnnotationStyle) -> String {
        AngleFormat.annotation(degrees, kind: axis == .latitude ? .latitude : .longitude, style: style)
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

    /// The label of a UTM, MGRS or USNG line of lines `step` metres apart: UTM values in
    /// full, MGRS and USNG values within their square; nil for MGRS and USNG lines on the
    /// 100 km squares' edges, which the square letters name.
    static func utmFamilyLine(
        _ metres: Double, axis: GridAxis, type: GridType, step: Double, unit: MGRSLabelUnit
    ) -> String? {
        switch type {
        case .utm: return utm(metres, axis: axis)
        default: return step >= 100_000 ? nil : mgrs(metres, step: step, unit: unit)
        }
    }

    /// The widest values lines of a family can print, for lines `steps` apart (degrees or
    /// metres): sizing labels by the resolution alone, before any view is generated.
    public static func widestValues(
        type: GridType, format: LatLongLabelFormat, unit: MGRSLabelUnit, steps: (x: Double, y: Double)
    ) -> (x: String, y: String) {
        switch type {
        case .latlong:
            return (
                latLong(-(180 - steps.x), axis: .longitude, format: format, decimals: decimals(ofStep: steps.x)),
                latLong(-(90 - steps.y), axis: .latitude, format: format, decimals: decimals(ofStep: steps.y))
            )
        case .utm:
            return (utm(1_000_000 - steps.x, axis: .easting), utm(10_000_000 - steps.y, axis: .northing))
        case .mgrs, .usng:
            return (
                mgrs(100_000 - steps.x, step: steps.x, unit: unit), mgrs(100_000 - steps.y, step: steps.y, unit: unit)
            )
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

    /// The decimal places a step of decimal degrees needs: 0.5° 1, 0.05° 2, 1° 0.
    static func decimals(ofStep degrees: Double) -> Int {
        var places = 0
        while places < 8,
            Swift.abs(degrees * pow(10, Double(places)) - (degrees * pow(10, Double(places))).rounded()) > 1e-9
        {
            places += 1
        }
        return places
    }

    static func pixels(_ value: Double) -> String {
        value >= 10 ? DecimalFormat.trimmed(value, decimals: 0) : DecimalFormat.trimmed(value, decimals: 2)
    }

    static func zeroPadded(_ value: Int64, _ width: Int) -> String {
        let s = String(value)
        return String(repeating: "0", count: Swift.max(0, width - s.count)) + s
    }
}
