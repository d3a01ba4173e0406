import Geodesy

/// The lines of constant easting and northing of a projected CRS (`GridRequest.crs`) over the
/// area: each a straight line of the CRS, walked in its own coordinates and densified through
/// the view's projection, so it is a curve wherever the view is in another plane. Line values
/// and labels are metres, as for UTM (`1234000mE`); there are no zones, so the whole area is
/// one piece per line.
enum ProjectedLineGenerator {
    static func generate<P: GridProjection>(_ b: inout GridBuilder<P>, crs: any GridCRS) {
        let xs = b.plan.x
        let ys = b.plan.y
        guard !xs.isEmpty || !ys.isEmpty else { return }
        let (finest, chunk, period) = b.metreSteps()
        // The CRS coordinates of the area's edges bound what it shows (a rectangle's
        // coordinates in a conformal or near-conformal CRS are extreme on its edges).
        let reach = Swift.max(b.query.maxX - b.area.maxX, b.labelQuery.maxX - b.area.maxX)
        var range = Rect.empty
        for g in b.area.expanded(by: reach).edgePositions(in: b.projection) {
            let c = crs.coordinates(latitude: g.latitude, longitude: g.longitude)
            if c.x.isFinite, c.y.isFinite { range = range.including(c) }
        }
        guard !range.isEmpty, range.width.isFinite, range.height.isFinite else { return }
        // A margin of one finest step: the edges are sampled, the lines between samples bulge.
        range = range.expanded(by: finest)
        let eWindow = range.minX...range.maxX
        let nWindow = range.minY...range.maxY
        let centre = b.centrePosition
        let c = crs.coordinates(latitude: centre.latitude, longitude: centre.longitude)
        let eOffset = b.labelOffset(step: finest, centre: c.x)
        let nOffset = b.labelOffset(step: finest, centre: c.y)
        let position = { (e: Double, n: Double) in crs.position(easting: e, northing: n) }

        for (series, axis, order, window, along, offset) in [
            (xs, GridAxis.easting, 1, eWindow, nWindow, nOffset), (ys, .northing, 2, nWindow, eWindow, eOffset),
        ] {
            for k in series.indices(from: window.lowerBound, to: window.upperBound) {
                let v = series.value(k)
                guard let level = series.owner(v) else { continue }
                let value = Double(v)
                let line = GridLine(
                    level: level, axis: axis, zone: crs.label, value: value,
                    label: b.lineText(value, axis: axis, level: level, series: series),
                    labelRank: GridLabelRank(
                        level: level, roundness: GridLabelRank.roundness(k), order: order, key: value))
                let piece = GridBuilder<P>.Piece(line: line, t0: along.lowerBound, t1: along.upperBound)
                let at = { (t: Double) in axis == .easting ? position(value, t) : position(t, value) }
                b.addLine([piece], step: chunk, window: along, at)
                for t in b.stops(from: piece.t0, to: piece.t1, window: along, period: period, offset: offset) {
                    b.addLineLabel(line, at: at(t))
                }
            }
        }
    }
}
