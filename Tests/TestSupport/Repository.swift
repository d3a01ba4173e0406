import Foundation

/// Where the repository's files are: found from this file's own path
/// (Tests/TestSupport/Repository.swift), so tests run the same from any working directory.
public enum Repository {
    /// The package root, the folder holding Package.swift.
    public static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// A path under Fixtures/: `fixture("maps/world.json")`.
    public static func fixture(_ relative: String) -> String {
        root + "/Fixtures/" + relative
    }

    /// The fonts golden images are drawn with (DejaVu Sans), so renders match on every machine.
    public static let fonts = fixture("fonts")

    /// Under .build/: where test evidence (failed goldens, the golden review) is kept.
    public static func build(_ relative: String) -> String {
        root + "/.build/" + relative
    }
}
