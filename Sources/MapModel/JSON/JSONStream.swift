import FileInput
import Foundation

/// A strict RFC 8259 JSON reader that pulls a document apart value by value, from memory or
/// from a file read in chunks of a megabyte, so that a GeoJSON file of millions of features is
/// never held whole, as bytes or as a tree. `JSONParser` builds whole trees on it (map
/// documents); the GeoJSON reader walks features one by one and reads their coordinates
/// straight into flat arrays.
///
/// Syntax errors name the line and the column (in characters) where they are, as
/// `file: line 3, column 8: malformed JSON: ...`. Objects refuse duplicate keys, nesting stops
/// at `JSONParser.maxDepth` levels, numbers must be finite.
///
/// Reading: `kind()` says what the next value is; `readNumber`, `readString`, `readBool`,
/// `readNull` and `readValue` (a whole tree) take it; `enterObject` then `nextKey` until it
/// returns nil walks an object, `enterArray` then `nextElement` until false an array;
/// `skipValue` passes over one; `finish` checks that nothing follows the document. `mark` and
/// `seek` go back to a value already passed, to read it again (by re-reading the file there).
public final class JSONStream {
    public enum Kind: Sendable, Equatable { case object, array, string, number, bool, null }

    /// Where reading can go back to: a value's start, with the nesting around it.
    public struct Mark: Sendable {
        fileprivate let offset: Int
        fileprivate let line: Int
        fileprivate let column: Int
        fileprivate let containers: [Container]
    }

    fileprivate struct Container: Sendable {
        let isObject: Bool
        var first = true
        var keys: Set<String> = []
    }

    /// The file's name in messages.
    public let file: String
    /// The file read chunk by chunk, or nil when the whole document is in `buffer`.
    private let input: ReadableFile?
    private var buffer: [UInt8]
    private var index = 0
    /// The offset in the document of `buffer[0]`.
    private var bufferOffset = 0
    /// Line and column (in characters) of `buffer[0]`.
    private var bufferLine = 1
    private var bufferColumn = 1
    private var atEnd: Bool
    private var containers: [Container] = []
    /// The start of a token that reaches past the buffer: its line and column, kept when the
    /// buffer moves on, so that an error in it can point at its start.
    private var tokenStart: Int?
    private var tokenStartPlace: (line: Int, column: Int)?
    /// The characters of the number being read.
    private var digits: [UInt8] = []

    public static let chunkSize = 1 << 20

    /// A document held in memory.
    public init(bytes: [UInt8], file: String) {
        self.file = file
        input = nil
        buffer = bytes
        atEnd = true
        skipByteOrderMark()
    }

    /// A document read from a file, a chunk at a time. Throws a `DocumentError` (with no
    /// place) when the file cannot be opened or is not a regular file.
    public init(path: String, file: String) throws {
        self.file = file
        do { input = try ReadableFile(path: path) } catch {
            throw DocumentError(file: file, place: "", message: error.reason)
        }
        buffer = []
        atEnd = false
        _ = try refill()
        skipByteOrderMark()
    }

    // MARK: Reading values

    /// The kind of the next value (after any whitespace); an error when there is none.
    public func kind() throws -> Kind {
        skipWhitespace()
        guard let byte = peek() else { throw error("unexpected end of file, expected a value") }
        switch byte {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
        case UInt8(ascii: "n"): return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
        default: throw error("unexpected '\(describeByte())', expected a value")
        }
    }

    /// Enters the object that is the next value.
    public func enterObject() throws {
        try enter(UInt8(ascii: "{"), isObject: true)
    }

    /// Enters the array that is the next value.
    public func enterArray() throws {
        try enter(UInt8(ascii: "["), isObject: false)
    }

