import Foundation

/// An ellipsoid of revolution, given by its equatorial radius and flattening.
public struct Ellipsoid: Hashable, Sendable {
    /// Equatorial radius (semi-major axis) in metres.
    public let equatorialRadius: Double
    /// Flattening f = (a - b) / a.
    public let flattening: Double

    /// First eccentricity squared, e² = f (2 - f).
    public var eccentricitySquared: Double { flattening * (2 - flattening) }
    /// First eccentricity e (negative for a prolate ellipsoid, by convention).
    public var eccentricity: Double {
        (flattening < 0 ? -1 : 1) * Swift.abs(eccentricitySquared).squareRoot()
    }
    /// c = √(1 − e²) · exp(e · atanh e): the factor by which the conformal sphere's pole
    /// differs from the ellipsoid's, shared by the transverse Mercator and polar
    /// stereographic projections.
    public var polarConformalFactor: Double {
        (1 - eccentricitySquared).squareRoot() * Foundation.exp(AngleMath.eatanhe(1, eccentricity))
    }
    /// Third flattening n = f / (2 - f), the small parameter of Krüger's series.
    public var thirdFlattening: Double { flattening / (2 - flattening) }

    public init(equatorialRadius: Double, flattening: Double) {
        self.equatorialRadius = equatorialRadius
        self.flattening = flattening
    }

    /// WGS84: a = 6378137 m, 1/f = 298.257223563. MGRS, UTM, UPS and (as an approximation
    /// good to about a metre) NAD83 for USNG all use it.
    public static let wgs84 = Ellipsoid(
        equatorialRadius: WGS84.equatorialRadius,
        flattening: WGS84.flattening)
}

/// The defining constants of WGS84 and the UTM/UPS systems built on it.
public enum WGS84 {
    /// Equatorial radius a, metres.
    public static let equatorialRadius = 6_378_137.0
    /// Flattening f = 1/298.257223563.
    public static let flattening = 1 / 298.257223563
    /// Scale factor on the central meridian of every UTM zone.
    public static let utmScaleFactor = 0.9996
    /// Scale factor at the pole of UPS.
    public static let upsScaleFactor = 0.994
    /// UTM false easting (500 km) and southern-hemisphere false northing (10,000 km).
    public static let utmFalseEasting = 500_000.0
    public static let utmSouthFalseNorthing = 10_000_000.0
    /// UPS false easting and northing (2,000 km each).
    public static let upsFalseOrigin = 2_000_000.0
}
