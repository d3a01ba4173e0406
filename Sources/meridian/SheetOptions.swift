import DataSources
import Foundation
import Geodesy
import Sheets

/// Parsing of the sheet's own options: `--paper`, `--orientation`, `--grid`.
enum SheetOptions {
    /// A named size (any letter case) or `WIDTHxHEIGHTmm` (the `mm` may be left out).
    static func paper(_ text: String) throws -> Paper {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let paper = Paper.standard(named: trimmed) { return paper }
        var body = Substring(trimmed.lowercased())
        if body.hasSuffix("mm") { body = body.dropLast(2) }
        let parts = body.split(separator: "x", omittingEmptySubsequences: false)
        if parts.count == 2, let width = Double(parts[0]), let height = Double(parts[1]),
            let paper = try? Paper.custom(width: width, height: height)
        {
            return paper
        }
        let names = Paper.named.map(\.name).joined(separator: ", ")
        throw UsageError(
            "unknown paper size '\(text)' (use \(names) or WIDTHxHEIGHTmm such as 420x297mm, at most \(Int(Paper.maxSide)) mm a side)"
        )
    }

    static func orientation(_ text: String) throws -> Orientation {
        guard let orientation = Orientation(rawValue: text.lowercased()) else {
            throw UsageError("unknown orientation '\(text)' (use portrait or landscape)")
        }
        return orientation
    }

    /// `--crs CODE`: the projected CRS to draw the sheet in; nil for the UTM zone of the centre.
    static func crs(_ arguments: Arguments) throws -> ProjectedPlane? {
        guard let code = try arguments.value("crs") else { return nil }
        do { return try ProjectedPlane.projected(crs: code) } catch {
            throw UsageError("--crs \(code): \(error.message)")
        }
    }

    /// A grid type (any letter case) or `none`.
    static func grid(_ text: String) throws -> SheetRequest.Grid {
        if text.lowercased() == "none" { return .none }
        guard let type = GridType(rawValue: text.lowercased()) else {
            throw UsageError("unknown grid type '\(text)' (use latlong, utm, mgrs, usng, crs or none)")
        }
        return .type(type)
    }
}
