import Foundation
import TestSupport
import Testing

/// `meridian sheet --quad` as a user runs it: the quadrangle named by its south-east corner
/// or holding a centre, printed at its series scale when it fits the paper; and on bad input
/// one error line and no file.
@Suite struct QuadSheetCommandTests {
    let nyc = Repository.fixture("maps/nyc.json")

    func pdfText(_ path: String) throws -> String { try SheetCommandTests().pdfText(path) }

    @Test func theCentralParkQuadrangleAtItsSeriesScale() throws {
        let directory = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(directory) }
        let byCorner = directory.appendingPathComponent("corner.pdf").path
        let byCentre = directory.appendingPathComponent("centre.pdf").path
        let run = try Meridian.run(
            [
                "sheet", nyc, "--quad", "7.5'", "--corner", "-73.875,40.75", "--paper", "A1", "--dpi", "40", "-o",
                byCorner,
            ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("1:24,000 (the quadrangle's series scale)"), "\(run.stdout)")
        #expect(run.stdout.contains("A1 portrait") && run.stdout.contains("UTM 18N"), "\(run.stdout)")
        let text = try pdfText(byCorner)
        for expected in [
            "7.5' quadrangle 40°45'N to 40°52'30\"N, 74°W to 73°52'30\"W", "40°52'30\"N", "73°52'30\"W",
            "Grid reference to 100 m", "1:24,000",
        ] {
            #expect(text.contains(expected), "the PDF's text lacks \(expected)")
        }
        // A centre inside the quadrangle names the same one; on A4 it is printed smaller.
        let small = try Meridian.run(
            ["sheet", nyc, "--quad", "7.5'", "--center", "-73.97,40.78", "--dpi", "40", "-o", byCentre])
        #expect(small.status == 0, "\(small.stderr)")
        #expect(small.stdout.contains("(the largest round scale at which the quadrangle fits)"), "\(small.stdout)")
        #expect(try pdfText(byCentre).contains("7.5' quadrangle 40°45'N to 40°52'30\"N, 74°W to 73°52'30\"W"))
    }

    func expectRejected(_ arguments: [String], mentions expected: [String]) throws {
        let directory = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(directory) }
        let out = directory.appendingPathComponent("sheet.pdf").path
        let run = try Meridian.run(["sheet", nyc] + arguments + ["-o", out], directory: directory)
        #expect(run.status != 0, "exit status 0 for \(arguments)")
        #expect(
            run.stderr.split(separator: "\n").count == 1 && run.stderr.hasPrefix("meridian sheet: "),
            "stderr: \(run.stderr)")
        for text in expected { #expect(run.stderr.contains(text), "stderr \(run.stderr) lacks \(text)") }
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(left.isEmpty, "left behind: \(left)")
    }

    @Test func mistakes() throws {
        try expectRejected(
            ["--quad", "7.5'", "--corner", "-73.87,40.75"],
            mentions: ["is not the south-east corner of a 7.5' quadrangle", "-73.875,40.75"])
        try expectRejected(["--quad", "7'", "--center", "-73.97,40.78"], mentions: ["unknown quadrangle size '7''"])
        try expectRejected(
            ["--quad", "7.5'", "--bbox", "-74,40.7,-73.9,40.8"], mentions: ["--quad makes one sheet"])
        try expectRejected(["--quad", "7.5'"], mentions: ["--quad needs --center"])
        try expectRejected(["--corner", "-73.875,40.75", "--scale", "24000"], mentions: ["--corner goes with --quad"])
        try expectRejected(
            ["--quad", "7.5'", "--corner", "-73.875,40.75", "--scale", "24000"],
            mentions: ["the quadrangle needs a map frame of", "use --scale 100000 or more, or larger paper"])
        try expectRejected(["--quad", "1°", "--center", "10,84.5"], mentions: ["outside the UTM zones"])
    }
}
