import Foundation
import Geodesy

/// Meridians and parallels at the shown levels' steps. Values are whole numbers of arc
/// seconds (or of 0.0001°), so a line's value and label are exact.
enum GraticuleGenerator {
    static func generate<P: GridProjection>(_ b: inout GridBuilder<P>) {
        let format = b.request.labelFormat
        let units = GridLevels.units(for: format)
        let u = Double(units)
        let steps = GridLevels.graticuleSteps(format)
        let shown = b.levels
        guard let finestLevel = shown.last else { return }
        let finest = steps[finestLevel]
        let pixelsPerUnit = b.pixelsPerMetre * GridLevels.metresPerDegree / u
        // Chunks of at least `chunkPixels`; labels every `labelRepeat` pixels or more.
        let chunk =
            GridBuilder<P>.niceMultiple(of: Double(finest), atLeast: GridBuilder<P>.chunkPixels / pixelsPerUnit) / u
        let period = GridBuilder<P>.niceMultiple(of: Double(finest), atLeast: b.request.labelRepeat / pixelsPerUnit) / u
        let centre = b.centrePosition
        let latitudeOffset = b.labelOffset(step: Double(finest) / u, centre: centre.latitude)
        let longitudeOffset = b.labelOffset(step: Double(finest) / u, centre: centre.longitude)
        let range = b.projection.latitudeRange
        let latLo = Swift.max(-90, range.lowerBound)
        let latHi = Swift.min(90, range.upperBound)
        let geo = b.geoQuery
        guard !geo.isEmpty else { return }

        /// The coarsest shown level whose step divides v owns the line.
        func owner(_ v: Int64) -> Int? { shown.first { v % steps[$0] == 0 } }

        for level in shown {
            let d = steps[level]
            // Meridians, from the projection's southern limit to its northern one.
            let iLo = Int64((geo.west * u / Double(d)).rounded(.up))
            let iHi = Int64((geo.east * u / Double(d)).rounded(.down))
            if iLo <= iHi {
                for i in iLo...iHi {
                    let v = i * d
                    guard owner(v) == level else { continue }
                    let lon = Double(v) / u
                    let line = GridLine(
                        level: level, axis: .longitude, zone: nil, value: lon,
                        label: GridText.latLong(lon, axis: .longitude, format: format),
                        labelRank: GridLabelRank(
                            level: level, roundness: GridLabelRank.roundness(i), order: 1, key: lon))
                    let window = geo.south...geo.north
                    b.addLine([.init(line: line, t0: latLo, t1: latHi)], step: chunk, window: window) {
                        GeoPosition(latitude: $0, longitude: lon)
                    }
                    for t in b.stops(from: latLo, to: latHi, window: window, period: period, offset: latitudeOffset) {
                        b.addLineLabel(line, at: GeoPosition(latitude: t, longitude: lon))
                    }
                }
            }
            // Parallels, all the way round.
            let south = Swift.max(geo.south, latLo)
            let north = Swift.min(geo.north, latHi)
            let jLo = Int64((south * u / Double(d)).rounded(.up))
            let jHi = Int64((north * u / Double(d)).rounded(.down))
            if jLo <= jHi {
                for j in jLo...jHi {
                    let v = j * d
                    guard owner(v) == level else { continue }
                    let lat = Double(v) / u
                    guard Swift.abs(lat) < 90 else { continue }
                    let line = GridLine(
                        level: level, axis: .latitude, zone: nil, value: lat,
                        label: GridText.latLong(lat, axis: .latitude, format: format),
                        labelRank: GridLabelRank(
                            level: level, roundness: GridLabelRank.roundness(j), order: 2, key: lat))
                    let window = geo.west...geo.east
                    b.addLine([.init(line: line, t0: -180, t1: 180)], step: chunk, window: window) {
                        GeoPosition(latitude: lat, longitude: $0)
                    }
                    for t in b.stops(from: -180, to: 180, window: window, period: period, offset: longitudeOffset) {
                        b.addLineLabel(line, at: GeoPosition(latitude: lat, longitude: t))
                    }
                }
            }
        }
    }
}
