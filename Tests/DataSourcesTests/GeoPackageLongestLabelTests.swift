import Foundation
import MapModel
import Testing

@testable import DataSources

/// A plain GeoPackage table measures its longest label in SQLite (`GeoPackageTable.longestLabel`),
/// and must give what reading every feature through OGR gives: text, numbers, booleans, NULLs
/// and missing attributes, non-ASCII text, text cut at a NUL and bytes that are not UTF-8.
@Suite struct GeoPackageLongestLabelTests {
    let templates = [
        "{name}", "{n}", "{big}", "{ratio}", "{flag}", "<{name}> {n}", "{name}{ratio}", "{missing}",
        "{name} {missing}", "just text", "{n}{n}{name}",
    ]

    @Test func sameAsOGRsReading() throws {
        try Support.withScratch { folder in
            let tables = GeoPackageReaderTests()
            let gpkg = try tables.geoPackage(in: folder)
            // Each the longest name in turn: 30 letters and a NUL before 30 more (61 bytes), 40
            // with a broken UTF-8 sequence, 45 letters beyond ASCII (90 bytes).
            let updates = [
                "UPDATE mixed SET name = CAST(X'\(String(repeating: "61", count: 30))00\(String(repeating: "62", count: 30))' AS TEXT) WHERE fid = 2",
                "UPDATE mixed SET name = CAST(X'\(String(repeating: "63", count: 20))C3\(String(repeating: "64", count: 19))' AS TEXT) WHERE fid = 3",
                "UPDATE mixed SET name = '\(String(repeating: "é", count: 45))' WHERE fid = 5",
            ]
            for (i, (update, longest)) in zip(updates, [30, 40, 45]).enumerated() {
                try Support.run("sqlite3", [gpkg, (i == 0 ? tables.dropTriggers : "") + update])
                let source = try tables.source(gpkg, in: folder)
                let table = try #require(source.geoPackage)
                for template in templates {
                    guard case .success(let text) = LabelText.template(template) else {
                        Issue.record("template \(template)")
                        continue
                    }
                    let ogr = try source.longestLabelThroughOGR(text)
                    #expect(try table.longestLabel(text) == ogr, "update \(i), \(template)")
                    #expect(try source.longestLabel(text) == ogr, "update \(i), \(template)")
                }
                #expect(try source.longestLabel(.attribute("name")) == longest, "update \(i)")
            }
        }
    }
}
