import Geodesy

/// A UTM zone's own coordinates. Northings are signed here (negative south of the equator,
/// the northern formula throughout), so a line can cross the equator; the 10,000 km false
/// northing is added only to the values people read.
struct UTMZoneFrame {
    let zone: Int
    let centralMeridian: Double

    init(zone: Int) {
        self.zone = zone
        centralMeridian = UTM.centralMeridian(zone: zone)
    }

    /// Latitude and longitude east of the central meridian of an easting and signed northing.
    /// Working relative to the central meridian keeps zone 60 continuous at 180°.
    @inline(__always)
    func local(_ easting: Double, _ northing: Double) -> (latitude: Double, dlon: Double) {
        let r = TransverseMercator.utm.reversePosition(
            centralMeridian: 0, x: easting - WGS84.utmFalseEasting, y: northing)
        return (r.latitude, r.longitude)
    }

    @inline(__always)
    func position(_ easting: Double, _ northing: Double) -> GeoPosition {
        let l = local(easting, northing)
        return GeoPosition(latitude: l.latitude, longitude: centralMeridian + l.dlon)
    }

    @inline(__always)
    func coordinates(latitude: Double, longitude: Double) -> (easting: Double, northing: Double) {
        let p = TransverseMercator.utm.forward(
            centralMeridian: 0, latitude: latitude, longitude: longitude - centralMeridian)
        return (p.x + WGS84.utmFalseEasting, p.y)
    }

    /// The easting and signed northing ranges of a box within one hemisphere. Along a
    /// parallel the easting grows with longitude and the northing is extreme at the central
    /// meridian or the box's sides; along a meridian both are extreme at the ends. So the
    /// corners and the central meridian's points on the top and bottom edges bound the box.
    func ranges(_ box: GeoBox) -> (easting: ClosedRange<Double>, northing: ClosedRange<Double>) {
        let cm = Swift.max(box.west, Swift.min(box.east, centralMeridian))
        var bounds = Rect.empty
        for (lat, lon) in [
            (box.south, box.west), (box.south, box.east), (box.north, box.west), (box.north, box.east),
            (box.south, cm), (box.north, cm),
        ] {
            let c = coordinates(latitude: lat, longitude: lon)
            bounds.include(x: c.easting, y: c.northing)
        }
        return (bounds.minX...bounds.maxX, bounds.minY...bounds.maxY)
    }
}

/// A grid zone: a UTM zone within one latitude band, with the Norway and Svalbard exceptions.
/// Cells hold their south and west edges, not their north and east ones.
struct UTMCell: Sendable {
    let zone: Int
    let band: LatitudeBand
    let box: GeoBox
    /// The grid zone designator, `18S`.
    let designator: String

    /// Every zone's cells, south to north: `all[zone - 1]`.
    static let all: [[UTMCell]] = (1...60).map { zone in
        LatitudeBand.all.compactMap { band in
            guard let lon = UTM.longitudeRange(zone: zone, band: band) else { return nil }
            return UTMCell(
                zone: zone, band: band,
                box: GeoBox(south: band.south, north: band.north, west: lon.lowerBound, east: lon.upperBound),
                designator: MGRS.gridZoneDesignator(zone: zone, band: band))
        }
    }

    /// A zone's cells carried over the zone's edges (a band each, 90° either side of the
    /// central meridian), for drawing one zone's grid across a whole area.
    static func extended(zone: Int) -> [UTMCell] {
        let cm = UTM.centralMeridian(zone: zone)
        return LatitudeBand.all.map { band in
            UTMCell(
                zone: zone, band: band, box: GeoBox(south: band.south, north: band.north, west: cm - 90, east: cm + 90),
                designator: MGRS.gridZoneDesignator(zone: zone, band: band))
        }
    }

    /// The west edges of the zones in a band, west to east (0°, 3°, 12°... in band V).
    static func zoneEdges(band: LatitudeBand) -> [Double] { edgesByBand[band.index] }

    /// `zoneEdges` of every band, by its index: a walk over all 60 zones' cells, which every
    /// generation of zone boundaries asked for once per band in view.
    private static let edgesByBand: [[Double]] = LatitudeBand.all.map { band in
        all.compactMap { cells in cells.first { $0.band == band }?.box.west }.sorted()
    }

    /// The cell of a band that holds a longitude (west edge included).
    static func cell(band: LatitudeBand, longitude: Double) -> UTMCell? {
        for cells in all {
            if let c = cells.first(where: { $0.band == band }), longitude >= c.box.west, longitude < c.box.east {
                return c
            }
        }
        return longitude >= 180 ? cell(band: band, longitude: -180) : nil
    }
}
