import Foundation

/// The polar stereographic projection on an ellipsoid (UPS uses WGS84 with k0 = 0.994).
/// Coordinates are relative to the pole, with no false origin, in the UPS orientation:
/// x = ρ sin λ everywhere, y = -ρ cos λ in the north and y = +ρ cos λ in the south
/// (so 0° longitude points down from the north pole and up from the south pole).
public struct PolarStereographic: Sendable {
    public let ellipsoid: Ellipsoid
    /// Scale factor at the pole.
    public let scaleFactor: Double
    private let e2, e2m, es, c: Double

    /// UPS's projection: WGS84 with k0 = 0.994.
    public static let ups = PolarStereographic(ellipsoid: .wgs84, scaleFactor: WGS84.upsScaleFactor)

    public init(ellipsoid: Ellipsoid, scaleFactor: Double) {
        self.ellipsoid = ellipsoid
        self.scaleFactor = scaleFactor
        e2 = ellipsoid.eccentricitySquared
        e2m = 1 - e2
        es = ellipsoid.eccentricity
        c = ellipsoid.polarConformalFactor
    }

    /// Projects a position onto the plane of the north (`north` true) or south pole.
    public func forward(north: Bool, latitude: Double, longitude: Double) -> ProjectedPoint {
        var lat = Swift.abs(latitude) > 90 ? Double.nan : latitude
        lat *= north ? 1 : -1
        let tau = AngleMath.tand(lat)
        let secphi = Foundation.hypot(1, tau)
        let taup = AngleMath.taupf(tau, es)
        var rho = Foundation.hypot(1, taup) + Swift.abs(taup)
        rho = taup >= 0 ? (lat != 90 ? 1 / rho : 0) : rho
        rho *= 2 * scaleFactor * ellipsoid.equatorialRadius / c
        let k =
            lat != 90
            ? (rho / ellipsoid.equatorialRadius) * secphi * (e2m + e2 / (secphi * secphi)).squareRoot()
            : scaleFactor
        let (sl, cl) = AngleMath.sincosd(longitude)
        return ProjectedPoint(
            x: sl * rho, y: cl * (north ? -rho : rho),
            convergence: AngleMath.normalize(north ? longitude : -longitude),
            scale: k)
    }

    /// The inverse of `forward`.
    public func reverse(north: Bool, x: Double, y: Double) -> UnprojectedPoint {
        let rho = Foundation.hypot(x, y)
        let t =
            rho != 0
            ? rho / (2 * scaleFactor * ellipsoid.equatorialRadius / c)
            : Double.ulpOfOne * Double.ulpOfOne
        let taup = (1 / t - t) / 2
        let tau = AngleMath.tauf(taup, es)
        let secphi = Foundation.hypot(1, tau)
        let k =
            rho != 0
            ? (rho / ellipsoid.equatorialRadius) * secphi * (e2m + e2 / (secphi * secphi)).squareRoot()
            : scaleFactor
        let lat = (north ? 1 : -1) * AngleMath.atand(tau)
        let lon = AngleMath.atan2d(x, north ? -y : y)
        return UnprojectedPoint(
            latitude: lat, longitude: lon,
            convergence: AngleMath.normalize(north ? lon : -lon), scale: k)
    }
}
