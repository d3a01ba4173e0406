import Foundation

/// GeographicLib's GeoConvert (Debian's geographiclib-tools), the independent reference for
/// coordinates: lines in, lines out.
public enum GeoConvert {
    /// Converts `input`, one position a line, with GeoConvert's `arguments`; returns one line
    /// per input line. GeoConvert failing, or printing fewer lines, throws.
    public static func run(_ arguments: [String], _ input: [String]) throws -> [String] {
        let run = try Tool.run("GeoConvert", arguments, input: input.map { $0 + "\n" }.joined()).succeeded()
        let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.count >= input.count else {
            throw ToolFailure(run, unusable: "wrote \(lines.count) lines for \(input.count)")
        }
        return Array(lines.prefix(input.count))
    }

    /// `LAT LON` with enough digits to name the double exactly enough (1e-12° ≈ 0.1 µm).
    public static func text(latitude: Double, longitude: Double) -> String {
        String(format: "%.13f %.13f", latitude, longitude)
    }

    /// GeoConvert's UTM easting and northing of a position in a forced zone (`"18n"`).
    public static func utm(latitude: Double, longitude: Double, zone: String) throws -> (
        easting: Double, northing: Double
    ) {
        let line = try run(["-u", "-z", zone, "-p", "3"], ["\(latitude) \(longitude)"])[0]
        let parts = line.split(separator: " ")
        guard parts.count == 3, let easting = Double(parts[1]), let northing = Double(parts[2]) else {
            throw ToolFailure(
                ToolRun(command: ["GeoConvert", "-u", "-z", zone], status: 0, output: Array(line.utf8), errors: []),
                unusable: "printed no UTM position")
        }
        return (easting, northing)
    }

    /// GeoConvert's DMS field (`-d`: `40d45'45"N`) as a map annotation writes it padded, with
    /// the hemisphere as a suffix: `40°45′45″` and `N`.
    public static func annotation(fromDMS field: Substring) -> (text: String, letter: String) {
        let letter = String(field.last!)
        var body = String(field.dropLast())
            .replacingOccurrences(of: "d", with: "°")
            .replacingOccurrences(of: "'", with: "′")
            .replacingOccurrences(of: "\"", with: "″")
        if !body.contains("°") { body += "°" }
        return (body, letter)
    }
}
