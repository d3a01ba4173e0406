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
            if let zone = line.zone { out += ",\"zone\":" + JSONText.quoted(zone) }
            out += ",\"axis\":\"\(line.axis.rawValue)\",\"value\":" + DecimalFormat.shortest(line.value)
            out += "},\"geometry\":{\"type\":\"LineString\",\"coordinates\":["
            out += line.vertices.map { GridGeoJSON.coordinate($0.position) }.joined(separator: ",")
            out += "]}}"
        }
        for label in labels {
            begin()
            out += "{\"type\":\"Feature\",\"properties\":{\"kind\":\"label\",\"level\":\(label.level),\"text\":"
            out += JSONText.quoted(label.text)
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
}
