import Foundation

/// The GeoConvert vectors in Fixtures/geodesy (made by scripts/make-geodesy-vectors.py):
/// positions and GeoConvert's answers, committed so the tests need no GeoConvert run for them.
public enum GeoConvertVectors {
    public static let directory = Repository.fixture("geodesy")

    /// The rows of a tab-separated file, each split into its cells.
    public static func rows(_ name: String) throws -> [[String]] {
        let text = try String(contentsOfFile: directory + "/" + name, encoding: .utf8)
        return text.split(separator: "\n", omittingEmptySubsequences: true)
            .map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
    }

    /// `LAT LON` as the doubles GeoConvert read (both parse decimal text correctly rounded).
    public static func position(_ text: String) -> (lat: Double, lon: Double) {
        let parts = text.split(separator: " ")
        return (Double(parts[0])!, Double(parts[1])!)
    }

    /// GeoConvert's `-u` text: zone (0 for UPS), hemisphere, easting, northing.
    public static func utm(_ text: String) -> (zone: Int, north: Bool, easting: Double, northing: Double) {
        let parts = text.split(separator: " ")
        let zone = parts[0].dropLast()
        return (Int(zone) ?? 0, parts[0].last == "n", Double(parts[1])!, Double(parts[2])!)
    }
}
