import Foundation
import Raster
import Testing

@testable import TestSupport

/// `make golden-update` leaves one contact sheet of what it changed: each changed golden's
/// expected image, new image and difference side by side, under its name.
@Suite struct GoldenReviewTests {
    static let blue = RGBA(30, 90, 160)

    /// A 40 x 30 image, with a red square at (10, 10) when `marked`.
    static func picture(marked: Bool) -> Image {
        var image = Image(width: 40, height: 30, fill: blue)
        if marked { for y in 10..<15 { for x in 10..<15 { image[x, y] = RGBA(250, 0, 0) } } }
        return image
    }

    @Test func anUpdateRecordsWhatItChangedAndTheSheetShowsIt() throws {
        let folder = try TemporaryFolder.create().path
        defer { TemporaryFolder.remove(folder) }
        let review = GoldenReview(directory: folder + "/review")
        func check(update: Bool) -> GoldenCheck {
            GoldenCheck(
                artifactsDirectory: folder + "/artifacts", root: folder, reviewDirectory: review.directory,
                update: update)
        }
        try PNG.write(Self.picture(marked: false), toPath: folder + "/changed.png")
        try PNG.write(Self.picture(marked: false), toPath: folder + "/same.png")
        try check(update: true).verify("changed", actual: Self.picture(marked: true), expected: "changed.png")
        try check(update: true).verify("same", actual: Self.picture(marked: false), expected: "same.png")
        try check(update: true).verify("added", actual: Self.picture(marked: true), expected: "added.png")
        // The unchanged golden is not up for review; the changed and the new one are.
        #expect(try review.changes().map(\.name) == ["added", "changed"])
        #expect(try review.writeContactSheet() == 2)

        let sheet = try PNG.decode(contentsOf: review.sheetPath)
        let layout = ContactSheet(try review.changes())
        #expect(sheet.width == layout.width && sheet.height == layout.height)
        #expect(layout.rows.allSatisfy { $0.cell.width == 40 && $0.cell.height == 30 })
        func pixel(row: Int, column: Int, _ x: Int, _ y: Int) -> RGBA {
            sheet[layout.columnX(column, row: row) + x, layout.imageY(row) + y]
        }
        // Row 1, "changed": the old image, the new one, and the difference marked in red.
        #expect(pixel(row: 1, column: 0, 12, 12) == Self.blue)
        #expect(pixel(row: 1, column: 1, 12, 12) == RGBA(250, 0, 0))
        #expect(pixel(row: 1, column: 2, 12, 12) == RGBA(255, 0, 0))
        #expect(pixel(row: 1, column: 2, 30, 20) != RGBA(255, 0, 0))
        // Row 0, "added": no old image, so no difference either; the new image in the middle.
        let background = RGBA(0xD6, 0xD6, 0xD6)
        #expect(pixel(row: 0, column: 0, 12, 12) == background)
        #expect(pixel(row: 0, column: 1, 12, 12) == RGBA(250, 0, 0))
        #expect(pixel(row: 0, column: 2, 12, 12) == background)
        // Each row has its caption: dark text in the strip above the images.
        for row in 0..<2 {
            let strip = try sheet.cropped(
                x: 0, y: layout.rows[row].y, width: sheet.width, height: ContactSheet.captionHeight)
            let dark = (0..<strip.height).reduce(0) { sum, y in
                sum + (0..<strip.width).filter { strip[$0, y].r < 100 }.count
            }
            #expect(dark > 20, "row \(row) has no caption")
        }
    }

    @Test func noChangeNoSheet() throws {
        let folder = try TemporaryFolder.create().path
        defer { TemporaryFolder.remove(folder) }
        let review = GoldenReview(directory: folder + "/review")
        #expect(try review.writeContactSheet() == 0)
        #expect(!FileManager.default.fileExists(atPath: review.sheetPath))
    }
}
