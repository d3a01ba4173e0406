import Foundation
import Raster

/// Writes a PMTiles v3 archive from tiles given in any order.
///
/// Tile bytes go to an anonymous scratch file beside the archive as they come, each distinct
/// content once (identical tiles, found by hash and confirmed byte for byte, share it); in
/// memory stay only 16 bytes per tile and about 40 per distinct content (its place and hash). `finish` sorts the tiles
/// by tile ID, folds runs of consecutive IDs with the same content into one entry, lays the
/// contents out in tile-ID order of their first use (a clustered archive), builds the root
/// directory, with leaf directories when the root alone would not fit in the first 16 KiB,
/// and writes header, root, metadata, leaves and tile data to a temporary file in the same
/// folder (an `AtomicFile`), renamed over `path` when complete. The bytes depend only on the
/// tiles, the header fields and the metadata given, never on the order the tiles came in.
///
/// A process killed while adding tiles leaves nothing (the scratch files have no name); one
/// killed inside `finish` may leave the `AtomicFile`'s hidden `.NAME.*.tmp`.
/// An archive without tiles has one empty root directory (PMTiles 3.1 asks for non-empty
/// directories, but there is nothing to list; the PyPI reader reads it as empty).
public final class PMTilesWriter {
    public let path: String
    private var scratch: ScratchFile?
    private var tiles: [Slot] = []
    private var contents: [Content] = []
    private var contentByHash: [ContentHash: UInt32] = [:]
    /// Where each content lies in the tile data section, once `finish` has laid them out.
    private var placed: [UInt64] = []
    /// Largest compressed root directory: header plus root stay under 16,384 bytes.
    let rootLimit: Int

    /// Bytes of tile data stored so far (each distinct content once).
    public private(set) var storedBytes = 0
    public var tileCount: Int { tiles.count }
    public var distinctCount: Int { contents.count }

    /// A tile and its content; `runLength` counts tiles once `finish` folds runs together.
    private struct Slot {
        var tileID: UInt64
        var content: UInt32
        var runLength: UInt32
    }

    private struct Content {
        var scratchOffset: UInt64
        var length: UInt32
    }

    public convenience init(path: String) throws(TilesError) {
        try self.init(path: path, rootLimit: 16_384 - PMTilesHeader.size - 1)
    }

