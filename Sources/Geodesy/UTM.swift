import Foundation

/// A UTM or UPS coordinate: zone 1...60 for UTM, zone 0 for UPS. Easting and northing are
/// in metres with the false origins included (UTM: 500 km east, 10,000 km north in the
/// south; UPS: 2,000 km both ways).
public struct UTMCoordinate: Hashable, Sendable {
    /// 1...60 for UTM, 0 (`UTM.upsZone`) for UPS.
    public var zone: Int
    /// Northern hemisphere (UTM) or north pole (UPS).
    public var isNorth: Bool
    public var easting: Double
    public var northing: Double

    public init(zone: Int, isNorth: Bool, easting: Double, northing: Double) {
        self.zone = zone
        self.isNorth = isNorth
        self.easting = easting
        self.northing = northing
    }

    public var isUPS: Bool { zone == UTM.upsZone }
}

/// The Universal Transverse Mercator and Universal Polar Stereographic systems.
/// Zones, limits and exceptions follow the MGRS standard (NGA.STND.0037) as GeographicLib
/// applies them, so results agree with `GeoConvert -u`.
public enum UTM {
    /// The zone number that stands for UPS.
    public static let upsZone = 0

    /// The central meridian of a UTM zone, in degrees: 6·zone - 183.
    public static func centralMeridian(zone: Int) -> Double { Double(6 * zone - 183) }

    /// The standard zone for a position: 1...60 for UTM between 80°S and 84°N (with the
    /// Norway exception, 32V widened over 3°E–12°E, and the Svalbard exception, zones
    /// 31X, 33X, 35X, 37X), 0 for UPS beyond. A longitude on a zone edge belongs to the zone
    /// to its east; 180° belongs to zone 1. Returns nil for NaN or infinite input.
    public static func standardZone(latitude: Double, longitude: Double) -> Int? {
        guard latitude.isFinite, longitude.isFinite else { return nil }
        guard latitude >= -80, latitude < 84 else { return upsZone }
        return utmZone(latitude: latitude, longitude: longitude)
    }

    /// The UTM zone for a position ignoring the polar limits (bands C and X extended).
    static func utmZone(latitude: Double, longitude: Double) -> Int {
        var ilon = Int(AngleMath.normalize(longitude).rounded(.down))
        if ilon == 180 { ilon = -180 }
        var zone = (ilon + 186) / 6
        let band = LatitudeBand.clampedIndex(latitude: latitude)
        if band == 7, zone == 31, ilon >= 3 {
            zone = 32  // Norway: 32V covers 3°E–12°E
        } else if band == 9, ilon >= 0, ilon < 42 {
            zone = 2 * ((ilon + 183) / 12) + 1  // Svalbard: 31X, 33X, 35X, 37X
        }
        return zone
    }

    /// Converts to the standard zone (UTM or UPS). Throws for a latitude outside [-90, 90].
    /// The hemisphere follows the sign of the latitude (-0 is south, as in GeoConvert).
    public static func forward(_ position: GeoPosition) throws(GeodesyError) -> UTMCoordinate {
        try checkLatitude(position.latitude)
        guard let zone = standardZone(latitude: position.latitude, longitude: position.longitude) else {
            throw .longitudeOutOfRange(position.longitude)
        }
        return try forward(position, zone: zone)
    }

    /// Converts in a given zone (0 for UPS), like `GeoConvert -z`. `north` forces the
    /// hemisphere (a southern point in a northern zone gets a negative northing); nil takes
    /// it from the latitude's sign. Throws when the result is beyond the zone's limits
    /// (easting 0–1,000 km for UTM; for UPS, within 20° of the pole).
    public static func forward(
        _ position: GeoPosition, zone: Int,
        north: Bool? = nil
    ) throws(GeodesyError) -> UTMCoordinate {
        try checkLatitude(position.latitude)
        guard (0...60).contains(zone) else { throw .invalidZone(zone) }
        let isNorth = north ?? (position.latitude.sign == .plus)
        if zone != upsZone {
            let lon0 = centralMeridian(zone: zone)
            guard AngleMath.difference(lon0, position.longitude) <= 60 else {
                throw .outsideZone(latitude: position.latitude, longitude: position.longitude, zone: zone)
            }
        } else if Swift.abs(position.latitude) < 70 {
            throw .outsideZone(latitude: position.latitude, longitude: position.longitude, zone: zone)
        }
        let c = project(position, zone: zone, north: isNorth)
        guard limits(zone: zone, north: isNorth, slop: true).contains(c) else {
            throw .outsideZone(latitude: position.latitude, longitude: position.longitude, zone: zone)
        }
        return c
    }

    /// Projects into a zone with no limit checks: for drawing a zone's lines across its
    /// whole extent and beyond. UTM stays accurate to millimetres up to several degrees
    /// outside the zone (see `TransverseMercator`). Allocation-free.
    public static func project(_ position: GeoPosition, zone: Int, north: Bool) -> UTMCoordinate {
        if zone != upsZone {
            let p = TransverseMercator.utm.forward(
                centralMeridian: centralMeridian(zone: zone),
                latitude: position.latitude,
                longitude: position.longitude)
            return UTMCoordinate(
                zone: zone, isNorth: north, easting: p.x + WGS84.utmFalseEasting,
                northing: p.y + (north ? 0 : WGS84.utmSouthFalseNorthing))
        }
        let p = PolarStereographic.ups.forward(
            north: north, latitude: position.latitude,
            longitude: position.longitude)
        return UTMCoordinate(
            zone: zone, isNorth: north, easting: p.x + WGS84.upsFalseOrigin,
            northing: p.y + WGS84.upsFalseOrigin)
    }

