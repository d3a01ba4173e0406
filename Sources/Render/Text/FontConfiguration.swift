import CPango
import FileInput
import Foundation

/// The fonts a map can use: optionally the machine's installed fonts, plus the font files
/// and folders the document lists. A private fontconfig configuration rather than the global
/// one, so a document that ships its fonts and turns system fonts off renders the same
/// bytes on every machine.
final class FontConfiguration {
    let config: OpaquePointer

    init(fonts: [String], systemFonts: Bool) throws {
        guard let config = systemFonts ? FcInitLoadConfigAndFonts() : FcConfigCreate() else {
            throw RenderError.cairo("fontconfig could not be initialised")
        }
        self.config = config
        for path in fonts {
            for file in FontConfiguration.fontFiles(at: path) {
                let added = file.withCString { name in
                    name.withMemoryRebound(to: FcChar8.self, capacity: file.utf8.count + 1) {
                        FcConfigAppFontAddFile(config, $0)
                    }
                }
                guard added != 0 else { throw RenderError.cairo("fontconfig cannot read the font \(file)") }
            }
        }
    }

    /// The font files in a folder (recursively, sorted for a stable order), or the file itself.
    /// Files are added one by one: adding a folder makes fontconfig want a cache directory,
    /// which a private configuration does not have.
    static func fontFiles(at path: String) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            return [path]
        }
        let extensions: Set<String> = ["ttf", "otf", "ttc", "otc", "pfb", "pfa", "woff", "woff2"]
        let entries = FileManager.default.enumerator(atPath: path)?.compactMap { $0 as? String } ?? []
        // Regular files only: FreeType would block opening a FIFO that has a font's name.
        return entries.filter { extensions.contains(($0 as NSString).pathExtension.lowercased()) }
            .sorted()
            .map { (path as NSString).appendingPathComponent($0) }
            .filter { FileKind(atPath: $0) == .regular }
    }

    deinit { FcConfigDestroy(config) }
}
