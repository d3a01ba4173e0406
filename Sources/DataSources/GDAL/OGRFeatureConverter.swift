import CGDAL
import Foundation
import Geodesy
import MapModel

/// Turns the OGR features of one layer into MapModel features: geometry into Web Mercator
/// metres through the layer's projector, attributes into `PropertyValue`s the way GeoJSON's
/// are read, so that filters and labels behave the same whatever the format.
struct OGRFeatureConverter {
    let attributes: OGRAttributes
    let projector: MercatorProjector

    init(layer: UnsafeMutableRawPointer, projector: MercatorProjector) {
        self.init(attributes: OGRAttributes(layer: layer), projector: projector)
    }

    init(attributes: OGRAttributes, projector: MercatorProjector) {
        self.attributes = attributes
        self.projector = projector
    }

    /// `index` is the feature's place in the drawing order (its FID, or its position).
    func feature(_ feature: UnsafeMutableRawPointer, index: Int) throws(TransformFailure) -> Feature {
        var geometries: [Geometry] = []
        if let geometry = gdal.OGR_F_GetGeometryRef(feature) { geometries = try self.geometries(of: geometry) }
        return Feature(index: index, geometries: geometries, properties: attributes.properties(feature))
    }

    /// The geometries `feature` makes of an OGR geometry.
    func geometries(of geometry: UnsafeMutableRawPointer) throws(TransformFailure) -> [Geometry] {
        var geometries: [Geometry] = []
        try append(geometry, to: &geometries)
        return geometries
    }

    /// A line feature whose vertices all lie within `tolerance` (Web Mercator metres) of one
    /// another, reduced to what Douglas-Peucker simplification at that tolerance keeps of it:
    /// each part's first and last vertex (a part of one vertex stays whole). Its `bounds` are
    /// those of all its vertices, as `feature` would give them. Nil for anything else, and
    /// for a source not in longitude/latitude, whose bounds cannot be told without projecting
    /// every vertex: the caller converts such features whole.
    ///
    /// Only the envelope (a scan OGR makes without trigonometry) and the ends are projected:
    /// at zoom 0 a third of the GSHHG vertices lie in lines smaller than the tolerance.
    func collapsedLine(_ feature: UnsafeMutableRawPointer, index: Int, within tolerance: Double)
        -> (feature: Feature, bounds: Rect)?
    {
        guard projector.isLongitudeLatitude, let geometry = gdal.OGR_F_GetGeometryRef(feature),
            gdal.OGR_G_IsEmpty(geometry) == 0
        else { return nil }
        let type = gdal.OGR_GT_Flatten(gdal.OGR_G_GetGeometryType(geometry))
        guard type == wkbLineString || type == wkbMultiLineString else { return nil }
        var envelope = OGREnvelope()
        gdal.OGR_G_GetEnvelope(geometry, &envelope)
        // Projected as vertices are: x grows with longitude and y with latitude, so the
        // corners' images bound the vertices' images exactly. Out of range, the whole
        // conversion says what is wrong.
        guard let low = projector.mercator(longitude: envelope.MinX, latitude: envelope.MinY),
            let high = projector.mercator(longitude: envelope.MaxX, latitude: envelope.MaxY)
        else { return nil }
        let bounds = Rect(minX: low.x, minY: low.y, maxX: high.x, maxY: high.y)
        // Every vertex lies within the bounds' diagonal of a part's first vertex, so within it
        // of the segment between the part's ends; half the tolerance leaves room for rounding.
        let half = tolerance / 2
        guard bounds.width * bounds.width + bounds.height * bounds.height <= half * half else { return nil }
        // Straight into arrays of the final size: this runs for most features of a detailed
        // layer at small scales.
        let parts = type == wkbLineString ? 1 : Int(gdal.OGR_G_GetGeometryCount(geometry))
        var coordinates: [Double] = []
        coordinates.reserveCapacity(4 * parts)
        var partStarts = [Int]()
        partStarts.reserveCapacity(parts + 1)
        partStarts.append(0)
        for i in 0..<parts {
            guard let part = type == wkbLineString ? geometry : gdal.OGR_G_GetGeometryRef(geometry, Int32(i)) else {
                continue
            }
            let count = gdal.OGR_G_GetPointCount(part)
            guard count > 0 else { continue }
            // Within the envelope, so in range.
            guard
                let first = projector.mercator(longitude: gdal.OGR_G_GetX(part, 0), latitude: gdal.OGR_G_GetY(part, 0)),
                let last = projector.mercator(
                    longitude: gdal.OGR_G_GetX(part, count - 1), latitude: gdal.OGR_G_GetY(part, count - 1))
            else { return nil }
            coordinates.append(first.x)
            coordinates.append(first.y)
            if count > 1 {
                coordinates.append(last.x)
                coordinates.append(last.y)
            }
            partStarts.append(coordinates.count / 2)
        }
        let line = Geometry(kind: .line, coordinates: coordinates, partStarts: partStarts)
        return (Feature(index: index, geometries: [line], properties: attributes.properties(feature)), bounds)
    }

