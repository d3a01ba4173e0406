import Foundation
import Render

/// Parsing of the view options shared by commands: `--bbox W,S,E,N`, `--center LON,LAT`,
/// `--scale DENOM`, `--size WxH`, `--dpi D`.
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

    /// The view of `render` and friends, from `--bbox` or `--center` + `--scale`, `--size`, `--dpi`.
    static func view(_ arguments: Arguments) throws -> View {
        let bbox = try arguments.value("bbox")
        let center = try arguments.value("center")
        let scale = try arguments.value("scale")
        let size = try self.size(try arguments.required("size"))
        let dpi = try arguments.value("dpi").map { try positiveNumber($0, option: "dpi") } ?? View.standardDPI
        switch (bbox, center) {
        case (let bbox?, nil):
            if scale != nil { throw UsageError("--scale goes with --center, not with --bbox") }
            let b = try self.bbox(bbox)
            return try View.fitting(
                west: b.west, south: b.south, east: b.east, north: b.north,
                width: size.width, height: size.height, dpi: dpi)
        case (nil, let center?):
            let c = try numbers(center, count: 2, option: "center", format: "LON,LAT in degrees")
            guard let scale else { throw UsageError("--center needs --scale DENOM") }
            return try View.centered(
                longitude: c[0], latitude: c[1], scale: try positiveNumber(scale, option: "scale"),
                width: size.width, height: size.height, dpi: dpi)
        case (nil, nil):
            throw UsageError("give the view as --bbox W,S,E,N or --center LON,LAT --scale DENOM")
        case (_?, _?):
            throw UsageError("give either --bbox or --center, not both")
        }
    }
}
