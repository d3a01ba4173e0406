import Foundation
import Geodesy

/// A grid interval and offset written on the command line (`--interval 5'`,
/// `--interval 2000,1000 --offset 1000,0`): the same distances as the document's `interval`
/// and `offset` keys, read by the same rules.
extension GridInterval {
    /// The message of an error is the problem alone; the caller names the flag.
    public static func parse(
        interval: String, offset: String?, type: GridType, format: LatLongLabelFormat
    ) throws(DocumentError) -> GridInterval {
        func node(_ text: String, _ flag: String) -> JSONNode {
            let parts = text.split(separator: ",", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            // A plain number is a number (degrees or metres); anything else is an angle text.
            let values: [JSONValue] = parts.map { Double($0).map(JSONValue.number) ?? .string($0) }
            return JSONNode(value: values.count == 1 ? values[0] : .array(values), file: flag)
        }
        do {
            let (x, y) = try node(interval, "--interval").gridDistances(type: type, format: format, positive: true)
            var result = GridInterval(x: x, y: y)
            if let offset {
                let (ox, oy) = try node(offset, "--offset").gridDistances(type: type, format: format, positive: false)
                result.offsetX = ox
                result.offsetY = oy
            }
            return result
        } catch let error as DocumentError {
            throw DocumentError(file: error.file, place: "", message: error.message)
        } catch {
            throw DocumentError(file: "--interval", place: "", message: "\(error)")
        }
    }
}
