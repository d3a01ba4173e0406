import Geodesy

/// What one generation draws, decided before any line is made: the levels, and the values
/// each family of lines takes (`LineSeries`). Latitude/longitude values are in whole units
/// of `GridLevels.units` (arc seconds, or 0.0001°); UTM-family values in metres.
struct GridPlan: Sendable {
    /// Every level a line or label may belong to, coarse to fine.
    let levels: [Int]
    /// Meridians, or the eastings of a zone.
    let x: LineSeries
    /// Parallels, or the northings of a zone.
    let y: LineSeries
    /// Latitude/longitude: levels for parallels alone, finer than `y`'s, each drawn where its
    /// parallels are at least `parallelMinSpacing` pixels apart (see `GridRequest`).
    let parallelLevels: [(level: Int, step: Int64)]
    let parallelMinSpacing: Double?

    static func make(_ request: GridRequest, pixelsPerMetre: Double) throws(GridError) -> GridPlan {
        let all = GridLevels.levels(for: request.type, format: request.labelFormat)
        // Units per degree (latitude/longitude) or per metre, and metres per unit at the equator.
        let units = GridLevels.units(request.type, format: request.labelFormat)
        func step(_ level: Int) -> Int64 { GridLevels.step(level, type: request.type, format: request.labelFormat) }
        func pixels(_ count: Double) -> Double { count * units.metres * pixelsPerMetre }

        // The levels asked for, or those far enough apart.
        var shown: [Int]
        if let asked = request.levels {
            for level in asked {
                guard all.indices.contains(level) else {
                    throw .unknownLevel(type: request.type, level: level, count: all.count)
                }
                let apart = all[level].spacing * pixelsPerMetre
                if level > 0 && apart < 2 {
                    throw .levelTooFine(type: request.type, level: level, name: all[level].name, pixels: apart)
                }
            }
            shown = Array(Set(asked)).sorted()
        } else {
            shown = GridLevels.automatic(
                for: request.type, format: request.labelFormat,
                pixelsPerMetre: pixelsPerMetre, minSpacing: request.minSpacing)
        }
        // Level 0 of the UTM family is the zones, drawn by their own generator.
        let lineLevels = request.type == .latlong ? shown : shown.filter { $0 >= 1 }
        let steps = lineLevels.map { (level: $0, step: step($0)) }

        guard let interval = request.interval else {
            let series = LineSeries(levels: steps)
            var parallels: [(level: Int, step: Int64)] = []
            if request.type == .latlong, let finest = lineLevels.last {
                parallels = request.parallelLevels.filter { $0 > finest && all.indices.contains($0) }.sorted().map {
                    (level: $0, step: step($0))
                }
            }
            return GridPlan(
                levels: Array(Set(shown + parallels.map(\.level))).sorted(), x: series,
                y: LineSeries(levels: steps + parallels), parallelLevels: parallels,
                parallelMinSpacing: parallels.isEmpty ? nil : request.parallelMinSpacing)
        }

        // A user interval: whole units, at least 2 pixels apart (and, when levels are picked
        // by spacing, at least `minSpacing` apart; closer, only the coarser levels are drawn).
        func whole(_ value: Double, _ name: String) throws(GridError) -> Int64 {
            let u = value * units.perUserUnit
            guard value.isFinite, abs(u - u.rounded()) < 1e-6 * max(1, abs(u)), abs(u) < 1e15 else {
                throw .invalidInterval(
                    "the grid's \(name) \(DecimalFormat.shortest(value)) is not a whole number of \(units.name)")
            }
            return Int64(u.rounded())
        }
        let ix = try whole(interval.x, "interval")
        let iy = try whole(interval.y, "interval")
        let ox = try whole(interval.offsetX, "offset")
        let oy = try whole(interval.offsetY, "offset")
        guard ix > 0, iy > 0 else {
            throw .invalidInterval("the grid's interval must be more than 0")
        }
        let closest = pixels(Double(Swift.min(ix, iy)))
        guard closest >= 2 else {
            throw .invalidInterval(
                "the grid's interval would draw lines \(GridText.pixels(closest)) pixels apart; zoom in or widen it")
        }
        if request.levels == nil && closest < request.minSpacing {
            // Too close to draw here: the coarser levels alone, as without an interval.
            let coarser = steps.filter { $0.step > Swift.max(ix, iy) }
            let series = LineSeries(levels: coarser.isEmpty ? Array(steps.prefix(1)) : coarser)
            return GridPlan(
                levels: request.type == .latlong ? series.levels.map(\.level) : [0] + series.levels.map(\.level),
                x: series, y: series, parallelLevels: [], parallelMinSpacing: nil)
        }
        let candidates = GridLevels.lineLevels(request.type).map { (level: $0, step: step($0)) }
        func intervalLevel(_ i: Int64) -> Int {
            candidates.last { $0.step >= i }.map { $0.step == i ? $0.level : Swift.min($0.level + 1, all.count - 1) }
                ?? candidates.first!.level
        }
        let levelX = intervalLevel(ix)
        let levelY = intervalLevel(iy)
        let coarse = candidates.filter { $0.step > Swift.min(ix, iy) && lineLevels.contains($0.level) }
        let x = LineSeries(levels: coarse, interval: ix, offset: ox, intervalLevel: levelX)
        let y = LineSeries(levels: coarse, interval: iy, offset: oy, intervalLevel: levelY)
        let zones = request.type != .latlong && shown.contains(0) ? [0] : []
        return GridPlan(
            levels: Array(Set(zones + x.levels.map(\.level) + [levelX, levelY])).sorted(), x: x, y: y,
            parallelLevels: [], parallelMinSpacing: nil)
    }

    /// About how many vertices generating `area` (plane pixels) makes: for each family, the
    /// lines across the area times the chunks along each (a few vertices a chunk). Lines are
    /// counted at their closest spacing, so this is an upper estimate.
    func estimatedVertices(area: Rect, pixelsPerMetre: Double, type: GridType, format: LatLongLabelFormat) -> Double {
        let metres = GridLevels.units(type, format: format).metres
        let verticesPerChunk = 4.0
        func family(_ series: LineSeries, across: Double, along: Double) -> Double {
            guard !series.isEmpty else { return 0 }
            let spacing = Double(series.step) * metres * pixelsPerMetre
            let lines = across / spacing + 2
            let chunks = along / GridBuilder<WebMercatorGridProjection>.chunkPixels + 2
            return lines * chunks * verticesPerChunk
        }
        let y = parallelLevels.isEmpty ? y : LineSeries(levels: parallelLevels)
        return family(x, across: area.width, along: area.height) + family(y, across: area.height, along: area.width)
    }

    /// The line families' spacing in degrees or metres, for those who thin labels to every
    /// n-th line; nil when only zones are drawn.
    func spacing(type: GridType, format: LatLongLabelFormat) -> (x: GridSpacing, y: GridSpacing)? {
        guard !x.isEmpty, !y.isEmpty else { return nil }
        let per = GridLevels.units(type, format: format).perUserUnit
        func convert(_ series: LineSeries) -> GridSpacing {
            GridSpacing(
                step: Double(series.step) / per, offset: Double(series.offset) / per,
                levelSteps: series.levels.map { Double($0.step) / per })
        }
        return (convert(x), convert(y))
    }
}
