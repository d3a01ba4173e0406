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