    /// The next key of the object being read (its value comes next), or nil after its last
    /// member (the object is then left).
    public func nextKey() throws -> String? {
        skipWhitespace()
        guard var container = containers.last, container.isObject else { preconditionFailure("not in an object") }
        if container.first {
            if peek() == UInt8(ascii: "}") {
                index += 1
                containers.removeLast()
                return nil
            }
        } else {
            switch peek() {
            case UInt8(ascii: ","):
                index += 1
                skipWhitespace()
            case UInt8(ascii: "}"):
                index += 1
                containers.removeLast()
                return nil
            case nil: throw error("unexpected end of file in an object")
            default: throw error("expected ',' or '}', found '\(describeByte())'")
            }
        }
        guard peek() == UInt8(ascii: "\"") else { throw error("expected a quoted key") }
        let start = bufferOffset + index
        let key = try readString()
        guard container.keys.insert(key).inserted else {
            // At the key, when it is still in the buffer.
            if start >= bufferOffset { index = start - bufferOffset }
            throw error("duplicate key \(DocumentError.quote(key))")
        }
        container.first = false
        containers[containers.count - 1] = container
        skipWhitespace()
        guard peek() == UInt8(ascii: ":") else { throw error("expected ':' after key \(DocumentError.quote(key))") }
        index += 1
        return key
    }

    /// Whether the array being read has another element (which comes next); false after its
    /// last (the array is then left).
    public func nextElement() throws -> Bool {
        skipWhitespace()
        guard let container = containers.last, !container.isObject else { preconditionFailure("not in an array") }
        if container.first {
            if peek() == UInt8(ascii: "]") {
                index += 1
                containers.removeLast()
                return false
            }
            containers[containers.count - 1].first = false
            return true
        }
        switch peek() {
        case UInt8(ascii: ","):
            index += 1
            return true
        case UInt8(ascii: "]"):
            index += 1
            containers.removeLast()
            return false
        case nil: throw error("unexpected end of file in an array")
        default: throw error("expected ',' or ']', found '\(describeByte())'")
        }
    }

    /// The next value as a whole tree.
    public func readValue() throws -> JSONValue {
        var budget = Int.max
        return try readValue(budget: &budget, limit: budget)
    }

    /// The next value as a whole tree of at most `limit` values (each number, string, array...
    /// counts one), so that one value of a large file cannot take memory without bound.
    public func readValue(limit: Int) throws -> JSONValue {
        var budget = limit
        return try readValue(budget: &budget, limit: limit)
    }

    private func readValue(budget: inout Int, limit: Int) throws -> JSONValue {
        let kind = try kind()
        budget -= 1
        guard budget >= 0 else {
            throw DocumentError(
                file: file, place: place(),
                message: "more than \(limit) JSON values in one feature, the limit (docs/limits.md)")
        }
        switch kind {
        case .object:
            try enterObject()
            var members: [JSONMember] = []
            while let key = try nextKey() {
                members.append(JSONMember(key: key, value: try readValue(budget: &budget, limit: limit)))
            }
            return .object(members)
        case .array:
            try enterArray()
            var elements: [JSONValue] = []
            while try nextElement() { elements.append(try readValue(budget: &budget, limit: limit)) }
            return .array(elements)
        case .string: return .string(try readString())
        case .number: return .number(try readNumber())
        case .bool: return .bool(try readBool())
        case .null:
            try readNull()
            return .null
        }
    }

    /// Passes over the next value, checking its syntax, keeping nothing.
    public func skipValue() throws {
        switch try kind() {
        case .object:
            try enterObject()
            while try nextKey() != nil { try skipValue() }
        case .array:
            try enterArray()
            while try nextElement() { try skipValue() }
        case .string: _ = try readString()
        case .number: _ = try readNumber()
        case .bool: _ = try readBool()
        case .null: try readNull()
        }
    }

    public func readBool() throws -> Bool {
        skipWhitespace()
        if peek() == UInt8(ascii: "t") {
            try expectWord("true")
            return true
        }
        try expectWord("false")
        return false
    }

    public func readNull() throws {
        skipWhitespace()
        try expectWord("null")
    }

    /// After the top-level value: nothing but whitespace may follow.
    public func finish() throws {
        skipWhitespace()
        if peek() != nil { throw error("unexpected '\(describeByte())' after the JSON value") }
    }

