import Geodesy

extension GridGeometry {
    /// The grid as a GeoJSON FeatureCollection in EPSG:4326: each line piece a LineString with
    /// `kind: "line"`, `level`, `zone` (when it has one), `axis` and `value`; each label a
    /// Point with `kind: "label"`, `level` and `text`. Coordinates have 9 decimals (0.1 mm).
    public func geoJSON() -> String {
        var out = "{\"type\":\"FeatureCollection\",\"features\":["
        var first = true
        func begin() {
            out += first ? "\n" : ",\n"
            first = false
        }
        for line in lines where line.vertices.count >= 2 {
            begin()
            out += "{\"type\":\"Feature\",\"properties\":{\"kind\":\"line\",\"level\":\(line.level)"
            if let zone = line.zone { out += ",\"zone\":" + GridGeoJSON.quoted(zone) }
            out += ",\"axis\":\"\(line.axis.rawValue)\",\"value\":" + GridGeoJSON.number(line.value)
            out += "},\"geometry\":{\"type\":\"LineString\",\"coordinates\":["
            out += line.vertices.map { GridGeoJSON.coordinate($0.position) }.joined(separator: ",")
            out += "]}}"
        }
        for label in labels {
            begin()
            out += "{\"type\":\"Feature\",\"properties\":{\"kind\":\"label\",\"level\":\(label.level),\"text\":"
            out += GridGeoJSON.quoted(label.text)
            out += "},\"geometry\":{\"type\":\"Point\",\"coordinates\":" + GridGeoJSON.coordinate(label.position) + "}}"
        }
        out += "\n]}\n"
        return out
    }
}

enum GridGeoJSON {
    static func coordinate(_ p: GeoPosition) -> String {
        "[" + DecimalFormat.trimmed(p.longitude, decimals: 9) + "," + DecimalFormat.trimmed(p.latitude, decimals: 9)
            + "]"
    }

    /// Whole numbers without a fraction; others with enough digits to read back the same double.
    static func number(_ v: Double) -> String {
        if v == v.rounded(), Swift.abs(v) < 1e15 { return String(Int64(v)) }
        return "\(v)"
    }

    static func quoted(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
