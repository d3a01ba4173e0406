import Foundation
import Tiles

/// Parsing of the tile job's options: `--zoom Z|ZMIN-ZMAX`, `--bbox W,S,E,N`, `--shard I/N`.
/// The text is read here; the values are checked by the Tiles types, whose errors
/// `LibraryErrorMessages` words with these option names.
enum TileOptions {
    /// `5` or `0-6`.
    static func zoom(_ text: String) throws -> ZoomRange {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        let numbers = parts.compactMap { Int($0) }
        guard parts.count == 1 || parts.count == 2, numbers.count == parts.count else {
            throw UsageError("--zoom expects a zoom level or a range like 0-6, got '\(text)'")
        }
        return try ZoomRange(min: numbers[0], max: numbers[numbers.count - 1])
    }

    static func bounds(_ text: String) throws -> GeoBounds {
        let b = try ViewOptions.bbox(text)
        return try GeoBounds(west: b.west, south: b.south, east: b.east, north: b.north)
    }

    /// `I/N`: the I-th of N parts, I from 0.
    static func shard(_ text: String) throws -> Shard {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else {
            throw UsageError("--shard expects I/N (the I-th of N parts, I from 0), got '\(text)'")
        }
        return try Shard(index: index, count: count)
    }
}

extension TileOptions {
    /// The value of `--option N`, a whole number (nil when not given).
    static func integer(_ arguments: Arguments, _ option: String) throws -> Int? {
        guard let text = try arguments.value(option) else { return nil }
        guard let value = Int(text) else { throw UsageError("--\(option) expects a whole number, got '\(text)'") }
        return value
    }

    /// `--skip-empty` / `--no-skip-empty`: true or false, nil when neither is given (then the
    /// map's background decides, `skipsEmpty(transparentBackground:)`).
    static func skipEmpty(_ arguments: Arguments) throws -> Bool? {
        let on = arguments.flag("skip-empty")
        let off = arguments.flag("no-skip-empty")
        if on && off { throw UsageError("give --skip-empty or --no-skip-empty, not both") }
        return on ? true : off ? false : nil
    }

    /// Whether empty tiles are left out: as asked, else for an overlay (a fully transparent
    /// background, where most tiles may hold nothing) and not for a base layer.
    static func skipsEmpty(_ asked: Bool?, transparentBackground: Bool) -> Bool {
        asked ?? transparentBackground
    }

    /// `--format png|webp|jpeg` with `--quality Q` (nil when not given). The quality's range
    /// is checked by `TileImageFormat`.
    static func imageFormat(_ name: String, quality: Int?) throws -> TileImageFormat {
        let format: TileImageFormat
        switch name.lowercased() {
        case "png":
            guard quality == nil else {
                throw UsageError("--quality is for --format webp or jpeg: PNG tiles are always lossless")
            }
            format = .png
        case "webp": format = .webp(quality: quality)
        case "jpeg", "jpg": format = .jpeg(quality: quality ?? TileImageFormat.defaultJPEGQuality)
        default: throw UsageError("--format expects png, webp or jpeg, got '\(name)'")
        }
        return try format.checked()
    }

    /// What an output (or input) path names, told by its extension: a directory pyramid, an
    /// MBTiles file or a PMTiles archive. Any other extension is refused rather than taken
    /// for a directory (which once turned `-o x.pmtiles` quietly into a folder of that name).
    static func archiveKind(_ path: String, option: String = "-o") throws -> TileArchiveKind {
        let name = (path as NSString).lastPathComponent
        let ext = (name as NSString).pathExtension.lowercased()
        if ext == "mbtiles" { return .mbtiles }
        if ext == "pmtiles" { return .pmtiles }
        var isDirectory: ObjCBool = false
        if path.hasSuffix("/") || ext.isEmpty
            || (FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue)
        {
            return .directory
        }
        throw UsageError(
            "\(option) \(path): '.\(ext)' is not a tile set meridian knows: give FILE.mbtiles, FILE.pmtiles or a directory (a name without an extension, or ending in /)"
        )
    }
}
