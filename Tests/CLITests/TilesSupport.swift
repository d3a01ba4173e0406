import Foundation
import Raster

/// Helpers for the `meridian tiles` and `merge` tests.
enum TilesFixture {
    /// Every regular file under `root` (relative path -> bytes).
    static func files(under root: String) throws -> [String: [UInt8]] {
        var result: [String: [UInt8]] = [:]
        guard let walker = FileManager.default.enumerator(atPath: root) else { return result }
        while let relative = walker.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let path = root + "/" + relative
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
                result[relative] = try FileIO.readBytes(atPath: path)
            }
        }
        return result
    }

    /// Every entry (files and folders) under `root`, relative.
    static func entries(under root: String) -> [String] {
        (FileManager.default.enumerator(atPath: root)?.allObjects as? [String]) ?? []
    }

    /// Runs Debian's `sqlite3` shell, an independent reader of the MBTiles files.
    static func sqlite(_ database: String, _ sql: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sqlite3", "-batch", database, sql]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// What an MBTiles file holds, as text: every tile's bytes and the metadata.
    static func content(_ database: String) throws -> String {
        try sqlite(
            database,
            "SELECT zoom_level, tile_column, tile_row, hex(tile_data) FROM tiles ORDER BY 1, 2, 3; SELECT name, value FROM metadata ORDER BY name;"
        )
    }

    /// Starts `meridian` with output to /dev/null and returns the running process.
    static func start(_ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = Meridian.binary
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }
}