    // MARK: Geometry

    /// Appends the geometries of an OGR geometry: one per simple or multi geometry (as GeoJSON's
    /// reader makes), the members of a collection one by one. Curves are approximated by lines,
    /// and surfaces (triangles, TINs, polyhedral surfaces) become polygons.
    private func append(_ geometry: UnsafeMutableRawPointer, to geometries: inout [Geometry]) throws(TransformFailure) {
        guard gdal.OGR_G_IsEmpty(geometry) == 0 else { return }
        var builder = Builder()
        switch gdal.OGR_GT_Flatten(gdal.OGR_G_GetGeometryType(geometry)) {
        case wkbPoint:
            builder.addPoints(geometry)
            try geometries.append(builder.build(.point, projector))
        case wkbMultiPoint:
            for member in members(geometry) { builder.addPoints(member) }
            try geometries.append(builder.build(.point, projector))
        case wkbLineString:
            builder.addPart(geometry)
            try geometries.append(builder.build(.line, projector))
        case wkbMultiLineString:
            for member in members(geometry) { builder.addPart(member) }
            try geometries.append(builder.build(.line, projector))
        case wkbPolygon:
            builder.addPolygon(geometry)
            try geometries.append(builder.build(.polygon, projector))
        case wkbMultiPolygon:
            for member in members(geometry) { builder.addPolygon(member) }
            try geometries.append(builder.build(.polygon, projector))
        case wkbGeometryCollection:
            for member in members(geometry) { try append(member, to: &geometries) }
        default:
            try appendApproximated(geometry, to: &geometries)
        }
    }

    private func appendApproximated(_ geometry: UnsafeMutableRawPointer, to geometries: inout [Geometry])
        throws(TransformFailure)
    {
        let type = gdal.OGR_GT_Flatten(gdal.OGR_G_GetGeometryType(geometry))
        var simple: UnsafeMutableRawPointer?
        if gdal.OGR_G_HasCurveGeometry(geometry, 1) != 0 {
            simple = gdal.OGR_G_GetLinearGeometry(geometry, 0, nil)
        } else if [wkbTriangle, wkbTIN, wkbPolyhedralSurface].contains(type) {
            simple = gdal.OGR_G_ForceTo(gdal.OGR_G_Clone(geometry), wkbMultiPolygon, nil)
        }
        guard let simple else {
            throw TransformFailure(
                "a geometry of type \(String(cString: gdal.OGR_G_GetGeometryName(geometry)!)) cannot be drawn")
        }
        defer { gdal.OGR_G_DestroyGeometry(simple) }
        let simpleType = gdal.OGR_GT_Flatten(gdal.OGR_G_GetGeometryType(simple))
        guard
            [
                wkbPoint, wkbMultiPoint, wkbLineString, wkbMultiLineString, wkbPolygon, wkbMultiPolygon,
                wkbGeometryCollection,
            ].contains(simpleType)
        else {
            throw TransformFailure(
                "a geometry of type \(String(cString: gdal.OGR_G_GetGeometryName(geometry)!)) cannot be drawn")
        }
        try append(simple, to: &geometries)
    }

