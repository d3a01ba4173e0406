import Geodesy

/// Grid generation: lines and label anchors as geometry, for an area of a plane.
///
///     let projection = WebMercatorGridProjection(resolution: view.resolution)
///     var request = GridRequest(type: .mgrs)
///     request.margin = 4
///     let grid = try Grid.generate(request, projection: projection, area: viewRect)
///
/// Lines are densified so they stay within a quarter pixel of the true curves, and cut at
/// points that do not depend on the area, so tiles of one zoom level draw the same vertices.
public enum Grid {
    /// The most vertices one generation may make (about 160 MB of lines): requests
    /// estimated beyond it are refused before any work is done.
    public static let maxVertices = 10_000_000

    /// `cache` keeps what does not depend on the view (see `GridCache`) for the next call.
    public static func generate<P: GridProjection>(
        _ request: GridRequest, projection: P, area: Rect,
        cache: GridCache? = nil
    ) throws(GridError) -> GridGeometry {
        guard area.minX.isFinite, area.minY.isFinite, area.maxX.isFinite, area.maxY.isFinite, !area.isEmpty else {
            throw .invalidArea("the grid's area is empty or not finite")
        }
        guard projection.pixelsPerMetre.isFinite, projection.pixelsPerMetre > 0 else {
            throw .invalidArea("the projection's scale is not a positive number")
        }
        let plan = try GridPlan.make(request, pixelsPerMetre: projection.pixelsPerMetre)
        let estimate = plan.estimatedVertices(
            area: area.expanded(by: Swift.max(request.margin, request.labelMargin ?? 0)),
            pixelsPerMetre: projection.pixelsPerMetre, type: request.type, format: request.labelFormat)
        guard estimate <= Double(maxVertices) else { throw .tooMuchWork(estimate: estimate, limit: maxVertices) }
        let levels = plan.levels
        var builder = GridBuilder(projection: projection, request: request, plan: plan, area: area, cache: cache)
        switch request.type {
        case .latlong:
            GraticuleGenerator.generate(&builder)
        case .utm, .mgrs, .usng:
            if let crs = request.crs {
                ProjectedLineGenerator.generate(&builder, crs: crs)
                break
            }
            if let zone = request.zone {
                guard (1...60).contains(zone) else {
                    throw .invalidArea("there is no UTM zone \(zone) (zones are 1 to 60)")
                }
                UTMLineGenerator.generate(&builder, type: request.type)
                break
            }
            if levels.contains(0) { ZoneBoundaryGenerator.generate(&builder, type: request.type) }
            UTMLineGenerator.generate(&builder, type: request.type)
            UPSLineGenerator.generate(&builder, type: request.type)
            if request.type != .utm && levels.contains(1) { SquareLabelGenerator.generate(&builder) }
        }
        var labels = builder.labels
        if request.cellAnchor == .visiblePart { labels = mergeCellLabels(labels, type: request.type) }
        return GridGeometry(
            type: request.type, levels: levels, area: area, lines: builder.lines, labels: labels,
            spacing: plan.spacing(type: request.type, format: request.labelFormat))
    }

    /// In a view inside one 100 km square, the grid zone and the square are both labelled at
    /// the middle of the view: one label then names both, `18SUJ` (MGRS) or `18S UJ` (USNG).
    static func mergeCellLabels(_ labels: [GridLabel], type: GridType) -> [GridLabel] {
        var out = labels
        var merged = Set<Int>()
        for (i, square) in labels.enumerated() where square.kind == .cell && square.level == 1 {
            guard
                let j = out.firstIndex(where: { zone in
                    zone.kind == .cell && zone.level == 0 && zone.zone == square.zone
                        && Swift.abs(zone.anchor.x - square.anchor.x) < 1
                        && Swift.abs(zone.anchor.y - square.anchor.y) < 1
                })
            else { continue }
            out[j].text += (type == .usng ? " " : "") + square.text
            merged.insert(i)
        }
        return out.enumerated().filter { !merged.contains($0.offset) }.map(\.element)
    }

    /// The levels a request draws: the ones it names (each checked to exist and, except the
    /// coarsest, always drawable, to be at least 2 pixels apart), or those picked by spacing;
    /// with parallel levels and a user interval, theirs too.
    public static func levels(_ request: GridRequest, pixelsPerMetre: Double) throws(GridError) -> [Int] {
        try GridPlan.make(request, pixelsPerMetre: pixelsPerMetre).levels
    }
}
