import Foundation
import MapModel
import Raster

/// `--annotation JSON-or-FILE` (`meridian sheet`, `meridian grid`): a grid `annotation` object
/// given on the command line, inline (`'{"format": "DM"}'`) or as a file, read as the map
/// document's `grid.annotation` is, with errors naming where they are.
enum AnnotationOption {
    /// The annotation read from `text` onto `settings`.
    static func settings(_ text: String, onto settings: GridSettings, labelFormatGiven: Bool) throws -> GridSettings {
        let inline = text.trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix("{")
        let file = inline ? "--annotation" : text
        let bytes: [UInt8]
        if inline {
            bytes = Array(text.utf8)
        } else {
            do { bytes = try FileIO.readBytes(atPath: text, limit: 1 << 20) } catch {
                throw UsageError("--annotation \(text): \(error.reason)")
            }
        }
        do {
            let value = try JSONParser.parse(bytes, file: file)
            return try settings.annotated(JSONNode(value: value, file: file), labelFormatGiven: labelFormatGiven)
        } catch let error as DocumentError {
            throw UsageError(inline ? "\(error)" : "--annotation \(error)")
        }
    }
}
