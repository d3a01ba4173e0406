import Foundation
import Testing

/// Fresh folders for a test's files, under the system's temporary directory ($TMPDIR), all
/// named `meridian-test-*` so that anything a test leaves behind is easy to find.
///
///     let folder = try TemporaryFolder.create()
///     defer { TemporaryFolder.remove(folder) }
public enum TemporaryFolder {
    public static let prefix = "meridian-test-"

    /// A new empty folder.
    public static func create() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(prefix + UUID().uuidString)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
        return url
    }

    /// Removes `folder` and everything in it. A folder that cannot be removed fails the test
    /// (it is left behind on every run), rather than being ignored.
    public static func remove(_ folder: URL, sourceLocation: SourceLocation = #_sourceLocation) {
        remove(folder.path, sourceLocation: sourceLocation)
    }

    public static func remove(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            try FileManager.default.removeItem(atPath: path)
        } catch {
            Issue.record("cannot remove the temporary folder \(path): \(error)", sourceLocation: sourceLocation)
        }
    }
}
