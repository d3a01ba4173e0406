import FileInput
import Foundation
import Testing

/// A fresh folder under the system's temporary directory; the caller removes it.
func scratchFolder() throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("fileinput-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

@Suite struct ReadableFileTests {
    @Test func readsARegularFileWhole() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try Data(bytes).write(to: URL(fileURLWithPath: folder + "/a"))
        #expect(try ReadableFile.contents(atPath: folder + "/a", limit: 200_000) == bytes)
        #expect(
            throws: InputError(path: folder + "/a", reason: "is 200000 bytes, more than the limit of 199999 bytes")
        ) { try ReadableFile.contents(atPath: folder + "/a", limit: 199_999) }
    }

    /// Opening a FIFO for reading used to wait for a writer forever: now it is refused at once.
    @Test func refusesAFIFOWithoutWaitingForAWriter() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let fifo = folder + "/pipe.json"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(FileKind(atPath: fifo) == .fifo)
        let outcome = try outcomeWithin30Seconds(releasing: fifo) { () throws(InputError) in
            try ReadableFile.contents(atPath: fifo, limit: 1 << 20)
        }
        #expect(outcome == .failure(InputError(path: fifo, reason: "is a FIFO (named pipe), not a regular file")))
        #expect(throws: InputError(path: fifo, reason: "is a FIFO (named pipe), not a regular file")) {
            try FileKind.requireRegularFile(atPath: fifo)
        }
    }

    /// Runs `read` on its own thread and waits at most 30 s for it. If it is still blocked
    /// then (opening the FIFO waits for a writer), the FIFO is opened for writing and closed,
    /// which releases the reader, and the test fails instead of hanging.
    private func outcomeWithin30Seconds(
        releasing fifo: String, _ read: @escaping @Sendable () throws(InputError) -> [UInt8]
    ) throws -> Result<[UInt8], InputError> {
        let done = DispatchSemaphore(value: 0)
        let box = OutcomeBox()
        Thread {
            box.set(Result { () throws(InputError) in try read() })
            done.signal()
        }.start()
        if done.wait(timeout: .now() + 30) == .timedOut {
            Issue.record("reading the FIFO blocked for 30 s")
            close(open(fifo, O_WRONLY | O_NONBLOCK))
            done.wait()
        }
        return try #require(box.get())
    }
}

/// The outcome handed from the reading thread to the test.
private final class OutcomeBox: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Result<[UInt8], InputError>?
    func set(_ outcome: Result<[UInt8], InputError>) { lock.withLock { value = outcome } }
    func get() -> Result<[UInt8], InputError>? { lock.withLock { value } }
}

extension ReadableFileTests {

    @Test func refusesDevicesFoldersAndMissingPaths() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(throws: InputError(path: "/dev/zero", reason: "is a character device, not a regular file")) {
            try ReadableFile.contents(atPath: "/dev/zero", limit: 1 << 20)
        }
        #expect(throws: InputError(path: folder, reason: "is a folder, not a regular file")) {
            try ReadableFile.contents(atPath: folder, limit: 1 << 20)
        }
        #expect(throws: InputError(path: folder + "/none", reason: "No such file or directory")) {
            try ReadableFile.contents(atPath: folder + "/none", limit: 1 << 20)
        }
        #expect(FileKind(atPath: folder + "/none") == .missing)
        #expect(FileKind(atPath: folder) == .directory)
        #expect(FileKind(atPath: "/dev/null") == .characterDevice)
    }

    /// A 1 GiB sparse file is refused from its size, before a byte is read.
    @Test func refusesAFileOverTheLimitBeforeReadingIt() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/sparse"
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        #expect(truncate(path, 1 << 30) == 0)
        let file = try ReadableFile(path: path)
        #expect(file.size == 1 << 30)
        #expect(throws: InputError(path: path, reason: "is 1073741824 bytes, more than the limit of 16 MiB")) {
            try file.readAll(limit: 16 << 20)
        }
    }

    @Test func byteCountsReadAsUsersWriteLimits() {
        #expect(formatByteCount(16 << 20) == "16 MiB")
        #expect(formatByteCount(1) == "1 byte")
        #expect(formatByteCount(4096) == "4096 bytes")
        #expect(formatByteCount((1 << 20) + 1) == "1048577 bytes")
    }
}
