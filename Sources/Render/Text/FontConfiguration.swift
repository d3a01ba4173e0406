import CPango
import FileInput
import Foundation
import MapModel

/// The fonts a map can use: optionally the machine's installed fonts, plus the font files
/// and folders the document lists. A private fontconfig configuration rather than the global
/// one, so a document that ships its fonts and turns system fonts off renders the same
/// bytes on every machine.
final class FontConfiguration {
    let config: OpaquePointer

    /// The fonts of a map document; a file fontconfig cannot read is an error naming the file
    /// and its entry in `fonts`.
    convenience init(document: MapDocument) throws {
        try self.init(fonts: document.fonts, systemFonts: document.systemFonts) { index, file in
            DocumentError(
                file: document.path, place: "fonts[\(index)]",
                message: "\(file) is not a font file fontconfig and FreeType can read")
        }
    }

    init(
        fonts: [String], systemFonts: Bool,
        unreadable: (Int, String) -> any Error = { _, file in
            RenderError.cairo("fontconfig cannot read the font \(file)")
        }
    ) throws {
        guard let config = systemFonts ? FcInitLoadConfigAndFonts() : FcConfigCreate() else {
            throw RenderError.cairo("fontconfig could not be initialised")
        }
        self.config = config
        for (index, path) in fonts.enumerated() {
            for file in FontConfiguration.fontFiles(at: path) {
                let added = file.withCString { name in
                    name.withMemoryRebound(to: FcChar8.self, capacity: file.utf8.count + 1) {
                        FcConfigAppFontAddFile(config, $0)
                    }
                }
                guard added != 0 else { throw unreadable(index, file) }
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

    /// The generic families CSS and fontconfig know; any font stands in for them.
    static let genericFamilies: Set<String> = [
        "sans-serif", "sans", "serif", "monospace", "mono", "cursive", "fantasy", "system-ui",
    ]

    /// Whether a family name finds a font: a font of that family (case and spaces aside), or
    /// any font for a generic family. Otherwise Pango draws with another family, or, with no
    /// font at all, draws boxes.
    func hasFamily(_ family: String) -> Bool {
        guard let pattern = FcPatternCreate(), let objects = FcObjectSetCreate() else { return true }
        defer {
            FcPatternDestroy(pattern)
            FcObjectSetDestroy(objects)
        }
        _ = FcObjectSetAdd(objects, "family")
        if !FontConfiguration.genericFamilies.contains(family.lowercased()) {
            _ = family.withCString { name in
                name.withMemoryRebound(to: FcChar8.self, capacity: family.utf8.count + 1) {
                    FcPatternAddString(pattern, "family", $0)
                }
            }
        }
        guard let set = FcFontList(config, pattern, objects) else { return false }
        defer { FcFontSetDestroy(set) }
        return set.pointee.nfont > 0
    }

    deinit { FcConfigDestroy(config) }
}
