import Geodesy

/// Level 0 of UTM, MGRS and USNG: zone boundaries as meridian and parallel segments, with the
/// Norway (32V) and Svalbard (31X–37X) exceptions and the polar caps, and the zones' labels.
///
/// MGRS and USNG draw every grid zone's edges: the zone meridians in each band, every band's
/// parallels, and the 0°/180° meridian that parts the UPS zones (A|B, Y|Z). UTM draws the
/// zone meridians, the equator and the limits of UTM at 80°S and 84°N.
enum ZoneBoundaryGenerator {
    static func generate<P: GridProjection>(_ b: inout GridBuilder<P>, type: GridType) {
        let geo = b.geoQuery
        guard !geo.isEmpty else { return }
        let range = b.projection.latitudeRange
        let domain = (Swift.max(-90, range.lowerBound), Swift.min(90, range.upperBound))
        // Chunks: the largest of 8°, 4°, 2°... that spans at most 1024 pixels.
        var step = 8.0
        while step * GridLevels.metresPerDegree * b.pixelsPerMetre > 1024, step > 1e-7 { step /= 2 }
        let mgrs = type != .utm
        let rank = GridLabelRank(level: 0, roundness: 0, order: 9, key: 0)

        // Zone meridians: one line per longitude, a piece per band (and the caps' meridians).
        var meridians: [Double: [GridBuilder<P>.Piece]] = [:]
        for band in LatitudeBand.all {
            let lat0 = Swift.max(band.south, domain.0)
            let lat1 = Swift.min(band.north, domain.1)
            guard lat0 < lat1, lat1 >= geo.south, lat0 <= geo.north else { continue }
            for lon in UTMCell.zoneEdges(band: band) + [180] where lon >= geo.west && lon <= geo.east {
                let east = UTMCell.cell(band: band, longitude: lon)
                let line = GridLine(
                    level: 0, axis: .boundary, zone: east?.designator, value: lon, label: nil, labelRank: rank)
                meridians[lon, default: []].append(.init(line: line, t0: lat0, t1: lat1))
            }
        }
        if mgrs {
            // The meridian that parts the UPS zones continues the zone meridians at 0° and 180°.
            for north in [true, false] {
                let frame = UPSFrame(north: north)
                let lat0 = north ? 84 : domain.0
                let lat1 = north ? domain.1 : -80
                guard lat0 < lat1, lat1 >= geo.south, lat0 <= geo.north else { continue }
                for lon in [-180.0, 0, 180] where lon >= geo.west && lon <= geo.east {
                    let line = GridLine(
                        level: 0, axis: .boundary, zone: frame.designator(east: lon == 0), value: lon,
                        label: nil, labelRank: rank)
                    meridians[lon, default: []].append(.init(line: line, t0: lat0, t1: lat1))
                }
            }
        }
        for (lon, pieces) in meridians.sorted(by: { $0.key < $1.key }) {
            b.addLine(pieces.sorted { $0.t0 < $1.t0 }, step: step, window: geo.south...geo.north) {
                GeoPosition(latitude: $0, longitude: lon)
            }
        }

        // Parallels: band edges (MGRS, USNG), one line each with a piece per zone. UTM draws
        // the equator and the UTM limits whole, and of the other band edges the stretches
        // where the zone changes across them (56°N and 64°N either side of 32V, 72°N below
        // the Svalbard zones), so that every zone is a closed outline.
        let whole: Set<Double> = mgrs ? Set(LatitudeBand.all.map(\.south) + [84]) : [-80, 0, 84]
        let parallels = LatitudeBand.all.map(\.south) + [84]
        for lat in parallels where lat >= geo.south && lat <= geo.north && lat >= domain.0 && lat <= domain.1 {
            let below = LatitudeBand.all.first { $0.north == lat }
            let above = LatitudeBand.all.first { $0.south == lat }
            var cuts = Set([-180.0, 180.0])
            if let below { cuts.formUnion(UTMCell.zoneEdges(band: below)) }
            if let above { cuts.formUnion(UTMCell.zoneEdges(band: above)) }
            let sorted = cuts.sorted()
            var pieces: [GridBuilder<P>.Piece] = []
            for k in 0..<(sorted.count - 1) where sorted[k + 1] >= geo.west && sorted[k] <= geo.east {
                let mid = (sorted[k] + sorted[k + 1]) / 2
                if !whole.contains(lat) {
                    let zoneBelow = below.flatMap { UTMCell.cell(band: $0, longitude: mid)?.zone }
                    let zoneAbove = above.flatMap { UTMCell.cell(band: $0, longitude: mid)?.zone }
                    guard zoneBelow != zoneAbove else { continue }
                }
                let zone =
                    above.flatMap { UTMCell.cell(band: $0, longitude: mid)?.designator }
                    ?? UPSFrame(north: true).designator(east: mid >= 0)
                let line = GridLine(level: 0, axis: .boundary, zone: zone, value: lat, label: nil, labelRank: rank)
                pieces.append(.init(line: line, t0: sorted[k], t1: sorted[k + 1]))
            }
            b.addLine(pieces, step: step, window: geo.west...geo.east) { GeoPosition(latitude: lat, longitude: $0) }
        }

        guard b.request.labels else { return }
        // Ranks favour zones by column (zone 1, 33, 17 and 49, ...) so that crowded labels
        // thin out to the same zones in every band.
        func cellRank(zone: Int, row: Int) -> GridLabelRank {
            GridLabelRank(
                level: 0,
                roundness: 8 * GridLabelRank.roundness(Int64(zone - 1), cap: 6)
                    + GridLabelRank.roundness(Int64(row), cap: 6),
                order: 0, key: Double(zone * 100 + row))
        }
        if mgrs || b.request.cellAnchor == .fixed {
            // One label per grid zone: MGRS designators, or UTM zone numbers repeated in every
            // band so that tiles far from a zone's middle still show it.
            for cells in UTMCell.all {
                for cell in cells where cell.box.intersects(geo) {
                    let text = mgrs ? cell.designator : GridText.utmZone(cell.zone, north: cell.band.isNorthern)
                    b.addCellLabel(
                        text, level: 0, cell: cell.box, zone: cell.designator,
                        rank: cellRank(zone: cell.zone, row: cell.band.index))
                }
            }
        } else {
            // A single image names each UTM zone once per hemisphere, in the middle of what it shows.
            for zone in 1...60 {
                let west = UTM.centralMeridian(zone: zone) - 3
                for north in [false, true] {
                    let box = GeoBox(south: north ? 0 : -80, north: north ? 84 : 0, west: west, east: west + 6)
                    guard box.intersects(geo) else { continue }
                    let band = LatitudeBand.containing(latitude: north ? 0 : -8)!
                    b.addCellLabel(
                        GridText.utmZone(zone, north: north), level: 0, cell: box,
                        zone: MGRS.gridZoneDesignator(zone: zone, band: band),
                        rank: cellRank(zone: zone, row: north ? 1 : 0))
                }
            }
        }
        for north in [true, false] {
            let frame = UPSFrame(north: north)
            let lats = frame.latitudes
            let rank = GridLabelRank(level: 0, roundness: 16, order: 0, key: north ? 1 : 0)
            if mgrs {
                for east in [false, true] {
                    let box = GeoBox(
                        south: lats.lowerBound, north: lats.upperBound, west: east ? 0 : -180, east: east ? 180 : 0)
                    b.addCellLabel(
                        frame.designator(east: east), level: 0, cell: box, zone: frame.designator(east: east),
                        rank: rank)
                }
            } else {
                let box = GeoBox(south: lats.lowerBound, north: lats.upperBound, west: -180, east: 180)
                b.addCellLabel(north ? "UPS N" : "UPS S", level: 0, cell: box, zone: nil, rank: rank)
            }
        }
    }
}