    // MARK: Going back

    /// The position of the next value, to come back to with `seek`.
    public func mark() -> Mark {
        skipWhitespace()
        let place = position(of: index)
        return Mark(offset: bufferOffset + index, line: place.line, column: place.column, containers: containers)
    }

    /// Goes back (or forward) to a marked position.
    public func seek(_ mark: Mark) throws {
        containers = mark.containers
        guard let input else {
            index = mark.offset
            return
        }
        guard lseek(input.descriptor, off_t(mark.offset), SEEK_SET) >= 0 else {
            throw error("cannot read the file again")
        }
        buffer = []
        index = 0
        bufferOffset = mark.offset
        bufferLine = mark.line
        bufferColumn = mark.column
        checkpoint = (0, bufferLine, bufferColumn)
        atEnd = false
        _ = try refill()
    }

    // MARK: Tokens

    /// The string that is the next value.
    public func readString() throws -> String {
        skipWhitespace()
        guard peek() == UInt8(ascii: "\"") else { throw error("expected a string") }
        beginToken()
        defer { endToken() }
        index += 1
        // Most strings are short and plain: decoded straight from the buffer.
        let plain = buffer.withUnsafeBufferPointer { bytes -> String?? in
            var end = index
            while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"),
                bytes[end] >= 0x20
            {
                end += 1
            }
            guard end < bytes.count, bytes[end] == UInt8(ascii: "\"") else { return nil }
            let text = String(validating: UnsafeBufferPointer(rebasing: bytes[index..<end]), as: UTF8.self)
            if text != nil { index = end + 1 }
            return .some(text)
        }
        if let plain {
            guard let text = plain else { throw error("invalid UTF-8 in a string") }
            return text
        }
        var raw: [UInt8] = []
        var scalars: String.UnicodeScalarView?
        var runStart = index
        while true {
            if index == buffer.count {
                raw.append(contentsOf: buffer[runStart..<index])
                guard try refill() else { throw errorAtToken("unterminated string") }
                runStart = index
            }
            let byte = buffer[index]
            if byte == UInt8(ascii: "\"") {
                raw.append(contentsOf: buffer[runStart..<index])
                index += 1
                let text = try decodeUTF8(raw)
                guard var built = scalars else { return text }
                built.append(contentsOf: text.unicodeScalars)
                return String(built)
            }
            if byte < 0x20 { throw error("control character in a string (escape it)") }
            if byte == UInt8(ascii: "\\") {
                raw.append(contentsOf: buffer[runStart..<index])
                var built = scalars ?? String.UnicodeScalarView()
                built.append(contentsOf: try decodeUTF8(raw).unicodeScalars)
                raw.removeAll(keepingCapacity: true)
                index += 1
                built.append(try readEscape())
                scalars = built
                runStart = index
                continue
            }
            index += 1
        }
    }

    /// The number that is the next value.
    public func readNumber() throws -> Double {
        skipWhitespace()
        // Most numbers (a GeoJSON file is mostly coordinates) lie whole in the buffer and are
        // well formed: scanned there in one pass, without collecting their characters one by
        // one. Anything else (a number cut by the chunk's end, a malformed one) is read below,
        // which also words the errors.
        if let end = scanNumber() {
            let text = buffer.withUnsafeBufferPointer { bytes in
                String(decoding: UnsafeBufferPointer(rebasing: bytes[index..<end]), as: UTF8.self)
            }
            if let value = Double(text), value.isFinite {
                index = end
                return value
            }
        }
        beginToken()
        defer { endToken() }
        digits.removeAll(keepingCapacity: true)
        if peek() == UInt8(ascii: "-") { take() }
        guard let first = peek(), isDigit(first) else { throw error("invalid number") }
        if first == UInt8(ascii: "0") {
            take()
            if let next = peek(), isDigit(next) { throw error("invalid number (leading zero)") }
        } else {
            takeDigits()
        }
        if peek() == UInt8(ascii: ".") {
            take()
            guard let next = peek(), isDigit(next) else { throw error("invalid number (digit expected after '.')") }
            takeDigits()
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            take()
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { take() }
            guard let next = peek(), isDigit(next) else { throw error("invalid number (digit expected in exponent)") }
            takeDigits()
        }
        // Coordinates have at most 15 characters or so: a small string, kept inline.
        let text = String(decoding: digits, as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw errorAtToken(
                "number \(text.count > DocumentError.maxQuotedCharacters ? DocumentError.quote(text) : text) is out of range"
            )
        }
        return value
    }

