import Foundation
import Geodesy
import ImageDiff
import MapModel
import Raster
import Render
import Synchronization

/// What a person looks at before committing new golden images. `make golden-update` rewrites
/// the expected images; for each one it changes, `GoldenCheck` records here the old image
/// (`<case>.expected.png`, absent for a new golden) and the new one (`<case>.new.png`).
/// `contactSheet()` then lays them out in one PNG: a row per changed image, with its name and
/// what changed, and in three columns the expected image, the new one, and the difference
/// (ImageDiff's picture: the old image in faded grey, changed pixels red, anti-aliasing yellow).
public struct GoldenReview: Sendable {
    /// The repository's review folder.
    public static let directory = Repository.build("golden-review")

    public let directory: String
    public var sheetPath: String { directory + "/contact-sheet.png" }

    public init(directory: String) {
        self.directory = directory
    }

    /// Tests run in parallel; two recording at once must not interleave their files.
    private static let lock = Mutex(())

    /// Keeps the old (if any) and new image of a golden that an update changed.
    func record(_ caseName: String, expected: Image?, new: Image) throws {
        let name = GoldenCheck.fileName(caseName)
        try Self.lock.withLock { _ in
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let expectedPath = directory + "/" + name + ".expected.png"
            if let expected {
                try PNG.write(expected, toPath: expectedPath)
            } else if FileManager.default.fileExists(atPath: expectedPath) {
                try FileManager.default.removeItem(atPath: expectedPath)
            }
            try PNG.write(new, toPath: directory + "/" + name + ".new.png")
        }
    }

    /// One changed golden as recorded.
    public struct Change {
        public let name: String
        public let expected: Image?
        public let new: Image
    }

    /// The changes recorded, by name; none when nothing was (or the folder does not exist).
    public func changes() throws -> [Change] {
        guard FileManager.default.fileExists(atPath: directory) else { return [] }
        let names = try FileManager.default.contentsOfDirectory(atPath: directory)
            .filter { $0.hasSuffix(".new.png") }.map { String($0.dropLast(".new.png".count)) }.sorted()
        return try names.map { name in
            let expectedPath = directory + "/" + name + ".expected.png"
            return Change(
                name: name,
                expected: FileManager.default.fileExists(atPath: expectedPath)
                    ? try PNG.decode(contentsOf: expectedPath) : nil,
                new: try PNG.decode(contentsOf: directory + "/" + name + ".new.png"))
        }
    }

    /// Writes the contact sheet of the recorded changes to `sheetPath` and returns how many
    /// rows it has; writes nothing and returns 0 when no golden changed.
    @discardableResult
    public func writeContactSheet() throws -> Int {
        let changes = try changes()
        guard !changes.isEmpty else { return 0 }
        try PNG.write(try ContactSheet(changes).image(), toPath: sheetPath)
        return changes.count
    }
}

/// The layout of the contact sheet, in pixels: a heading line, then per change a caption line
/// and its three images side by side, each row as wide and tall as its own images need.
struct ContactSheet {
    static let margin = 16
    static let captionHeight = 34
    static let textPixels = 18.0
    static let heading =
        "Goldens that make golden-update changed: expected (committed) | new (rendered now) | difference (red: changed, yellow: anti-aliasing)"
    /// Mid grey, so that white edges of the images show.
    static let background = Color(rgb: 0xD6D6D6)

    struct Row {
        let change: GoldenReview.Change
        /// The comparison with the committed image; nil for a new golden.
        let result: DiffResult?
        /// The width and height of each of the row's three cells.
        let cell: (width: Int, height: Int)
        /// The top of the row's caption.
        let y: Int
    }

    let rows: [Row]
    let width: Int
    let height: Int

    init(_ changes: [GoldenReview.Change]) {
        // Every changed pixel counts (threshold 0): the update rewrote the golden for any change.
        let comparator = ImageComparator(threshold: 0)
        var y = Self.captionHeight
        var rows: [Row] = []
        for change in changes {
            let images = [change.expected, change.new].compactMap { $0 }
            let cell = (images.map(\.width).max() ?? 0, images.map(\.height).max() ?? 0)
            let result = change.expected.map {
                comparator.compare(expected: $0, actual: change.new, makeDiffImage: true)
            }
            rows.append(Row(change: change, result: result, cell: cell, y: y))
            y += Self.captionHeight + cell.1 + Self.margin
        }
        self.rows = rows
        width = max(1600, (rows.map { 3 * $0.cell.width }.max() ?? 0) + 4 * Self.margin)
        height = y
    }

    func columnX(_ column: Int, row: Int) -> Int { Self.margin + column * (rows[row].cell.width + Self.margin) }
    func imageY(_ row: Int) -> Int { rows[row].y + Self.captionHeight }

    /// What changed, in words: how many pixels differ, or the sizes, or that the golden is new.
    static func caption(_ row: Row) -> String {
        let name = row.change.name
        guard let result = row.result else { return "\(name): new, no expected image before" }
        if result.sizesDiffer { return "\(name): size \(result.expectedSize) -> \(result.actualSize)" }
        return "\(name): " + result.summary
    }

    func image() throws -> Image {
        var texts: [(String, x: Int, y: Int)] = [(Self.heading, Self.margin, 0)]
        var pictures: [(Image, x: Int, y: Int)] = []
        for (index, row) in rows.enumerated() {
            texts.append((Self.caption(row), Self.margin, row.y))
            if let expected = row.change.expected { pictures.append((expected, columnX(0, row: index), imageY(index))) }
            pictures.append((row.change.new, columnX(1, row: index), imageY(index)))
            if let diff = row.result?.diffImage { pictures.append((diff, columnX(2, row: index), imageY(index))) }
        }
        var sheet = try Self.text(texts, width: width, height: height)
        for (picture, x, y) in pictures { sheet.paste(picture, x: x, y: y) }
        return sheet
    }

    /// The sheet's background with its text, drawn by Render's page writer in the shipped
    /// font. At 25.4 dpi a page millimetre is one pixel.
    static func text(_ texts: [(String, x: Int, y: Int)], width: Int, height: Int) throws -> Image {
        var document = MapDocument(path: "golden review")
        document.fonts = [Repository.fonts]
        document.systemFonts = false
        let renderer = try MapRenderer(map: try LoadedMap(document: document))
        let font = PageFont(size: textPixels * 72 / 25.4)
        let page = Page(
            width: Double(width), height: Double(height),
            background: background,
            items: texts.map { text, x, y in
                .text(
                    PageText(
                        text, font: font, at: PlanePoint(x: Double(x), y: Double(y + captionHeight - 10)),
                        anchor: PageTextAnchor(.left, .baseline)))
            })
        return try PageWriter.renderImage(page, renderer: renderer, dpi: 25.4)
    }
}
