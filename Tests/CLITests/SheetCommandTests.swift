import Foundation
import TestSupport
import Testing

/// `meridian sheet` as a user runs it: files that are what they claim, text that stays
/// text, series, reproducible bytes; and on bad input one error line and no file.
@Suite struct SheetCommandTests {
    let nyc = Repository.fixture("maps/nyc.json")
    let manhattan = ["--center", "-73.97,40.76", "--scale", "25000"]

    /// The text poppler reads from a PDF, runs of white space made one space (the notes wrap).
    func pdfText(_ path: String) throws -> String {
        try Tool.output("pdftotext", [path, "-"]).split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    @Test func anA3LandscapeMGRSSheetAsInTheDocs() throws {
        let directory = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(directory) }
        let pdf = directory.appendingPathComponent("manhattan.pdf").path
        let run = try Meridian.run(
            ["sheet", nyc] + manhattan + [
                "--paper", "A3", "--orientation", "landscape", "--grid", "mgrs",
                "--title", "Manhattan", "-o", pdf,
            ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("1:25,000") && run.stdout.contains("A3 landscape"))
        let info = try Tool.output("pdfinfo", [pdf])
        #expect(info.contains("1190.55 x 841.89 pts (A3)"), "\(info)")
        // Text stays text: poppler reads it back.
        let text = try pdfText(pdf)
        for expected in [
            "Manhattan", "1:25,000", "MGRS, WGS84", "18T", "UTM 18N", "NYC Department of City Planning",
            "Grid north is", "metres", "583000mE",
        ] {
            #expect(text.contains(expected), "the PDF's text lacks \(expected)")
        }
        #expect(!text.contains("Printed"), "no date unless asked")
    }

    /// Without --grid a sheet prints the map document's grid type: grid-nyc.json has a USNG
    /// grid; --grid still chooses.
    @Test func theGridDefaultsToTheDocuments() throws {
        let directory = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(directory) }
        let gridNYC = Repository.fixture("maps/grid-nyc.json")
        let own = directory.appendingPathComponent("own.pdf").path
        let chosen = directory.appendingPathComponent("chosen.pdf").path
        #expect(try Meridian.run(["sheet", gridNYC] + manhattan + ["-o", own]).status == 0)
        #expect(try Meridian.run(["sheet", gridNYC] + manhattan + ["--grid", "latlong", "-o", chosen]).status == 0)
        let ownText = try pdfText(own)
        let chosenText = try pdfText(chosen)
        #expect(
            ownText.contains("Grid: USNG, WGS84") && ownText.contains("000mE") && ownText.contains("000mN"),
            "\(ownText)")
        #expect(
            chosenText.contains("Grid: latitude/longitude") && !chosenText.contains("Grid: USNG")
                && !chosenText.contains("000mE"))
        #expect(chosenText.contains("73°58'30\"W"), "\(chosenText)")
    }

    @Test func theSameCommandGivesTheSameBytes() throws {
        let directory = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(directory) }
        for ext in ["pdf", "svg", "png"] {
            let a = directory.appendingPathComponent("a.\(ext)").path
            let b = directory.appendingPathComponent("b.\(ext)").path
            for path in [a, b] {
                let run = try Meridian.run(["sheet", nyc] + manhattan + ["--dpi", "100", "-o", path])
                #expect(run.status == 0, "\(run.stderr)")
            }
            #expect(
                try Data(contentsOf: URL(fileURLWithPath: a)) == Data(contentsOf: URL(fileURLWithPath: b)),
                "\(ext) differs")
        }
    }

    @Test func thePNGRecordsItsDPI() throws {
        let directory = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(directory) }
        let png = directory.appendingPathComponent("s.png").path
        let run = try Meridian.run(["sheet", nyc] + manhattan + ["--dpi", "150", "-o", png])
        #expect(run.status == 0, "\(run.stderr)")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: png)))
        // IHDR: A4 portrait at 150 dpi is 1240 x 1754 pixels.
        func be32(_ i: Int) -> Int {
            Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
        }
        #expect(be32(16) == 1240 && be32(20) == 1754)
        let pHYs = try #require((0..<(bytes.count - 4)).first { bytes[$0..<($0 + 4)].elementsEqual("pHYs".utf8) })
        #expect(be32(pHYs + 4) == 5906 && be32(pHYs + 8) == 5906 && bytes[pHYs + 12] == 1)  // 150 / 0.0254 per metre
    }

    @Test func aBBoxWithoutAScaleGetsTheLargestRoundScaleThatFits() throws {
        let directory = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(directory) }
        let pdf = directory.appendingPathComponent("nyc.pdf").path
        let run = try Meridian.run([
            "sheet", nyc, "--bbox", "-74.26,40.49,-73.69,40.92", "--paper", "A4", "--grid", "latlong", "-o", pdf,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        // The boroughs span about 48 x 48 km; an A4 portrait frame about 154 x 210 mm needs
        // 1:312,000 or smaller: the next round scale is 1:500,000.
        #expect(run.stdout.contains("1:500,000 (the largest round scale at which the bbox fits)"), "\(run.stdout)")
        let text = try pdfText(pdf)
        #expect(text.contains("latitude/longitude, WGS84"))
        // Given a scale too large for the paper, the same bbox is refused with the way out.
        try expectRejected(
            ["sheet", nyc, "--bbox", "-74.26,40.49,-73.69,40.92", "--scale", "100000", "-o", "OUT"],
            mentions: ["1:100,000", "needs a map frame", "--scale 500000 or more", "--series"])
    }

    @Test func aSeriesAndItsIndex() throws {
        let directory = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(directory) }
        let out = directory.appendingPathComponent("nyc.pdf").path
        let run = try Meridian.run([
            "sheet", nyc, "--bbox", "-74.05,40.68,-73.90,40.80", "--scale", "50000", "--paper", "A4",
            "--orientation", "landscape", "--series", "--dpi", "100", "-o", out,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        // About 12.7 x 13.3 km at 1:50,000 on A4 landscape frames (about 11.9 x 6.5 km): 3 rows, 2 columns.
        #expect(
            files == [
                "nyc-A1.pdf", "nyc-A2.pdf", "nyc-B1.pdf", "nyc-B2.pdf", "nyc-C1.pdf", "nyc-C2.pdf", "nyc-index.pdf",
            ], "\(files)")
        let b1 = try pdfText(directory.appendingPathComponent("nyc-B1.pdf").path)
        #expect(b1.contains("Sheet B1") && b1.contains("north A1") && b1.contains("east B2") && b1.contains("south C1"))
        let index = try pdfText(directory.appendingPathComponent("nyc-index.pdf").path)
        for name in ["A1", "A2", "B1", "B2", "C1", "C2"] { #expect(index.contains(name)) }
    }

    @Test func theDateOnlyWhenAsked() throws {
        let directory = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(directory) }
        let pdf = directory.appendingPathComponent("d.pdf").path
        let formatter = DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        // The day is read on both sides of the run: a run that crosses midnight (UTC) prints
        // one of the two, so the test holds at any hour.
        let before = formatter.string(from: Date())
        let run = try Meridian.run(["sheet", nyc] + manhattan + ["--date", "-o", pdf])
        let after = formatter.string(from: Date())
        #expect(run.status == 0, "\(run.stderr)")
        let text = try pdfText(pdf)
        #expect(Set([before, after]).contains { text.contains("Printed \($0)") }, "\(text)")
    }

    // MARK: Bad input

    func expectRejected(
        _ arguments: [String], mentions expected: [String], sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let directory = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(directory) }
        let args = arguments.map { $0 == "OUT" ? directory.appendingPathComponent("sheet.pdf").path : $0 }
        let run = try Meridian.run(args, directory: directory)
        #expect(run.status != 0, "exit status 0 for \(arguments)", sourceLocation: sourceLocation)
        #expect(
            run.stderr.split(separator: "\n").count == 1 && run.stderr.hasPrefix("meridian sheet: "),
            "stderr: \(run.stderr)", sourceLocation: sourceLocation)
        for text in expected where !text.isEmpty {
            #expect(run.stderr.contains(text), "stderr \(run.stderr) lacks \(text)", sourceLocation: sourceLocation)
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(left.isEmpty, "left behind: \(left)", sourceLocation: sourceLocation)
    }

    @Test func aScaleThatPutsTheMapFarOffThePage() throws {
        // A0 at 1:50,000,000 would reach thousands of km from the central meridian.
        try expectRejected(
            ["sheet", nyc, "--center", "-73.97,40.76", "--scale", "50000000", "--paper", "A0", "-o", "OUT"],
            mentions: ["1:50,000,000", "km from the central meridian of UTM 18N", "or less"])
        try expectRejected(
            ["sheet", nyc, "--center", "-73.97,40.76", "--scale", "0", "-o", "OUT"], mentions: ["--scale"])
        try expectRejected(
            ["sheet", nyc, "--center", "-73.97,40.76", "--scale", "1e12", "-o", "OUT"], mentions: ["out of range"])
        try expectRejected(
            ["sheet", nyc, "--center", "0,88", "--scale", "50000", "-o", "OUT"], mentions: ["outside the UTM zones"])
        try expectRejected(["sheet", nyc, "--center", "-73.97,40.76", "-o", "OUT"], mentions: ["--scale"])
    }

    @Test func aPaperSizeThatIsNotOne() throws {
        try expectRejected(
            ["sheet", nyc] + manhattan + ["--paper", "B7", "-o", "OUT"], mentions: ["unknown paper size 'B7'", "A4"])
        for text in ["0x297mm", "A5x", "-210x297", "210x", "x297", "210x297cm", "nanxnan", "9000x100mm", ""] {
            try expectRejected(
                ["sheet", nyc] + manhattan + ["--paper", text, "-o", "OUT"],
                mentions: ["unknown paper size '\(text)'", "at most 5000 mm a side"])
        }
        try expectRejected(
            ["sheet", nyc] + manhattan + ["--orientation", "sideways", "-o", "OUT"], mentions: ["portrait or landscape"]
        )
    }

    @Test func marginsLargerThanThePage() throws {
        try expectRejected(
            ["sheet", nyc] + manhattan + ["--margins", "120", "-o", "OUT"],
            mentions: ["margins of 120 mm are larger than the page"])
        try expectRejected(
            ["sheet", nyc] + manhattan + ["--margins", "90", "-o", "OUT"], mentions: ["leave a map frame of only"])
        try expectRejected(["sheet", nyc] + manhattan + ["--margins", "-5", "-o", "OUT"], mentions: ["--margins"])
    }

    @Test func otherMistakes() throws {
        try expectRejected(
            ["sheet", nyc] + manhattan + ["--grid", "bng", "-o", "OUT"], mentions: ["unknown grid type 'bng'"])
        try expectRejected(
            ["sheet", nyc] + manhattan + ["-o", "OUT.jpeg"].map { $0 == "OUT.jpeg" ? "sheet.jpeg" : $0 },
            mentions: ["unknown output format"])
        try expectRejected(
            ["sheet", nyc] + manhattan + ["--series", "-o", "OUT"], mentions: ["--series covers a --bbox"])
        try expectRejected(
            ["sheet", nyc, "--bbox", "-74.05,40.68,-73.90,40.80", "--series", "-o", "OUT"],
            mentions: ["--series needs --scale"])
        try expectRejected(["sheet", nyc, "--bbox", "-74,40,-75,41", "-o", "OUT"], mentions: ["bbox", "empty"])
        try expectRejected(["sheet", "missing.json"] + manhattan + ["-o", "OUT"], mentions: ["missing.json"])
    }
}