    init(path: String, rootLimit: Int) throws(TilesError) {
        self.path = path
        self.rootLimit = rootLimit
        do throws(FileError) {
            try AtomicFile.checkTarget(path)
            let folder = (path as NSString).deletingLastPathComponent
            if !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) {
                throw FileError(path: path, operation: "write", reason: "the folder \(folder) does not exist")
            }
            scratch = try ScratchFile(path: PMTilesWriter.scratchPath(beside: path, "tiles"))
        } catch {
            throw .io(path: path, message: error.reason)
        }
    }

    /// A hidden, unique name beside the archive (same filesystem), unlinked once made.
    private static func scratchPath(beside path: String, _ tag: String) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        let unique = String(UInt64.random(in: 0...UInt64.max), radix: 36)
        return (folder.isEmpty ? "" : folder + "/") + "." + (path as NSString).lastPathComponent + "."
            + tag + "." + unique + ".tmp"
    }

    /// Adds `tile` with `data` (`hash`: its `ContentHash`, if the caller has it already).
    /// Returns whether the bytes were new, false when an earlier tile's are reused.
    @discardableResult
    public func add(_ tile: TileID, data: [UInt8], hash: ContentHash? = nil) throws(TilesError) -> Bool {
        guard let scratch else { throw .io(path: path, message: "the archive is already finished") }
        guard tile.z >= 0, tile.z <= TileID.deepestPMTilesZoom, tile.x >= 0, tile.y >= 0, tile.x < 1 << tile.z,
            tile.y < 1 << tile.z
        else {
            throw .tileNotStorable(path: path, tile: tile, problem: .outsideZoom(deepest: TileID.deepestPMTilesZoom))
        }
        guard !data.isEmpty, data.count <= Int(UInt32.max) else {
            throw .tileNotStorable(path: path, tile: tile, problem: .size(bytes: data.count, limit: Int(UInt32.max)))
        }
        let hash = hash ?? ContentHash(of: data)
        var index = contentByHash[hash]
        if let known = index {
            // Equal hashes are a hint: reuse the bytes only if they are the same.
            let stored = contents[Int(known)]
            var same = Int(stored.length) == data.count
            do {
                if same { same = try scratch.read(at: stored.scratchOffset, count: data.count) == data }
            } catch {
                throw .io(path: path, message: "cannot read back its scratch file (\(error.reason))")
            }
            if !same { index = nil }
        }
        let isNew = index == nil
        if isNew {
            guard contents.count < Int(UInt32.max) else {
                throw .tooManyDistinctTiles(path: path, limit: Int(UInt32.max))
            }
            let offset = scratch.size
            do { try scratch.append(data) } catch {
                throw .io(path: path, message: "cannot write its scratch file (\(error.reason))")
            }
            let added = UInt32(contents.count)
            contents.append(Content(scratchOffset: offset, length: UInt32(data.count)))
            if contentByHash[hash] == nil { contentByHash[hash] = added }
            storedBytes += data.count
            index = added
        }
        tiles.append(Slot(tileID: tile.pmtilesID, content: index!, runLength: 1))
        return isNew
    }

    /// Writes the archive and renames it over `path`. `header` gives the tile type, zooms,
    /// bounds and centre; the writer sets the offsets, lengths, counts and compression.
    /// `metadata` is the JSON metadata, stored gzip-compressed.
    public func finish(header template: PMTilesHeader, metadata: [UInt8]) throws(TilesError) {
        guard let scratch else { throw .io(path: path, message: "the archive is already finished") }
        defer { abandon() }
        let addressed = tiles.count
        contentByHash = [:]
        let layout = try layOut()
        let gzip = GzipCompressor()

        let output: ArchiveOutput
        let leaves: ScratchFile
        do {
            output = try ArchiveOutput(path: path)
            leaves = try ScratchFile(path: PMTilesWriter.scratchPath(beside: path, "leaves"))
        } catch {
            throw .io(path: path, message: "cannot create a temporary file beside it (\(error.reason))")
        }
        do {
            let root = try directories(gzip: gzip, leaves: leaves)
            let compressedMetadata = gzip.compress(metadata)
            var header = template
            header.rootOffset = UInt64(PMTilesHeader.size)
            header.rootLength = UInt64(root.count)
            header.metadataOffset = header.rootOffset + header.rootLength
            header.metadataLength = UInt64(compressedMetadata.count)
            header.leafDirectoriesOffset = header.metadataOffset + header.metadataLength
            header.leafDirectoriesLength = leaves.size
            header.tileDataOffset = header.leafDirectoriesOffset + header.leafDirectoriesLength
            header.tileDataLength = layout.dataLength
            header.addressedTiles = UInt64(addressed)
            header.tileEntries = UInt64(tiles.count)
            header.tileContents = UInt64(layout.contentCount)
            header.clustered = true
            header.internalCompression = .gzip
            try output.append(header.bytes)
            try output.append(root)
            try output.append(compressedMetadata)
            try output.append(from: leaves, offset: 0, length: leaves.size)
            // Each content once, at its first use in tile-ID order: that is where `layOut`
            // placed it, each one right after the one before.
            var next: UInt64 = 0
            for slot in tiles where placed[Int(slot.content)] == next {
                let content = contents[Int(slot.content)]
                try output.append(from: scratch, offset: content.scratchOffset, length: UInt64(content.length))
                next += UInt64(content.length)
            }
            try output.commit()
        } catch {
            throw .io(path: path, message: "cannot write the archive (\(error.reason))")
        }
    }

    /// Forgets the tiles and deletes the scratch file, leaving any earlier file at `path` as
    /// it was (a failed job leaves no partial archive).
    public func abandon() {
        scratch = nil
        tiles = []
        contents = []
        contentByHash = [:]
        placed = []
    }

    /// Sorts the tiles by tile ID and folds runs (`tiles` then holds one slot per directory
    /// entry), and places each content in the tile data section at its first use: a
    /// clustered layout. Returns the section's length and the contents it holds.
    private func layOut() throws(TilesError) -> (dataLength: UInt64, contentCount: Int) {
        tiles.sort { $0.tileID < $1.tileID }
        var kept = 0
        for i in tiles.indices {
            let tile = tiles[i]
            if kept > 0 {
                let last = tiles[kept - 1]
                if last.tileID == tile.tileID {
                    // Every ID here was made from a TileID by `add`, so it names one.
                    throw .tileNotStorable(path: path, tile: TileID(pmtilesID: tile.tileID)!, problem: .duplicate)
                }
                if last.content == tile.content, last.tileID + UInt64(last.runLength) == tile.tileID,
                    last.runLength < UInt32.max
                {
                    tiles[kept - 1].runLength += 1
                    continue
                }
            }
            tiles[kept] = tile
            kept += 1
        }
        tiles.removeLast(tiles.count - kept)

        placed = [UInt64](repeating: .max, count: contents.count)
        var dataLength: UInt64 = 0
        var contentCount = 0
        for slot in tiles where placed[Int(slot.content)] == .max {
            placed[Int(slot.content)] = dataLength
            dataLength += UInt64(contents[Int(slot.content)].length)
            contentCount += 1
        }
        return (dataLength, contentCount)
    }

    /// The directory entry of a slot, once `layOut` has placed the contents.
    private func entry(_ slot: Slot) -> PMTilesEntry {
        PMTilesEntry(
            tileID: slot.tileID, offset: placed[Int(slot.content)], length: contents[Int(slot.content)].length,
            runLength: slot.runLength)
    }

    /// More entries than this are not tried as a single root directory: at four bytes or more
    /// each before compression, they would have to compress 64:1 to fit in 16 KiB.
    static let singleRootMaxEntries = 1 << 18

    /// The compressed root directory; leaf directories, if needed, go to `leaves`.
    ///
    /// One directory holds every entry when it compresses to at most `rootLimit` bytes.
    /// Otherwise the entries are cut into leaves of `leafSize` entries, each compressed and
    /// appended to `leaves`, and the root lists the leaves; while that root is still too
    /// large, the leaves are made 1.5 times as long and written again.
    private func directories(gzip: GzipCompressor, leaves: ScratchFile) throws(FileError) -> [UInt8] {
        if tiles.count <= PMTilesWriter.singleRootMaxEntries {
            let single = gzip.compress(PMTilesDirectory.serialize(tiles.lazy.map(entry)))
            if single.count <= rootLimit { return single }
        }
        var leafSize = 4096
        while true {
            try leaves.truncate()
            var root: [PMTilesEntry] = []
            var start = 0
            while start < tiles.count {
                let end = min(tiles.count, start + leafSize)
                let leaf = gzip.compress(PMTilesDirectory.serialize(tiles[start..<end].lazy.map(entry)))
                root.append(
                    PMTilesEntry(
                        tileID: tiles[start].tileID, offset: leaves.size, length: UInt32(leaf.count), runLength: 0))
                try leaves.append(leaf)
                start = end
            }
            let compressed = gzip.compress(PMTilesDirectory.serialize(root))
            if compressed.count <= rootLimit { return compressed }
            leafSize += leafSize / 2
        }
    }
}
