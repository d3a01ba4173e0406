import DataSources
import Foundation
import Geodesy
import Render

/// Parsing of the view options shared by commands: `--bbox W,S,E,N`, `--center LON,LAT`,
/// `--scale DENOM`, `--size WxH`, `--dpi D`, `--crs CODE`, `--bbox-crs X1,Y1,X2,Y2`.
enum ViewOptions {
    static func numbers(_ text: String, count: Int, option: String, format: String) throws -> [Double] {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        let values = parts.compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == count, values.count == count, values.allSatisfy(\.isFinite) else {
            throw UsageError("--\(option) expects \(format), got '\(text)'")
        }
        return values
    }

    static func bbox(_ text: String) throws -> (west: Double, south: Double, east: Double, north: Double) {
        let v = try numbers(text, count: 4, option: "bbox", format: "W,S,E,N in degrees")
        return (v[0], v[1], v[2], v[3])
    }

    static func size(_ text: String) throws -> (width: Int, height: Int) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]) else {
            throw UsageError("--size expects WIDTHxHEIGHT in pixels, got '\(text)'")
        }
        guard w > 0, h > 0 else { throw UsageError("--size \(text) is empty: width and height must be at least 1") }
        return (w, h)
    }

    static func positiveNumber(_ text: String, option: String) throws -> Double {
        guard let value = Double(text), value.isFinite, value > 0 else {
            throw UsageError("--\(option) expects a positive number, got '\(text)'")
        }
        return value
    }

    /// `--crs CODE`: the plane of that CRS; nil for Web Mercator (the default, and what
    /// EPSG:3857 names), so that a Web Mercator render is the same whether asked for or not.
    static func plane(_ arguments: Arguments) throws -> ProjectedPlane? {
        guard let code = try arguments.value("crs") else { return nil }
        let plane: ProjectedPlane
        do { plane = try ProjectedPlane(crs: code) } catch { throw UsageError("--crs \(code): \(error.message)") }
        return plane.isWebMercator ? nil : plane
    }

    /// The view of `render` and friends, from `--bbox`, `--bbox-crs` or `--center` + `--scale`,
    /// `--size`, `--dpi` and `--crs`.
    static func view(_ arguments: Arguments) throws -> View {
        let bbox = try arguments.value("bbox")
        let planeBox = try arguments.value("bbox-crs")
        let center = try arguments.value("center")
        let scale = try arguments.value("scale")
        let size = try self.size(try arguments.required("size"))
        let dpi = try arguments.value("dpi").map { try positiveNumber($0, option: "dpi") } ?? View.standardDPI
        let plane = try self.plane(arguments)
        switch (bbox, planeBox, center) {
        case (let bbox?, nil, nil):
            if scale != nil { throw UsageError("--scale goes with --center, not with --bbox") }
            let b = try self.bbox(bbox)
            return try View.fitting(
                west: b.west, south: b.south, east: b.east, north: b.north,
                width: size.width, height: size.height, dpi: dpi, plane: plane)
        case (nil, let planeBox?, nil):
            if scale != nil { throw UsageError("--scale goes with --center, not with --bbox-crs") }
            let v = try numbers(planeBox, count: 4, option: "bbox-crs", format: "X1,Y1,X2,Y2 in the units of --crs")
            guard v[0] < v[2], v[1] < v[3] else {
                throw UsageError("--bbox-crs \(planeBox) is empty: it is X1,Y1,X2,Y2 with X1 < X2 and Y1 < Y2")
            }
            // Plane metres (a CRS in feet or degrees is scaled; one with west or south axes flipped).
            let a = plane?.plane(x: v[0], y: v[1]) ?? PlanePoint(x: v[0], y: v[1])
            let b = plane?.plane(x: v[2], y: v[3]) ?? PlanePoint(x: v[2], y: v[3])
            let rect = Rect.empty.including(a).including(b)
            return try View.fitting(planeRect: rect, width: size.width, height: size.height, dpi: dpi, plane: plane)
        case (nil, nil, let center?):
            let c = try numbers(center, count: 2, option: "center", format: "LON,LAT in degrees")
            guard let scale else { throw UsageError("--center needs --scale DENOM") }
            return try View.centered(
                longitude: c[0], latitude: c[1], scale: try positiveNumber(scale, option: "scale"),
                width: size.width, height: size.height, dpi: dpi, plane: plane)
        case (nil, nil, nil):
            throw UsageError(
                "give the view as --bbox W,S,E,N, --bbox-crs X1,Y1,X2,Y2 or --center LON,LAT --scale DENOM")
        default:
            throw UsageError("give one of --bbox, --bbox-crs and --center, not several")
        }
    }
}