    /// The end of the number starting at `index` when all of it lies in the buffer (nothing
    /// can follow in a chunk not yet read) and it is well formed; nil otherwise.
    private func scanNumber() -> Int? {
        buffer.withUnsafeBufferPointer { bytes -> Int? in
            let count = bytes.count
            var i = index
            @inline(__always) func digit(_ at: Int) -> Bool {
                at < count && bytes[at] >= UInt8(ascii: "0") && bytes[at] <= UInt8(ascii: "9")
            }
            if i < count, bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard digit(i) else { return nil }
            if bytes[i] == UInt8(ascii: "0") {
                i += 1
                if digit(i) { return nil }
            } else {
                while digit(i) { i += 1 }
            }
            if i < count, bytes[i] == UInt8(ascii: ".") {
                i += 1
                guard digit(i) else { return nil }
                while digit(i) { i += 1 }
            }
            if i < count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
                i += 1
                if i < count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
                guard digit(i) else { return nil }
                while digit(i) { i += 1 }
            }
            guard i < count || atEnd else { return nil }
            return i
        }
    }

    @inline(__always) private func take() {
        digits.append(buffer[index])
        index += 1
    }

    private func takeDigits() {
        while let byte = peek(), isDigit(byte) { take() }
    }

    private func readEscape() throws -> Unicode.Scalar {
        guard let byte = peek() else { throw error("unterminated escape") }
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let high = try readHex4()
            if (0xD800...0xDBFF).contains(high) {
                // A surrogate pair: \uD83D\uDE00.
                guard peek() == UInt8(ascii: "\\") else { throw error("unpaired surrogate in \\u escape") }
                index += 1
                guard peek() == UInt8(ascii: "u") else { throw error("unpaired surrogate in \\u escape") }
                index += 1
                let low = try readHex4()
                guard (0xDC00...0xDFFF).contains(low) else { throw error("unpaired surrogate in \\u escape") }
                return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
            }
            guard let scalar = Unicode.Scalar(high) else { throw error("unpaired surrogate in \\u escape") }
            return scalar
        default:
            index -= 1
            throw error("invalid escape '\\\(describeByte())'")
        }
    }

    private func readHex4() throws -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = peek() else { throw error("unterminated \\u escape") }
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("invalid hex digit in \\u escape")
            }
            value = value * 16 + digit
            index += 1
        }
        return value
    }

    private func decodeUTF8(_ bytes: [UInt8]) throws -> String {
        guard let text = String(validating: bytes, as: UTF8.self) else { throw error("invalid UTF-8 in a string") }
        return text
    }

    private func expectWord(_ word: StaticString) throws {
        beginToken()
        defer { endToken() }
        let start = index
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        for byte in expected {
            guard peek() == byte else {
                if tokenStartPlace == nil { index = start }
                throw errorAtToken("unexpected '\(describeByte())', expected a value")
            }
            index += 1
        }
    }

    @inline(__always) private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private func enter(_ opening: UInt8, isObject: Bool) throws {
        skipWhitespace()
        guard containers.count < JSONParser.maxDepth else {
            throw error("nesting deeper than \(JSONParser.maxDepth) levels")
        }
        guard peek() == opening else {
            throw error(
                peek() == nil
                    ? "unexpected end of file, expected a value" : "expected \(isObject ? "an object" : "an array")")
        }
        index += 1
        containers.append(Container(isObject: isObject))
    }

    // MARK: The buffer

    /// The next byte, reading a chunk when the buffer is used up; nil at the end.
    @inline(__always) private func peek() -> UInt8? {
        if index < buffer.count { return buffer[index] }
        // A read error surfaces as the end of the document, which is then malformed.
        return (try? refill()) == true ? buffer[index] : nil
    }

    private func skipWhitespace() {
        while true {
            // The buffer borrowed once, not at every byte (each access to a stored property of
            // a class is checked for exclusivity at run time).
            let (end, stopped) = buffer.withUnsafeBufferPointer { bytes -> (Int, Bool) in
                var i = index
                while i < bytes.count {
                    switch bytes[i] {
                    case 0x20, 0x0A, 0x0D, 0x09: i += 1
                    default: return (i, true)
                    }
                }
                return (i, false)
            }
            index = end
            if stopped { return }
            guard (try? refill()) == true else { return }
        }
    }

    /// Drops the bytes read (all of them: tokens that span chunks keep their own copy) and
    /// reads the next chunk. False at the end of the document.
    private func refill() throws -> Bool {
        guard index >= buffer.count, !atEnd else { return index < buffer.count }
        if let start = tokenStart, tokenStartPlace == nil { tokenStartPlace = position(of: start) }
        let end = position(of: buffer.count)
        bufferLine = end.line
        bufferColumn = end.column
        bufferOffset += buffer.count
        tokenStart = tokenStart.map { $0 - buffer.count }
        checkpoint = (0, bufferLine, bufferColumn)
        if buffer.count != JSONStream.chunkSize { buffer = [UInt8](repeating: 0, count: JSONStream.chunkSize) }
        guard let input else { preconditionFailure("a document in memory has no more to read") }
        var filled = 0
        while filled < buffer.count {
            let n: Int
            do {
                n = try buffer.withUnsafeMutableBytes { bytes in
                    try input.readSome(into: UnsafeMutableRawBufferPointer(rebasing: bytes[filled...]))
                }
            } catch let failure as InputError { throw DocumentError(file: file, place: "", message: failure.reason) }
            if n == 0 { break }
            filled += n
        }
        if filled < buffer.count {
            buffer.removeLast(buffer.count - filled)
            atEnd = true
        }
        index = 0
        return !buffer.isEmpty
    }

    private func skipByteOrderMark() {
        if buffer.count >= 3, buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF { index = 3 }
    }

    private func beginToken() {
        tokenStart = index
        tokenStartPlace = nil
    }

    private func endToken() {
        tokenStart = nil
        tokenStartPlace = nil
    }

    private func describeByte() -> String {
        guard let byte = peek() else { return "end of file" }
        return byte >= 0x20 && byte < 0x7F ? String(UnicodeScalar(byte)) : String(format: "\\x%02X", byte)
    }

    /// Line and column of a place in the buffer (or just past it), counted on from the last
    /// place asked for when it lies before: marks come in document order, so a buffer is
    /// scanned about once however many marks are taken in it.
    private func position(of end: Int) -> (line: Int, column: Int) {
        let end = min(end, buffer.count)
        var (start, line, column) = checkpoint.index <= end ? checkpoint : (0, bufferLine, bufferColumn)
        while start < end {
            let byte = buffer[start]
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
            start += 1
        }
        checkpoint = (end, line, column)
        return (line, column)
    }

    /// The last place `position(of:)` counted to in this buffer.
    private var checkpoint = (index: 0, line: 1, column: 1)

    /// The current position, as `line 3, column 8`.
    public func place() -> String {
        let place = position(of: index)
        return "line \(place.line), column \(place.column)"
    }

    /// A syntax error at the current position.
    public func error(_ message: String) -> DocumentError {
        DocumentError(file: file, place: place(), message: "malformed JSON: " + message)
    }

    /// A syntax error at the start of the token being read (a string or number that is not one).
    private func errorAtToken(_ message: String) -> DocumentError {
        let place = tokenStartPlace ?? tokenStart.map { position(of: $0) } ?? position(of: index)
        return DocumentError(
            file: file, place: "line \(place.line), column \(place.column)", message: "malformed JSON: " + message)
    }
}
