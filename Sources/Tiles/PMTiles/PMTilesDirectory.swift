/// One directory entry: `runLength` tiles from `tileID` on, all with the bytes at `offset`
/// (relative to the tile data section), or, when `runLength` is 0, a leaf directory at
/// `offset` (relative to the leaf section) whose first entry is `tileID`.
public struct PMTilesEntry: Sendable, Equatable {
    public var tileID: UInt64
    public var offset: UInt64
    public var length: UInt32
    public var runLength: UInt32

    public init(tileID: UInt64, offset: UInt64, length: UInt32, runLength: UInt32) {
        self.tileID = tileID
        self.offset = offset
        self.length = length
        self.runLength = runLength
    }

    /// A leaf directory, not tiles.
    public var isLeaf: Bool { runLength == 0 }
}

/// A directory's bytes before compression (PMTiles v3, "Directory Serialization"): the entry
/// count, then four columns of varints: tile ID deltas, run lengths, lengths, and offsets
/// (0 when an entry's data directly follows the previous entry's, else offset + 1).
enum PMTilesDirectory {
    static func serialize(_ entries: some Collection<PMTilesEntry>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(entries.count * 5 + 10)
        appendVarint(UInt64(entries.count), to: &out)
        var last: UInt64 = 0
        for entry in entries {
            appendVarint(entry.tileID - last, to: &out)
            last = entry.tileID
        }
        for entry in entries { appendVarint(UInt64(entry.runLength), to: &out) }
        for entry in entries { appendVarint(UInt64(entry.length), to: &out) }
        var previous: PMTilesEntry?
        for entry in entries {
            if let previous, entry.offset == previous.offset + UInt64(previous.length) {
                appendVarint(0, to: &out)
            } else {
                appendVarint(entry.offset + 1, to: &out)
            }
            previous = entry
        }
        return out
    }

    /// Parses a decompressed directory. Checks what would otherwise mislead a lookup: IDs
    /// that do not ascend, runs that overlap the next entry, zero lengths, numbers past their
    /// width. The message says what is wrong; the caller adds where.
    static func parse(_ bytes: [UInt8]) throws(DirectoryProblem) -> [PMTilesEntry] {
        var reader = VarintReader(bytes: bytes)
        let count = try reader.next("the entry count")
        // Every entry takes at least four bytes: a count beyond that is corrupt, and is
        // refused before anything is allocated for it.
        guard count <= UInt64(bytes.count / 4) else {
            throw DirectoryProblem("claims \(count) entries in \(bytes.count) bytes")
        }
        let n = Int(count)
        var entries = [PMTilesEntry](repeating: PMTilesEntry(tileID: 0, offset: 0, length: 0, runLength: 0), count: n)
        var id: UInt64 = 0
        for i in 0..<n {
            let delta = try reader.next("tile ID of entry \(i)")
            guard i == 0 || delta > 0 else { throw DirectoryProblem("entry \(i) repeats the tile ID \(id)") }
            let (sum, overflow) = id.addingReportingOverflow(delta)
            guard !overflow else { throw DirectoryProblem("tile ID of entry \(i) overflows 64 bits") }
            id = sum
            entries[i].tileID = id
        }
        for i in 0..<n { entries[i].runLength = try reader.next32("run length of entry \(i)") }
        for i in 0..<n {
            entries[i].length = try reader.next32("length of entry \(i)")
            guard entries[i].length > 0 else { throw DirectoryProblem("entry \(i) has length 0") }
        }
        for i in 0..<n {
            let value = try reader.next("offset of entry \(i)")
            if value == 0 {
                guard i > 0 else { throw DirectoryProblem("entry 0 has no offset") }
                entries[i].offset = entries[i - 1].offset + UInt64(entries[i - 1].length)
            } else {
                entries[i].offset = value - 1
            }
        }
        guard reader.atEnd else {
            throw DirectoryProblem("has \(bytes.count - reader.position) bytes after its entries")
        }
        for i in 0..<n where entries[i].runLength > 0 && i + 1 < n {
            let (end, overflow) = entries[i].tileID.addingReportingOverflow(UInt64(entries[i].runLength))
            guard !overflow, end <= entries[i + 1].tileID else {
                throw DirectoryProblem("the run of entry \(i) overlaps entry \(i + 1)")
            }
        }
        return entries
    }

    static func appendVarint(_ value: UInt64, to out: inout [UInt8]) {
        var v = value
        while v >= 0x80 {
            out.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        out.append(UInt8(v))
    }

    /// The entry (tile run or leaf) that holds `id`: the last entry starting at or before it,
    /// if it is a leaf or its run reaches `id`.
    static func find(_ id: UInt64, in entries: [PMTilesEntry]) -> PMTilesEntry? {
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].tileID <= id { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return nil }
        let entry = entries[low - 1]
        if entry.isLeaf || id - entry.tileID < UInt64(entry.runLength) { return entry }
        return nil
    }
}

/// What is wrong with a directory's bytes, without the where (the caller knows it).
struct DirectoryProblem: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

/// Little-endian base-128 varints, at most 10 bytes for 64 bits.
private struct VarintReader {
    let bytes: [UInt8]
    var position = 0

    var atEnd: Bool { position == bytes.count }

    mutating func next(_ what: @autoclosure () -> String) throws(DirectoryProblem) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard position < bytes.count else { throw DirectoryProblem("ends inside the \(what())") }
            let byte = bytes[position]
            position += 1
            guard shift < 64, shift < 63 || byte <= 1 else {
                throw DirectoryProblem("the \(what()) does not fit in 64 bits")
            }
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }

    mutating func next32(_ what: @autoclosure () -> String) throws(DirectoryProblem) -> UInt32 {
        let value = try next(what())
        guard value <= UInt64(UInt32.max) else { throw DirectoryProblem("the \(what()) does not fit in 32 bits") }
        return UInt32(value)
    }
}