    private func members(_ geometry: UnsafeMutableRawPointer) -> [UnsafeMutableRawPointer] {
        (0..<gdal.OGR_G_GetGeometryCount(geometry)).compactMap { gdal.OGR_G_GetGeometryRef(geometry, $0) }
    }

    /// Collects a geometry's vertices in the flat layout of `Geometry`.
    private struct Builder {
        var coordinates: [Double] = []
        var partStarts: [Int] = [0]
        var polygonStarts: [Int] = [0]

        /// A point's vertex (or a line's, for a multipoint read vertex by vertex), each a part.
        mutating func addPoints(_ geometry: UnsafeMutableRawPointer) {
            guard gdal.OGR_G_IsEmpty(geometry) == 0 else { return }
            for i in 0..<gdal.OGR_G_GetPointCount(geometry) {
                coordinates.append(gdal.OGR_G_GetX(geometry, i))
                coordinates.append(gdal.OGR_G_GetY(geometry, i))
                partStarts.append(coordinates.count / 2)
            }
        }

        /// A line or a ring as one part, its vertices copied in one call.
        mutating func addPart(_ geometry: UnsafeMutableRawPointer) {
            let count = Int(gdal.OGR_G_GetPointCount(geometry))
            guard count > 0 else { return }
            let start = coordinates.count
            coordinates.append(contentsOf: repeatElement(0, count: 2 * count))
            coordinates.withUnsafeMutableBufferPointer { buffer in
                let base = buffer.baseAddress! + start
                _ = gdal.OGR_G_GetPoints(geometry, base, 16, base + 1, 16, nil, 0)
            }
            partStarts.append(coordinates.count / 2)
        }

        mutating func addPolygon(_ polygon: UnsafeMutableRawPointer) {
            let before = partStarts.count
            let rings = (0..<gdal.OGR_G_GetGeometryCount(polygon)).compactMap { gdal.OGR_G_GetGeometryRef(polygon, $0) }
            for ring in rings { addPart(ring) }
            if partStarts.count > before { polygonStarts.append(partStarts.count - 1) }
        }

        mutating func build(_ kind: Geometry.Kind, _ projector: MercatorProjector) throws(TransformFailure)
            -> Geometry
        {
            do { try projector.toWebMercator(&coordinates) } catch let failure as TransformFailure {
                throw failure
            } catch {
                throw TransformFailure("\(error)")
            }
            return Geometry(
                kind: kind, coordinates: coordinates, partStarts: partStarts,
                polygonStarts: kind == .polygon ? polygonStarts : [])
        }
    }
}

/// A layer's attribute fields, read as `PropertyValue`s the way GeoJSON's are.
struct OGRAttributes {
    struct Field {
        let name: String
        let type: OGRFieldType
        let subtype: OGRFieldSubType

        var isNumber: Bool { [OFTInteger, OFTInteger64, OFTReal].contains(type) && subtype != OFSTBoolean }
    }

    let fields: [Field]

    init(fields: [Field]) {
        self.fields = fields
    }

    init(layer: UnsafeMutableRawPointer) {
        let definition = gdal.OGR_L_GetLayerDefn(layer)
        fields = (0..<gdal.OGR_FD_GetFieldCount(definition)).map { i in
            let field = gdal.OGR_FD_GetFieldDefn(definition, i)
            return Field(
                name: String(cString: gdal.OGR_Fld_GetNameRef(field)!), type: gdal.OGR_Fld_GetType(field),
                subtype: gdal.OGR_Fld_GetSubType(field))
        }
    }

    /// Unset fields (a GeoJSON feature without the key) are left out; null fields are `.null`.
    func properties(_ handle: UnsafeMutableRawPointer) -> Properties {
        var entries: [(key: String, value: PropertyValue)] = []
        entries.reserveCapacity(fields.count)
        for (i, field) in fields.enumerated() where gdal.OGR_F_IsFieldSet(handle, Int32(i)) != 0 {
            if let value = value(handle, Int32(i), field) { entries.append((field.name, value)) }
        }
        return Properties(entries)
    }

