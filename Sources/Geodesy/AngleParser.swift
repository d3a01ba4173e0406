/// Reads latitudes and longitudes written as decimal degrees or degrees, minutes and seconds.
///
/// Accepted: an optional sign; an optional hemisphere letter N, S, E or W before or after
/// (either case; S and W negate); up to three components separated by `°`, `d`, `'`, `′`,
/// `"`, `″`, `''`, `:` or spaces, with a decimal point in the last component only;
/// minutes and seconds below 60. Examples: `45°30'15.5"N`, `45.504306`, `-75 30 15`,
/// `75d30'15"W`, `N45:30`, `-0.5`.
public enum AngleParser {
    /// The angle in degrees, and which axis its hemisphere letter names (nil without one).
    public static func parse(_ text: String) throws(GeodesyError) -> (degrees: Double, kind: AngleKind?) {
        func fail(_ reason: String) -> GeodesyError { .invalidAngle(text, reason: reason) }
        var scalars = Array(text.unicodeScalars)
        while let f = scalars.first, f == " " || f == "\t" { scalars.removeFirst() }
        while let l = scalars.last, l == " " || l == "\t" { scalars.removeLast() }
        guard !scalars.isEmpty else { throw fail("empty") }

        var kind: AngleKind?
        var sign = 1.0
        func hemisphere(_ c: Unicode.Scalar) -> (AngleKind, Double)? {
            switch c {
            case "N", "n": return (.latitude, 1)
            case "S", "s": return (.latitude, -1)
            case "E", "e": return (.longitude, 1)
            case "W", "w": return (.longitude, -1)
            default: return nil
            }
        }
        if let (k, s) = hemisphere(scalars.first!) {
            kind = k
            sign = s
            scalars.removeFirst()
        } else if let (k, s) = hemisphere(scalars.last!) {
            kind = k
            sign = s
            scalars.removeLast()
        }
        while let f = scalars.first, f == " " { scalars.removeFirst() }
        if let f = scalars.first, f == "-" || f == "+" {
            if f == "-" { sign = -sign }
            scalars.removeFirst()
        }
        guard !scalars.isEmpty else { throw fail("no number") }

        // Split into numbers, each followed by an optional unit marker (0 degree, 1 minute, 2 second).
        var numbers: [(text: String, unit: Int?)] = []
        var current = ""
        var i = 0
        func close(_ unit: Int?) throws(GeodesyError) {
            if current.isEmpty {
                if unit != nil { throw fail("a unit sign without a number") }
                return
            }
            numbers.append((current, unit))
            current = ""
        }
        while i < scalars.count {
            let c = scalars[i]
            switch c {
            case "0"..."9", ".":
                current.unicodeScalars.append(c)
            case "°", "d", "D", "º":
                try close(0)
            case "'" where i + 1 < scalars.count && scalars[i + 1] == "'":
                try close(2)
                i += 1
            case "'", "′", "’":
                try close(1)
            case "\"", "″", "”":
                try close(2)
            case ":", " ", "\t":
                try close(nil)
            default:
                throw fail("unexpected '\(c)'")
            }
            i += 1
        }
        try close(nil)
        guard (1...3).contains(numbers.count) else { throw fail("expected 1 to 3 numbers") }

        var values: [Double] = [0, 0, 0]
        var nextUnit = 0
        for (index, number) in numbers.enumerated() {
            let unit = number.unit ?? nextUnit
            guard unit >= nextUnit, unit <= 2 else { throw fail("components out of order") }
            if number.text.contains("."), index != numbers.count - 1 {
                throw fail("only the last component may have a decimal point")
            }
            guard let v = Double(number.text), number.text.first != "." || number.text.count > 1 else {
                throw fail("'\(number.text)' is not a number")
            }
            if unit > 0 && v >= 60 { throw fail("\(unit == 1 ? "minutes" : "seconds") must be below 60") }
            values[unit] = v
            nextUnit = unit + 1
        }
        let degrees = sign * (values[0] + (values[1] + values[2] / 60) / 60)
        return (degrees, kind)
    }

    /// Reads a latitude and a longitude, in either order when hemisphere letters say which
    /// is which (`33.3 44.4`, `E44.4 N33.3`). Latitude must be in [-90, 90]; any finite
    /// longitude is accepted and kept as written (GeoConvert does the same; projections
    /// reduce it to [-180, 180]).
    public static func parse(latitude first: String, longitude second: String) throws(GeodesyError) -> GeoPosition {
        let a = try parse(first)
        let b = try parse(second)
        var lat = a.degrees
        var lon = b.degrees
        switch (a.kind, b.kind) {
        case (.longitude?, .latitude?), (.longitude?, nil), (nil, .latitude?):
            lat = b.degrees
            lon = a.degrees
        case (.latitude?, .latitude?), (.longitude?, .longitude?):
            throw .invalidAngle(
                first + " " + second, reason: "both are \(a.kind == .latitude ? "latitudes" : "longitudes")")
        default:
            break
        }
        guard Swift.abs(lat) <= 90 else { throw .latitudeOutOfRange(lat) }
        guard lon.isFinite else { throw .longitudeOutOfRange(lon) }
        return GeoPosition(latitude: lat, longitude: lon)
    }
}
