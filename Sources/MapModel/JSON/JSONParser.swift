/// A strict RFC 8259 JSON parser over UTF-8 bytes, building the whole tree (map documents,
/// small attribute values). Written here rather than using JSONSerialization because we need
/// line:column positions in syntax errors, exact numbers (no Bool/NSNumber confusion),
/// duplicate-key detection and ordered objects. The scanning is `JSONStream`'s, which also
/// reads large files value by value (GeoJSON).
public enum JSONParser {
    /// Arrays and objects nest at most this deep: the parser (and the decoders after it)
    /// recurse once per level, and a debug build takes about 3 KB of stack a level, so this
    /// keeps the deepest document within a 512 KiB thread stack. Real documents nest under
    /// 20 levels. docs/limits.md.
    public static let maxDepth = 100

    /// Parses a whole document; anything after the top-level value is an error.
    public static func parse(_ data: [UInt8], file: String) throws -> JSONValue {
        let stream = JSONStream(bytes: data, file: file)
        let value = try stream.readValue()
        try stream.finish()
        return value
    }
}
