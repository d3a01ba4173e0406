import CGDAL
import Geodesy

/// OGR's spatial filter by a rectangle, as `OGRLayer::FilterGeometry` applies it to each
/// feature the index finds: a feature is kept when its geometry meets the rectangle (edges
/// included), not merely its envelope. An envelope apart from the rectangle or within it
/// decides at once, and so does a vertex inside it; only a geometry straddling an edge with
/// no vertex inside (a long segment across a corner) is handed to OGR (GEOS), as OGR does.
final class SpatialFilterRect {
    let rect: Rect
    /// The rectangle as an OGR polygon, made when first needed.
    private var polygon: OGRGeometryH?

    init(_ rect: Rect) {
        self.rect = rect
    }

    deinit {
        if let polygon { gdal.OGR_G_DestroyGeometry(polygon) }
    }

    /// Whether OGR's filter keeps the geometry `geometry` has just read.
    func keeps(_ geometry: GeoPackageGeometry, _ status: GeoPackageGeometry.Status) -> Bool {
        switch status {
        case .none, .invalid:
            return false
        case .unsupported:
            return ogrKeeps(geometry.wkb)
        case .read:
            let envelope = geometry.envelope
            guard envelope.intersects(rect) else { return false }
            if rect.contains(envelope) || geometry.hasVertex(in: rect) { return true }
            return ogrKeeps(geometry.wkb)
        }
    }

    /// The same test on OGR's own geometry: empty is never kept.
    private func ogrKeeps(_ wkb: UnsafeRawBufferPointer) -> Bool {
        var parsed: OGRGeometryH?
        guard gdal.OGR_G_CreateFromWkb(wkb.baseAddress, nil, &parsed, Int32(wkb.count)) == OGRERR_NONE, let parsed
        else {
            return false
        }
        defer { gdal.OGR_G_DestroyGeometry(parsed) }
        guard gdal.OGR_G_IsEmpty(parsed) == 0 else { return false }
        var envelope = OGREnvelope()
        gdal.OGR_G_GetEnvelope(parsed, &envelope)
        let box = Rect(minX: envelope.MinX, minY: envelope.MinY, maxX: envelope.MaxX, maxY: envelope.MaxY)
        guard box.intersects(rect) else { return false }
        if rect.contains(box) { return true }
        return gdal.OGR_G_Intersects(parsed, filterPolygon()) != 0
    }

    private func filterPolygon() -> OGRGeometryH {
        if let polygon { return polygon }
        let ring = gdal.OGR_G_CreateGeometry(wkbLinearRing)
        for (x, y) in [
            (rect.minX, rect.minY), (rect.minX, rect.maxY), (rect.maxX, rect.maxY), (rect.maxX, rect.minY),
            (rect.minX, rect.minY),
        ] {
            gdal.OGR_G_AddPoint_2D(ring, x, y)
        }
        let made = gdal.OGR_G_CreateGeometry(wkbPolygon)!
        _ = gdal.OGR_G_AddGeometryDirectly(made, ring)
        polygon = made
        return made
    }
}