    private func value(_ feature: UnsafeMutableRawPointer, _ i: Int32, _ field: Field) -> PropertyValue? {
        if gdal.OGR_F_IsFieldNull(feature, i) != 0 { return .null }
        switch field.type {
        case OFTInteger:
            let n = gdal.OGR_F_GetFieldAsInteger(feature, i)
            return field.subtype == OFSTBoolean ? .bool(n != 0) : .number(Double(n))
        case OFTInteger64: return .number(Double(gdal.OGR_F_GetFieldAsInteger64(feature, i)))
        case OFTReal: return .number(gdal.OGR_F_GetFieldAsDouble(feature, i))
        case OFTString:
            let text = String(cString: gdal.OGR_F_GetFieldAsString(feature, i)!)
            // GeoJSON's nested objects and arrays: kept as compact JSON text, as our reader does.
            if field.subtype == OFSTJSON, let json = try? JSONParser.parse(Array(text.utf8), file: "") {
                return .string(JSONWriter.text(json))
            }
            return .string(text)
        case OFTDate, OFTDateTime, OFTTime: return .string(dateText(feature, i, field.type))
        case OFTIntegerList:
            var count: Int32 = 0
            let items = gdal.OGR_F_GetFieldAsIntegerList(feature, i, &count)
            return list((0..<Int(count)).map { .number(Double(items![$0])) }, boolean: field.subtype == OFSTBoolean)
        case OFTInteger64List:
            var count: Int32 = 0
            let items = gdal.OGR_F_GetFieldAsInteger64List(feature, i, &count)
            return list((0..<Int(count)).map { .number(Double(items![$0])) })
        case OFTRealList:
            var count: Int32 = 0
            let items = gdal.OGR_F_GetFieldAsDoubleList(feature, i, &count)
            return list((0..<Int(count)).map { .number(items![$0]) })
        case OFTStringList:
            let items = gdal.OGR_F_GetFieldAsStringList(feature, i)
            var values: [JSONValue] = []
            var p = items
            while let item = p?.pointee {
                values.append(.string(String(cString: item)))
                p = p! + 1
            }
            return list(values)
        default:
            return nil  // binary: nothing a filter or a label can use
        }
    }

    private func list(_ items: [JSONValue], boolean: Bool = false) -> PropertyValue {
        let values = boolean ? items.map { $0 == .number(0) ? JSONValue.bool(false) : .bool(true) } : items
        return .string(JSONWriter.text(.array(values)))
    }

    /// ISO 8601, as the text GeoJSON files hold: `2024-05-01`, `2024-05-01T12:30:00Z`, `12:30:00`.
    private func dateText(_ feature: UnsafeMutableRawPointer, _ i: Int32, _ type: OGRFieldType) -> String {
        var year: Int32 = 0
        var month: Int32 = 0
        var day: Int32 = 0
        var hour: Int32 = 0
        var minute: Int32 = 0
        var second: Float = 0
        var zone: Int32 = 0
        _ = gdal.OGR_F_GetFieldAsDateTimeEx(feature, i, &year, &month, &day, &hour, &minute, &second, &zone)
        let date = String(format: "%04d-%02d-%02d", year, month, day)
        let whole = second.rounded(.down)
        let seconds =
            second == whole ? String(format: "%02d", Int(whole)) : String(format: "%06.3f", Double(second))
        let time = String(format: "%02d:%02d:", hour, minute) + seconds
        switch type {
        case OFTDate: return date
        case OFTTime: return time
        default:
            // OGR's time zone flag: 0 unknown, 1 local time, 100 UTC, 100 ± n for n quarter hours.
            var suffix = ""
            if zone == 100 {
                suffix = "Z"
            } else if zone > 1 {
                let minutes = Int(zone - 100) * 15
                suffix = String(format: "%@%02d:%02d", minutes < 0 ? "-" : "+", abs(minutes) / 60, abs(minutes) % 60)
            }
            return date + "T" + time + suffix
        }
    }

}
