import Foundation
import Geodesy

/// Meridians and parallels at the plan's steps. Values are whole numbers of arc seconds (or
/// of 0.0001°), so a line's value and label are exact.
///
/// On a Mercator plane parallels spread apart towards the poles (by the secant of the
/// latitude), so besides the meridians' levels the plan may hold finer levels for parallels
/// alone, each drawn only where its parallels are far enough apart: an Arctic view shows
/// parallels as close together as an equatorial one. Whether a parallel is drawn depends on
/// its own latitude, never on the view, so tiles agree.
enum GraticuleGenerator {
    static func generate<P: GridProjection>(_ b: inout GridBuilder<P>) {
        let plan = b.plan
        let format = b.request.labelFormat
        let u = Double(GridLevels.units(for: format))
        let meridians = plan.x
        let parallels = plan.y
        let pixelsPerUnit = b.pixelsPerMetre * GridLevels.metresPerDegree / u
        // Chunks of at least `chunkPixels`; labels every `labelRepeat` pixels or more.
        let chunk =
            GridBuilder<P>.niceMultiple(
                of: Double(meridians.step), atLeast: GridBuilder<P>.chunkPixels / pixelsPerUnit) / u
        let period =
            GridBuilder<P>.niceMultiple(
                of: Double(meridians.step), atLeast: b.request.labelRepeat / pixelsPerUnit) / u
        let range = b.projection.latitudeRange
        let latLo = Swift.max(-90, range.lowerBound)
        let latHi = Swift.min(90, range.upperBound)
        let geo = b.geoQuery
        guard !geo.isEmpty else { return }
        // Decimal degrees are written to the places of the finest step drawn (for parallels,
        // the finest drawn at their latitude), so one edge never mixes `45°N` and `45.5°N`.
        let meridianDecimals = GridText.decimals(ofStep: Double(meridians.step) / u)

        /// The level of a parallel: its level in the plan, when that is a meridian level or
        /// a parallel level whose parallels are far enough apart at this latitude.
        func parallelLevel(_ v: Int64) -> Int? {
            guard let level = parallels.owner(v) else { return nil }
            guard let extra = plan.parallelLevels.first(where: { $0.level == level }) else { return level }
            let spacing = Double(extra.step) * pixelsPerUnit * b.projection.parallelStretch(latitude: Double(v) / u)
            return spacing >= (plan.parallelMinSpacing ?? 0) ? level : nil
        }
        /// The finest step of parallels drawn at a latitude: label stops along meridians fall
        /// in the middle of its cells.
        func finestParallelStep(at latitude: Double) -> Int64 {
            var step = plan.parallelLevels.isEmpty ? parallels.step : meridians.step
            for extra in plan.parallelLevels {
                let spacing = Double(extra.step) * pixelsPerUnit * b.projection.parallelStretch(latitude: latitude)
                if spacing >= (plan.parallelMinSpacing ?? 0) { step = Swift.min(step, extra.step) }
            }
            return step
        }

        let centre = b.centrePosition
        let mercator = b.projection.isMercator
        // Meridians, from the projection's southern limit to its northern one, labelled at
        // stops evenly spaced on the plane: in isometric latitude on a Mercator plane.
        let stopWindow = mercator ? isometric(latLo)...isometric(latHi) : latLo...latHi
        let stopCentre = mercator ? isometric(centre.latitude) : centre.latitude
        let latitudeOffset = b.labelOffset(step: Double(meridians.step) / u, centre: stopCentre)
        let labelWindow =
            mercator
            ? isometric(Swift.max(geo.south, latLo))...isometric(Swift.min(geo.north, latHi)) : geo.south...geo.north
        do {
            for k in meridians.indices(from: geo.west * u, to: geo.east * u) {
                let v = meridians.value(k)
                guard let level = meridians.owner(v) else { continue }
                let lon = Double(v) / u
                let line = GridLine(
                    level: level, axis: .longitude, zone: nil, value: lon,
                    label: GridText.latLong(lon, axis: .longitude, format: format, decimals: meridianDecimals),
                    labelRank: GridLabelRank(
                        level: level, roundness: GridLabelRank.roundness(k), order: 1, key: lon))
                b.addLine([.init(line: line, t0: latLo, t1: latHi)], step: chunk, window: geo.south...geo.north) {
                    GeoPosition(latitude: $0, longitude: lon)
                }
                for t in b.stops(
                    from: stopWindow.lowerBound, to: stopWindow.upperBound, window: labelWindow, period: period,
                    offset: latitudeOffset)
                {
                    var latitude = mercator ? geographic(t) : t
                    if mercator {
                        // In the middle of the finest parallels' cell there, off their lines.
                        let s = Double(finestParallelStep(at: latitude)) / u
                        latitude = ((latitude / s).rounded(.down) + 0.5) * s
                    }
                    b.addLineLabel(line, at: GeoPosition(latitude: latitude, longitude: lon))
                }
            }
        }
        // Parallels, all the way round.
        let longitudeOffset = b.labelOffset(step: Double(meridians.step) / u, centre: centre.longitude)
        let south = Swift.max(geo.south, latLo)
        let north = Swift.min(geo.north, latHi)
        do {
            for k in parallels.indices(from: south * u, to: north * u) {
                let v = parallels.value(k)
                guard let level = parallelLevel(v) else { continue }
                let lat = Double(v) / u
                guard Swift.abs(lat) < 90 else { continue }
                let line = GridLine(
                    level: level, axis: .latitude, zone: nil, value: lat,
                    label: GridText.latLong(
                        lat, axis: .latitude, format: format,
                        decimals: GridText.decimals(ofStep: Double(finestParallelStep(at: lat)) / u)),
                    labelRank: GridLabelRank(
                        level: level, roundness: GridLabelRank.roundness(k), order: 2, key: lat))
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

    /// Isometric latitude in degrees (Mercator's y over the radius): equal steps of it are
    /// equal distances on a Mercator plane.
    static func isometric(_ latitude: Double) -> Double {
        let l = Swift.max(-89.999, Swift.min(89.999, latitude))
        return asinh(tan(l * .pi / 180)) * 180 / .pi
    }

    static func geographic(_ isometric: Double) -> Double {
        atan(sinh(isometric * .pi / 180)) * 180 / .pi
    }
}
