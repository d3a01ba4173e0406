import Foundation
import Raster
import Synchronization

/// Reads a PMTiles v3 archive: the header, the JSON metadata, and tiles by z/x/y or all in
/// tile-ID order.
///
/// The root directory is read when the archive is opened; leaf directories are read as
/// lookups need them and a few are kept. Every offset and length read from the file is
/// checked against the file before it is used, and directories may expand to at most
/// `maxDirectoryBytes`, so a corrupt or hostile archive gives a `PMTilesError`, never a crash
/// or an unbounded allocation. Lookups may run on several threads at once.
public final class PMTilesReader: Sendable {
    public let path: String
    public let header: PMTilesHeader
    private let file: ReadOnlyFile
    private let root: [PMTilesEntry]
    /// Leaf directories by offset in the leaf section.
    private let leaves = Mutex<[UInt64: [PMTilesEntry]]>([:])

    /// A directory larger than this once decompressed is refused (a leaf of a million entries
    /// is well under it).
    static let maxDirectoryBytes = 64 << 20
    /// Leaf directories kept in memory.
    static let cachedLeaves = 64
    /// Directory levels followed below the root before giving up (the spec sets no limit;
    /// writers use one level, and four cover any pyramid).
    static let maxDepth = 4

    public init(path: String) throws(PMTilesError) {
        self.path = path
        do { file = try ReadOnlyFile(path: path) } catch {
            throw PMTilesError(path: path, problem: "cannot read it (\(error.reason))")
        }
        let start = try Self.read(file, at: 0, count: min(file.size, UInt64(PMTilesHeader.size)), path: path)
        let header = try PMTilesHeader(parsing: start, path: path)
        guard header.internalCompression == .gzip || header.internalCompression == .none else {
            throw PMTilesError(
                path: path, offset: 97,
                problem: "directories compressed with \(header.internalCompression) are not supported (gzip or none)")
        }
        let size = file.size
        for (name, offset, length) in [
            ("root directory", header.rootOffset, header.rootLength),
            ("metadata", header.metadataOffset, header.metadataLength),
            ("leaf directories", header.leafDirectoriesOffset, header.leafDirectoriesLength),
            ("tile data", header.tileDataOffset, header.tileDataLength),
        ] {
            let (end, overflow) = offset.addingReportingOverflow(length)
            guard !overflow, end <= size else {
                throw PMTilesError(
                    path: path, offset: offset,
                    problem: "the \(name) (\(length) bytes) runs past the end of the \(size)-byte file")
            }
        }
        self.header = header
        root = try Self.directory(
            file, header: header, at: header.rootOffset, length: header.rootLength, name: "root directory", path: path)
    }

    /// The bytes of tile `tile`, or nil when the archive does not have it.
    public func tile(_ tile: TileID) throws(PMTilesError) -> [UInt8]? {
        guard tile.z >= 0, tile.z <= TileID.deepestPMTilesZoom, tile.x >= 0, tile.y >= 0, tile.x < 1 << tile.z,
            tile.y < 1 << tile.z
        else { return nil }
        let id = tile.pmtilesID
        var entries = root
        for _ in 0...PMTilesReader.maxDepth {
            guard let entry = PMTilesDirectory.find(id, in: entries) else { return nil }
            guard entry.isLeaf else { return try data(of: entry) }
            entries = try leaf(at: entry.offset, length: entry.length)
        }
        throw PMTilesError(
            path: path, offset: header.leafDirectoriesOffset,
            problem: "leaf directories nest deeper than \(PMTilesReader.maxDepth) levels")
    }

    /// The JSON metadata, decompressed.
    public func metadataJSON() throws(PMTilesError) -> [UInt8] {
        let raw = try Self.read(file, at: header.metadataOffset, count: header.metadataLength, path: path)
        guard header.internalCompression == .gzip else { return raw }
        do { return try GzipDecompressor().decompress(raw, limit: PMTilesReader.maxDirectoryBytes) } catch {
            throw PMTilesError(path: path, offset: header.metadataOffset, problem: "metadata: \(error.message)")
        }
    }

    /// Calls `body` with every tile in tile-ID order, each tile of a run with the same bytes
    /// (read once per entry). One leaf directory is in memory at a time.
    public func forEachTile(_ body: (TileID, [UInt8]) throws -> Void) throws {
        try walk(root, depth: 0, readingData: true, body)
    }

