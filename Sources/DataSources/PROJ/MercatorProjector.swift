import CPROJ
import Geodesy
import MapModel

/// Converts a source's coordinates to Web Mercator metres, the plane features are stored in:
/// PROJ takes them to longitude/latitude WGS84 in traditional GIS order (x = easting or
/// longitude, as OGR hands them over), then Geodesy's Web Mercator projects them, clamping
/// latitudes to ±85.0511° as GeoJSON's path does. A source already in longitude/latitude
/// WGS84 skips PROJ, so it lands on exactly the same metres as the GeoJSON reader's.
///
/// One per thread: it owns its PROJ context.
final class MercatorProjector: CoordinateTransform {
    let crs: SourceCRS
    private let context: ProjContext
    /// Source -> longitude/latitude, normalised for visualisation; nil when the source is
    /// longitude/latitude WGS84 already (in either axis order).
    private let toLonLat: ProjObject?
    /// y of the latitudes met lately, made on first use (a projector that only converts
    /// bounds does not need it).
    private lazy var memo = MercatorYMemo()

    /// The target is EPSG:4326 (normalised to longitude first), not OGC:CRS84: PROJ chooses the
    /// datum transformation by the target's identity, and EPSG:4326 is the one EPSG:3857 is
    /// defined on, so the operation is the one `cs2cs SOURCE EPSG:3857` uses (for NAD83 sources
    /// they differ by about a metre).
    init(_ crs: SourceCRS, context given: ProjContext? = nil) throws(TransformFailure) {
        self.crs = crs
        let context: ProjContext
        if let given { context = given } else { context = try ProjContext(for: "the CRS \(crs.label)") }
        self.context = context
        guard let source = context.object({ proj.proj_create($0, crs.definition) }),
            let wgs84 = context.object({ proj.proj_create($0, "EPSG:4326") })
        else {
            throw TransformFailure("unknown CRS \(DocumentError.quote(crs.definition)): \(context.takeError() ?? "")")
        }
        if proj.proj_is_equivalent_to_with_ctx(
            context.handle, source.handle, wgs84.handle, PJ_COMP_EQUIVALENT_EXCEPT_AXIS_ORDER_GEOGCRS) != 0
        {
            toLonLat = nil
            return
        }
        guard
            let operation = context.object({
                proj.proj_create_crs_to_crs_from_pj($0, source.handle, wgs84.handle, nil, nil)
            }),
            let normalized = context.object({ proj.proj_normalize_for_visualization($0, operation.handle) })
        else {
            throw TransformFailure(
                "\(crs.label) cannot be converted to longitude/latitude WGS84: \(context.takeError() ?? "no transformation")"
            )
        }
        toLonLat = normalized
    }

    /// True when the source is longitude/latitude WGS84.
    var isLongitudeLatitude: Bool { toLonLat == nil }

    func toWebMercator(_ coordinates: inout [Double]) throws {
        let count = coordinates.count / 2
        if let toLonLat {
            let original = coordinates
            coordinates.withUnsafeMutableBufferPointer { buffer in
                let base = buffer.baseAddress!
                _ = proj.proj_trans_generic(
                    toLonLat.handle, PJ_FWD, base, 16, count, base + 1, 16, count, nil, 0, 0, nil, 0, 0)
            }
            _ = proj.proj_errno_reset(toLonLat.handle)
            for i in 0..<count where !(coordinates[2 * i].isFinite && coordinates[2 * i + 1].isFinite) {
                _ = context.takeError()
                throw TransformFailure(
                    "the position (\(DecimalFormat.shortest(original[2 * i])), \(DecimalFormat.shortest(original[2 * i + 1]))) "
                        + "cannot be converted from \(crs.label) to longitude/latitude: is the CRS right?")
            }
        } else if let i = MercatorProjector.firstOutOfRange(coordinates) {
            let lon = coordinates[2 * i]
            let lat = coordinates[2 * i + 1]
            guard lon >= -180, lon <= 180 else {
                throw TransformFailure(
                    "longitude \(DecimalFormat.shortest(lon)) is out of range (-180 to 180): the data is not in "
                        + "longitude/latitude; give the layer its CRS with \"srs\"")
            }
            throw TransformFailure(
                "latitude \(DecimalFormat.shortest(lat)) is out of range (-90 to 90): the data is not in "
                    + "longitude/latitude; give the layer its CRS with \"srs\"")
        }
        // Through the buffer: the array's uniqueness and bounds are checked once, not per vertex.
        let memo = memo
        coordinates.withUnsafeMutableBufferPointer { buffer in
            for i in 0..<count {
                buffer[2 * i] = WebMercator.x(longitude: buffer[2 * i])
                buffer[2 * i + 1] = memo.y(latitude: buffer[2 * i + 1])
            }
        }
    }

