import Foundation
import Tiles

/// The PyPI `pmtiles` package (in .build/venv, made by `make deps`) driven through
/// Fixtures/pmtiles/reference.py: an implementation of PMTiles v3 independent of ours.
public enum PMTilesReference {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// What the reference reader saw in an archive.
    public struct Dump {
        public let header: [String: Any]
        public let metadata: [String: Any]
        /// Requested tiles (z/x/y) found by `Reader.get`; absent ones are missing here.
        public let got: [String: [UInt8]]
        /// Every tile the directories list.
        public let all: [String: [UInt8]]

        public func int(_ key: String) -> Int? { header[key] as? Int }
    }

    public static func dump(_ archive: String, asking tiles: [TileID]) throws -> Dump {
        let output = try run(["dump", archive], input: lines(tiles))
        guard let object = try JSONSerialization.jsonObject(with: output) as? [String: Any],
            let header = object["header"] as? [String: Any], let metadata = object["metadata"] as? [String: Any],
            let got = object["got"] as? [String: Any], let all = object["all"] as? [String: String]
        else { throw Failure(description: "unexpected output from reference.py dump") }
        var found: [String: [UInt8]] = [:]
        for (key, value) in got {
            if let hex = value as? String { found[key] = try bytes(hex: hex) }
        }
        return Dump(header: header, metadata: metadata, got: found, all: try all.mapValues(bytes(hex:)))
    }

    /// Writes an archive with the reference writer.
    public static func write(
        _ archive: String, tiles: [(TileID, [UInt8])], metadata: [String: String], header: [String: Int]
    ) throws {
        let spec: [String: Any] = [
            "tiles": tiles.map { [$0.0.z, $0.0.x, $0.0.y, hex($0.1)] as [Any] },
            "metadata": metadata, "header": header,
        ]
        _ = try run(["write", archive], input: try JSONSerialization.data(withJSONObject: spec))
    }

    /// The reference's tile IDs.
    public static func ids(_ tiles: [TileID]) throws -> [UInt64] {
        let text = String(decoding: try run(["ids"], input: lines(tiles)), as: UTF8.self)
        return text.split(separator: "\n").compactMap { UInt64($0) }
    }

    private static func lines(_ tiles: [TileID]) -> Data {
        Data(tiles.map { "\($0.z) \($0.x) \($0.y)\n" }.joined().utf8)
    }

    public static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    public static func bytes(hex: String) throws -> [UInt8] {
        let utf8 = Array(hex.utf8)
        guard utf8.count % 2 == 0 else { throw Failure(description: "odd hex length") }
        func nibble(_ c: UInt8) throws -> UInt8 {
            switch c {
            case 48...57: return c - 48
            case 97...102: return c - 87
            default: throw Failure(description: "bad hex digit")
            }
        }
        return try stride(from: 0, to: utf8.count, by: 2).map { try nibble(utf8[$0]) << 4 | nibble(utf8[$0 + 1]) }
    }

    /// Extracts every tile of `archive` as `folder/z/x/y.EXT` (the extension from the tile type).
    public static func extract(_ archive: String, to folder: String) throws {
        _ = try run(["extract", archive, folder], input: Data())
    }

    private static func run(_ arguments: [String], input: Data) throws -> Data {
        let python = Repository.build("venv/bin/python")
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw Failure(description: "\(python) is missing: run `make deps` (scripts/install-deps.sh) first")
        }
        let run = try Tool.run(
            python, [Repository.fixture("pmtiles/reference.py")] + arguments,
            input: String(decoding: input, as: UTF8.self)
        ).succeeded()
        return Data(run.output)
    }
}
