import Dispatch
import Foundation
import SQLite
import TestSupport
import Testing

@testable import Tiles

/// Leaving WAL mode while another connection reads the file (what a job does as it closes
/// its MBTiles file while someone counts its tiles): SQLite fails it at once, without its
/// busy handler, so the job tries again for a bounded time.
@Suite struct SQLiteBusyTests {
    /// A WAL database with one table and row, and a reader inside a read transaction on it.
    static func walFileWithReader(_ path: String) throws -> (writer: SQLiteDatabase, reader: SQLiteDatabase) {
        let writer = try SQLiteDatabase(path: path, mode: .create)
        try writer.execute("PRAGMA journal_mode = WAL; CREATE TABLE t (v INTEGER); INSERT INTO t VALUES (1);")
        let reader = try SQLiteDatabase(path: path, mode: .readOnly)
        try reader.execute("BEGIN")
        #expect(try reader.scalarInt("SELECT count(*) FROM t") == 1)
        return (writer, reader)
    }

    @Test func aReaderThatStaysMakesItFailWithinThePatience() throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let path = folder.path + "/busy.mbtiles"
        let (writer, reader) = try Self.walFileWithReader(path)
        #expect(throws: SQLiteError.self) {
            try writer.execute("PRAGMA journal_mode = DELETE", retryingWhileBusyFor: .milliseconds(100))
        }
        do {
            try writer.execute("PRAGMA journal_mode = DELETE", retryingWhileBusyFor: .milliseconds(100))
        } catch {
            #expect("\(error)".contains(path) && "\(error)".contains("locked"), "\(error)")
        }
        try reader.execute("COMMIT")
    }

    @Test func aReaderThatLetsGoIsWaitedFor() throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let path = folder.path + "/busy.mbtiles"
        var (writer, reader): (SQLiteDatabase, SQLiteDatabase?) = try Self.walFileWithReader(path)
        let closed = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var outcome: Result<Void, SQLiteError>?
        nonisolated(unsafe) let closing = writer
        Thread.detachNewThread {
            outcome = Result { () throws(SQLiteError) in
                try closing.execute(
                    "PRAGMA journal_mode = DELETE", retryingWhileBusyFor: SQLiteDatabase.closingPatience)
            }
            closed.signal()
        }
        reader = nil  // closes it, as the sqlite3 counting the tiles ends
        closed.wait()
        _ = (writer, reader)
        #expect(throws: Never.self) { try outcome!.get() }
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }
}
