import Foundation
import Geodesy

/// One level of a grid: a family of lines drawn together with one style. Levels go from
/// coarse (0) to fine.
public struct GridLevel: Hashable, Sendable {
    public let index: Int
    /// What the level draws, for people: `grid zones`, `100 km`, `30'`.
    public let name: String
    /// How far apart its lines are, in metres on the ground: the step for UTM levels; for
    /// angles, the step's length along the equator (1° = 111,319.49 m on the Web Mercator
    /// sphere); for zones, their 6° width at the equator.
    public let spacing: Double
}

/// The levels of each grid type and the rule that picks which are drawn.
///
/// The rule: a level is drawn when its lines are at least `minSpacing` pixels apart on the
/// screen, measured where the projection is true to scale (the equator for Web Mercator,
/// where its lines are closest together), and the coarsest level is always drawn. The choice
/// depends on the resolution alone, never on where the view is, so every tile of a zoom
/// level draws the same levels.
public enum GridLevels {
    /// One degree along the equator of the Web Mercator sphere, in metres.
    public static let metresPerDegree = 2 * Double.pi * 6_378_137 / 360

    /// The steps of the latitude/longitude levels, in units of `units(for:)` per degree.
    static func graticuleSteps(_ format: LatLongLabelFormat) -> [Int64] {
        switch format {
        case .degreesMinutesSeconds:
            // 30°, 10°, 5°, 1°, 30', 10', 5', 1', 30", 10", 5", 1" in arc seconds.
            return [108_000, 36_000, 18_000, 3_600, 1_800, 600, 300, 60, 30, 10, 5, 1]
        case .decimalDegrees:
            // 30°, 10°, 5°, 1°, 0.5°, 0.1°, 0.05°, 0.01°, 0.005°, 0.001°, 0.0005°, 0.0001° in 1e-4°.
            return [300_000, 100_000, 50_000, 10_000, 5_000, 1_000, 500, 100, 50, 10, 5, 1]
        }
    }

    /// Graticule values are whole numbers of these units per degree, so lines fall exactly
    /// on round values and labels never print as `3'01"`.
    static func units(for format: LatLongLabelFormat) -> Int64 {
        format == .degreesMinutesSeconds ? 3_600 : 10_000
    }

    /// How a type's line values are counted: whole units of `perUserUnit` per degree
    /// (latitude/longitude) or per metre, each `metres` long on the ground at the equator;
    /// `name` for messages.
    static func units(_ type: GridType, format: LatLongLabelFormat) -> (
        perUserUnit: Double, metres: Double, name: String
    ) {
        guard type == .latlong else { return (1, 1, "metres") }
        let perDegree = Double(units(for: format))
        return (
            perDegree, metresPerDegree / perDegree,
            format == .degreesMinutesSeconds ? "seconds of arc" : "0.0001°"
        )
    }

    /// The step of a level in the units of `units(_:format:)`.
    static func step(_ level: Int, type: GridType, format: LatLongLabelFormat) -> Int64 {
        type == .latlong ? graticuleSteps(format)[level] : Int64(utmStep(level))
    }

    /// The levels that draw lines at a step: every latitude/longitude level, UTM-family
    /// levels from 1 (level 0 is the zones).
    static func lineLevels(_ type: GridType) -> [Int] {
        type == .latlong ? Array(0..<12) : Array(1..<(type == .utm ? 5 : 6))
    }

    /// The step of UTM-family line level `index` (1 ... 5) in metres: 100 km down to 10 m.
    static func utmStep(_ index: Int) -> Double {
        [0, 100_000, 10_000, 1_000, 100, 10][index]
    }

    /// All levels of a grid type, coarse to fine.
    public static func levels(for type: GridType, format: LatLongLabelFormat = .degreesMinutesSeconds) -> [GridLevel] {
        switch type {
        case .latlong:
            let units = Double(GridLevels.units(for: format))
            return graticuleSteps(format).enumerated().map { index, step in
                GridLevel(
                    index: index, name: GridText.interval(Double(step) / units, format: format),
                    spacing: Double(step) / units * metresPerDegree)
            }
        case .utm, .mgrs, .usng:
            let names = ["grid zones", "100 km", "10 km", "1 km", "100 m", "10 m"]
            let count = type == .utm ? 5 : 6
            return (0..<count).map { index in
                GridLevel(
                    index: index, name: index == 0 && type == .utm ? "zones" : names[index],
                    spacing: index == 0 ? 6 * metresPerDegree : utmStep(index))
            }
        }
    }

    /// The latitude/longitude levels finer than the automatic ones whose parallels are at
    /// least `minSpacing` pixels apart somewhere on a Web Mercator map (it stops at 85.0511°,
    /// where parallels are 11.6 times as far apart as at the equator).
    public static func parallelLevels(format: LatLongLabelFormat, pixelsPerMetre: Double, minSpacing: Double) -> [Int] {
        let shown = automatic(for: .latlong, format: format, pixelsPerMetre: pixelsPerMetre, minSpacing: minSpacing)
        let stretch = 1 / cos(WebMercator.maxLatitude * .pi / 180)
        return levels(for: .latlong, format: format).filter {
            $0.index > (shown.last ?? 0) && $0.spacing * pixelsPerMetre * stretch >= minSpacing
        }.map(\.index)
    }

    /// The levels drawn at a resolution: those whose lines are at least `minSpacing` pixels
    /// apart at `pixelsPerMetre`, and always the coarsest.
    public static func automatic(
        for type: GridType, format: LatLongLabelFormat = .degreesMinutesSeconds,
        pixelsPerMetre: Double, minSpacing: Double
    ) -> [Int] {
        levels(for: type, format: format).filter { $0.index == 0 || $0.spacing * pixelsPerMetre >= minSpacing }.map(
            \.index)
    }
}