    /// Calls `body` with every tile's ID in tile-ID order, reading no tile data.
    public func forEachTileID(_ body: (TileID) throws -> Void) throws {
        try walk(root, depth: 0, readingData: false) { tile, _ in try body(tile) }
    }

    private func walk(
        _ entries: [PMTilesEntry], depth: Int, readingData: Bool, _ body: (TileID, [UInt8]) throws -> Void
    ) throws {
        for entry in entries {
            if entry.isLeaf {
                guard depth < PMTilesReader.maxDepth else {
                    throw PMTilesError(
                        path: path, offset: header.leafDirectoriesOffset + entry.offset,
                        problem: "leaf directories nest deeper than \(PMTilesReader.maxDepth) levels")
                }
                let leaf = try Self.directory(
                    file, header: header, at: header.leafDirectoriesOffset + entry.offset,
                    length: UInt64(entry.length), name: "leaf directory", path: path,
                    section: (header.leafDirectoriesOffset, header.leafDirectoriesLength))
                try walk(leaf, depth: depth + 1, readingData: readingData, body)
                continue
            }
            let bytes = readingData ? try data(of: entry) : []
            for i in 0..<UInt64(entry.runLength) {
                guard let tile = TileID(pmtilesID: entry.tileID + i) else {
                    throw PMTilesError(
                        path: path, problem: "tile ID \(entry.tileID + i) lies beyond zoom \(TileID.deepestPMTilesZoom)"
                    )
                }
                try body(tile, bytes)
            }
        }
    }

    private func data(of entry: PMTilesEntry) throws(PMTilesError) -> [UInt8] {
        let (end, overflow) = entry.offset.addingReportingOverflow(UInt64(entry.length))
        guard !overflow, end <= header.tileDataLength else {
            throw PMTilesError(
                path: path, offset: header.tileDataOffset,
                problem:
                    "tile \(entry.tileID) (\(entry.length) bytes at \(entry.offset)) lies outside the \(header.tileDataLength)-byte tile data"
            )
        }
        return try Self.read(file, at: header.tileDataOffset + entry.offset, count: UInt64(entry.length), path: path)
    }

    private func leaf(at offset: UInt64, length: UInt32) throws(PMTilesError) -> [PMTilesEntry] {
        if let cached = leaves.withLock({ $0[offset] }) { return cached }
        let entries = try Self.directory(
            file, header: header, at: header.leafDirectoriesOffset + offset, length: UInt64(length),
            name: "leaf directory", path: path, section: (header.leafDirectoriesOffset, header.leafDirectoriesLength))
        leaves.withLock { leaves in
            if leaves.count >= PMTilesReader.cachedLeaves { leaves.removeAll(keepingCapacity: true) }
            leaves[offset] = entries
        }
        return entries
    }

    /// Reads, decompresses and parses the directory at `offset`, which must lie in `section`.
    private static func directory(
        _ file: ReadOnlyFile, header: PMTilesHeader, at offset: UInt64, length: UInt64, name: String, path: String,
        section: (offset: UInt64, length: UInt64)? = nil
    ) throws(PMTilesError) -> [PMTilesEntry] {
        if let section {
            let (end, overflow) = offset.addingReportingOverflow(length)
            guard !overflow, offset >= section.offset, end <= section.offset + section.length else {
                throw PMTilesError(
                    path: path, offset: section.offset,
                    problem: "a \(name) (\(length) bytes at \(offset)) lies outside the leaf directory section")
            }
        }
        guard length <= UInt64(maxDirectoryBytes) else {
            throw PMTilesError(path: path, offset: offset, problem: "\(name) of \(length) bytes is too large")
        }
        var bytes = try read(file, at: offset, count: length, path: path)
        do {
            if header.internalCompression == .gzip {
                bytes = try GzipDecompressor().decompress(bytes, limit: maxDirectoryBytes)
            }
            return try PMTilesDirectory.parse(bytes)
        } catch {
            throw PMTilesError(path: path, offset: offset, problem: "\(name): \(error.message)")
        }
    }

    private static func read(_ file: ReadOnlyFile, at offset: UInt64, count: UInt64, path: String) throws(PMTilesError)
        -> [UInt8]
    {
        let bytes: [UInt8]
        do { bytes = try file.read(at: offset, count: Int(count)) } catch {
            throw PMTilesError(path: path, offset: offset, problem: "cannot read it (\(error.reason))")
        }
        guard bytes.count == Int(count) else {
            throw PMTilesError(path: path, offset: offset, problem: "the file ends inside a section")
        }
        return bytes
    }
}