    /// Converts back to latitude and longitude. Throws when the easting or northing is
    /// beyond what the zone allows (UTM easting 0–1,000 km; northing -9,100–9,600 km in the
    /// north, 900–19,600 km in the south; UPS 1,200–2,800 km north, 700–3,300 km south).
    public static func reverse(_ c: UTMCoordinate) throws(GeodesyError) -> GeoPosition {
        guard (0...60).contains(c.zone) else { throw .invalidZone(c.zone) }
        try limits(zone: c.zone, north: c.isNorth, slop: true).check(c)
        return unproject(c).position
    }

    /// The inverse of `project`, with no limit checks, and with convergence and scale.
    public static func unproject(_ c: UTMCoordinate) -> UnprojectedPoint {
        if c.zone != upsZone {
            return TransverseMercator.utm.reverse(
                centralMeridian: centralMeridian(zone: c.zone),
                x: c.easting - WGS84.utmFalseEasting,
                y: c.northing - (c.isNorth ? 0 : WGS84.utmSouthFalseNorthing))
        }
        return PolarStereographic.ups.reverse(
            north: c.isNorth,
            x: c.easting - WGS84.upsFalseOrigin,
            y: c.northing - WGS84.upsFalseOrigin)
    }

    /// The longitude extent of a UTM zone within a latitude band, in degrees, with the
    /// Norway and Svalbard exceptions: 31V is 0°–3°E and 32V 3°E–12°E; in band X, 31X is
    /// 0°–9°E, 33X 9°–21°E, 35X 21°–33°E, 37X 33°–42°E and 32X, 34X, 36X do not exist (nil).
    public static func longitudeRange(zone: Int, band: LatitudeBand) -> ClosedRange<Double>? {
        guard (1...60).contains(zone) else { return nil }
        let west = Double(6 * zone - 186)
        switch (band.letter, zone) {
        case ("V", 31): return 0...3
        case ("V", 32): return 3...12
        case ("X", 31): return 0...9
        case ("X", 32), ("X", 34), ("X", 36): return nil
        case ("X", 33): return 9...21
        case ("X", 35): return 21...33
        case ("X", 37): return 33...42
        default: return west...(west + 6)
        }
    }

    /// The longitude extent of a UTM zone at a latitude: its cell in the latitude's band, so
    /// 3°E–12°E for zone 32 at 60°N and 9°E–21°E for zone 33 at 78°N. Nil where the zone has no
    /// cell at that latitude (32X, 34X, 36X), beyond the UTM latitudes (UPS) and for NaN.
    public static func longitudeRange(zone: Int, latitude: Double) -> ClosedRange<Double>? {
        guard latitude >= -80, latitude < 84, let band = LatitudeBand.containing(latitude: latitude) else {
            return nil
        }
        return longitudeRange(zone: zone, band: band)
    }

    static func checkLatitude(_ lat: Double) throws(GeodesyError) {
        guard Swift.abs(lat) <= 90 else { throw .latitudeOutOfRange(lat) }
    }

    /// The easting/northing limits of a zone. MGRS limits are whole 100 km squares; plain
    /// UTM/UPS allow one more square of slop on every side.
    static func limits(zone: Int, north: Bool, slop: Bool) -> Limits {
        let s = slop ? 1.0 : 0.0
        let t = 100_000.0
        if zone == upsZone {
            return north
                ? Limits(
                    utm: false, north: true, e0: (13 - s) * t, e1: (27 + s) * t,
                    n0: (13 - s) * t, n1: (27 + s) * t)
                : Limits(
                    utm: false, north: false, e0: (8 - s) * t, e1: (32 + s) * t,
                    n0: (8 - s) * t, n1: (32 + s) * t)
        }
        return north
            ? Limits(
                utm: true, north: true, e0: (1 - s) * t, e1: (9 + s) * t,
                n0: (-90 - s) * t, n1: (95 + s) * t)
            : Limits(
                utm: true, north: false, e0: (1 - s) * t, e1: (9 + s) * t,
                n0: (10 - s) * t, n1: (195 + s) * t)
    }

    struct Limits {
        let utm, north: Bool
        let e0, e1, n0, n1: Double

        /// Closed on both ends; NaN passes (and propagates).
        func contains(_ c: UTMCoordinate) -> Bool {
            !(c.easting < e0 || c.easting > e1 || c.northing < n0 || c.northing > n1)
        }

        func check(_ c: UTMCoordinate) throws(GeodesyError) {
            if c.easting < e0 || c.easting > e1 {
                throw .coordinateOutOfRange(axis: "easting", value: c.easting, system: system, range: e0...e1)
            }
            if c.northing < n0 || c.northing > n1 {
                throw .coordinateOutOfRange(axis: "northing", value: c.northing, system: system, range: n0...n1)
            }
        }

        /// For error messages only (building it allocates).
        var system: String { (utm ? "UTM" : "UPS") + (north ? " N" : " S") + " hemisphere" }
    }
}
