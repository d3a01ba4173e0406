import Foundation
import TestSupport
import Testing

/// `meridian sheet --crs`: the sheet prints in the CRS asked for; a CRS a sheet cannot be
/// drawn in gets one line and leaves no file.
@Suite struct SheetCRSCommandTests {
    @Test func aSheetInTheBritishNationalGridSaysSo() throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let output = folder.appendingPathComponent("london.pdf").path
        let run = try Meridian.run([
            "sheet", Repository.fixture("maps/world.json"), "--center", "-0.12,51.5", "--scale", "250000",
            "--crs", "EPSG:27700", "--grid", "latlong", "-o", output,
        ])
        try #require(run.status == 0, "\(run)")
        #expect(run.stdout.hasSuffix(", EPSG:27700\n"), "\(run.stdout)")
        let text = try Tool.output("pdftotext", [output, "-"])
        #expect(text.contains("British National Grid"), "\(text)")
    }

    @Test(arguments: [
        (["--crs", "EPSG:999999"], "meridian sheet: --crs EPSG:999999: unknown CRS \"EPSG:999999\""),
        (
            ["--crs", "EPSG:4326"],
            "meridian sheet: --crs EPSG:4326: EPSG:4326 is a geographic CRS; eastings and northings need a projected CRS"
        ),
        (["--crs", "EPSG:4978"], "meridian sheet: --crs EPSG:4978: \"EPSG:4978\" (EPSG:4978) is a geocentric CRS"),
    ])
    func badCRSGetsOneLineAndNoFile(options: [String], expected: String) throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let output = folder.appendingPathComponent("sheet.pdf").path
        let run = try Meridian.run(
            ["sheet", Repository.fixture("maps/nyc.json"), "--center", "-73.97,40.76", "--scale", "25000"] + options
                + ["-o", output])
        #expect(run.status == 2, "\(run)")
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
        #expect(run.stderr.hasPrefix(expected), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }
}
