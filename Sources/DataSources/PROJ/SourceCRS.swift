import CPROJ
import MapModel

/// The coordinate reference system of a source's data, as text PROJ reads (`EPSG:2263`, WKT,
/// a PROJ string): a value that crosses threads, from which each thread builds its own
/// `MercatorProjector`.
struct SourceCRS: Sendable, Equatable {
    /// What `proj_create` is given.
    let definition: String
    /// How messages name it: `EPSG:2263`, or the CRS's name.
    let label: String

    /// Checks that `definition` names a CRS we can draw from: one PROJ knows, horizontal (a
    /// geographic or projected CRS, or a compound one with such a part), with a way to WGS84.
    init(_ definition: String) throws(TransformFailure) {
        let context = try ProjContext(for: "the CRS \(DocumentError.quote(definition))")
        guard let crs = context.object({ proj.proj_create($0, definition) }) else {
            throw TransformFailure(
                "unknown CRS \"\(definition)\": \(context.takeError() ?? "PROJ does not know it") "
                    + "(give an EPSG code such as \"EPSG:4326\", a WKT or a PROJ string)")
        }
        let type = proj.proj_get_type(crs.handle)
        let usable: [PJ_TYPE] = [
            PJ_TYPE_GEOGRAPHIC_2D_CRS, PJ_TYPE_GEOGRAPHIC_3D_CRS, PJ_TYPE_PROJECTED_CRS, PJ_TYPE_COMPOUND_CRS,
            PJ_TYPE_BOUND_CRS, PJ_TYPE_OTHER_CRS,
        ]
        guard usable.contains(type) else {
            let kind: String
            switch type {
            case PJ_TYPE_GEOCENTRIC_CRS: kind = "a geocentric CRS (earth-centred X, Y, Z)"
            case PJ_TYPE_VERTICAL_CRS: kind = "a vertical CRS (heights only)"
            case PJ_TYPE_ENGINEERING_CRS: kind = "an engineering CRS (not tied to the earth)"
            case PJ_TYPE_TEMPORAL_CRS: kind = "a temporal CRS"
            default: kind = proj.proj_is_crs(crs.handle) != 0 ? "a CRS of a kind not drawn here" : "not a CRS"
            }
            throw TransformFailure(
                "\"\(definition)\" (\(crs.label)) is \(kind): give a geographic or projected CRS")
        }
        self.definition = definition
        self.label = crs.label
        _ = try MercatorProjector(self, context: context)
    }
}