    /// The first vertex of interleaved longitudes and latitudes whose longitude is outside
    /// -180...180 or latitude outside -90...90 (NaN included); nil when none is. Through the
    /// buffer, as the conversion: this runs over every vertex a view reads.
    private static func firstOutOfRange(_ coordinates: [Double]) -> Int? {
        coordinates.withUnsafeBufferPointer { buffer in
            (0..<buffer.count / 2).first { i in
                let lon = buffer[2 * i]
                let lat = buffer[2 * i + 1]
                return !(lon >= -180 && lon <= 180 && lat >= -90 && lat <= 90)
            }
        }
    }

    /// A position of a longitude/latitude source in Web Mercator metres, the very ones
    /// `toWebMercator` gives it; nil for another source, and where `toWebMercator` throws.
    func mercator(longitude: Double, latitude: Double) -> PlanePoint? {
        guard toLonLat == nil, longitude >= -180, longitude <= 180, latitude >= -90, latitude <= 90 else { return nil }
        return PlanePoint(x: WebMercator.x(longitude: longitude), y: memo.y(latitude: latitude))
    }

    /// The Web Mercator bounds of a rectangle of the source's CRS (its edges sampled, since
    /// they are curves in Web Mercator); nil when PROJ cannot convert it.
    func mercatorBounds(ofSource rect: Rect) -> Rect? {
        guard let lonLat = transformBounds(rect, direction: PJ_FWD) else { return nil }
        return Rect(
            minX: WebMercator.x(longitude: lonLat.minX), minY: WebMercator.y(latitude: lonLat.minY),
            maxX: WebMercator.x(longitude: lonLat.maxX), maxY: WebMercator.y(latitude: lonLat.maxY))
    }

    /// A rectangle of the source's CRS that holds a Web Mercator rectangle: the spatial filter
    /// of a query. A rectangle touching the top or bottom of the Web Mercator square reaches the
    /// pole, where features clamped to ±85.0511° come from. nil when PROJ cannot convert it.
    func sourceRect(ofMercator rect: Rect) -> Rect? {
        let h = WebMercator.halfWorld
        let lonLat = Rect(
            minX: max(-180, WebMercator.longitude(x: rect.minX)),
            minY: rect.minY <= -h ? -90 : WebMercator.latitude(y: rect.minY),
            maxX: min(180, WebMercator.longitude(x: rect.maxX)),
            maxY: rect.maxY >= h ? 90 : WebMercator.latitude(y: rect.maxY))
        guard !lonLat.isEmpty, let source = transformBounds(lonLat, direction: PJ_INV) else { return nil }
        // proj_trans_bounds samples the edges; a margin covers what bulges between samples.
        return source.expanded(by: max(source.width, source.height) * 0.01)
    }

    private func transformBounds(_ rect: Rect, direction: PJ_DIRECTION) -> Rect? {
        guard let toLonLat else { return rect }
        var out = Rect.empty
        let ok = proj.proj_trans_bounds(
            context.handle, toLonLat.handle, direction, rect.minX, rect.minY, rect.maxX, rect.maxY,
            &out.minX, &out.minY, &out.maxX, &out.maxY, 21)
        _ = context.takeError()
        guard ok != 0, out.minX.isFinite, out.minY.isFinite, out.maxX.isFinite, out.maxY.isFinite else { return nil }
        return out
    }
}
