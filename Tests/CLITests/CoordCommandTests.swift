import Foundation
import TestSupport
import Testing

/// `meridian coord` run as users run it, on every committed GeoConvert vector
/// (Fixtures/geodesy, made by scripts/make-geodesy-vectors.py).
@Suite struct CoordCommandTests {
    /// Runs `meridian coord ARGS` with `input` on stdin; returns stdout lines, stderr, status.
    private static func coord(_ args: [String], input: [String] = []) throws -> (
        lines: [String], stderr: String, status: Int32
    ) {
        let run = try Meridian.run(["coord"] + args, stdin: input.map { $0 + "\n" }.joined())
        return (
            run.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init),
            run.stderr, run.status
        )
    }

    /// Converts `inputs` and compares line by line; GeoConvert's "ERROR" must be an error line
    /// here too. Returns the first few differences.
    private static func check(
        _ args: [String], _ inputs: [String], _ expected: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let run = try coord(args, input: inputs)
        #expect(run.lines.count == inputs.count, "\(args)", sourceLocation: sourceLocation)
        var differences: [String] = []
        for (i, (got, want)) in zip(run.lines, expected).enumerated() {
            let ok = want == "ERROR" ? got.hasPrefix("ERROR: ") : got == want
            if !ok { differences.append("\(inputs[i]) -> \(got) != \(want)") }
        }
        #expect(
            differences.isEmpty, "\(args): \(differences.count) differ, first: \(differences.prefix(3))",
            sourceLocation: sourceLocation)
        let anyError = expected.contains("ERROR")
        #expect(run.status == (anyError ? 1 : 0), "\(args): exit \(run.status)", sourceLocation: sourceLocation)
    }

    @Test func ddToMGRSAtEveryPrecision() throws {
        let rows = try GeoConvertVectors.rows("dd-mgrs.tsv")
        #expect(rows.count >= 10_000)
        for p in -6...6 {
            try Self.check(["--to", "mgrs", "--precision", String(p)], rows.map { $0[0] }, rows.map { $0[p + 7] })
        }
    }

    @Test func ddToUTMAtEveryPrecision() throws {
        let rows = try GeoConvertVectors.rows("dd-utm.tsv")
        try Self.check(["--to", "utm", "--precision", "9"], rows.map { $0[0] }, rows.map { $0[1] })
        for p in -5...9 {
            let some = rows.filter { $0[2] == String(p) }
            try Self.check(["--to", "utm", "--precision", String(p)], some.map { $0[0] }, some.map { $0[3] })
        }
    }

    @Test func ddToDDAndDMS() throws {
        let rows = try GeoConvertVectors.rows("dd-dms.tsv")
        func dms(_ s: String) -> String { s.replacingOccurrences(of: "d", with: "°") }
        try Self.check(["--to", "dd", "--precision", "9"], rows.map { $0[0] }, rows.map { $0[1] })
        try Self.check(["--to", "dms", "--from", "dd"], rows.map { $0[0] }, rows.map { dms($0[2]) })
        for p in -5...10 {
            let some = rows.filter { $0[3] == String(p) }
            try Self.check(["--to", "dd", "--precision", String(p)], some.map { $0[0] }, some.map { $0[4] })
            try Self.check(["--to", "dms", "--precision", String(p)], some.map { $0[0] }, some.map { dms($0[5]) })
        }
    }

    @Test func mgrsIn() throws {
        let rows = try GeoConvertVectors.rows("mgrs-dd.tsv")
        let inputs = rows.map { $0[0] }
        try Self.check(["--to", "dd", "--precision", "9"], inputs, rows.map { $0[1] })
        try Self.check(["--to", "utm", "--precision", "9", "--from", "mgrs"], inputs, rows.map { $0[2] })
        try Self.check(["--to", "mgrs", "--precision", "6"], inputs, rows.map { $0[3] })
        // The same references written as USNG read the same.
        try Self.check(["--to", "dd", "--precision", "9"], inputs.map(Self.usng), rows.map { $0[1] })
    }

    @Test func utmIn() throws {
        let rows = try GeoConvertVectors.rows("utm-dd.tsv")
        let inputs = rows.map { $0[0] }
        try Self.check(["--to", "dd", "--precision", "9"], inputs, rows.map { $0[1] })
        try Self.check(["--to", "utm", "--precision", "9"], inputs, rows.map { $0[2] })
        try Self.check(["--to", "mgrs", "--precision", "6", "--from", "utm"], inputs, rows.map { $0[3] })
    }

    @Test func dmsIn() throws {
        let rows = try GeoConvertVectors.rows("dms-dd.tsv")
        try Self.check(["--to", "dd", "--precision", "6", "--from", "dd"], rows.map { $0[0] }, rows.map { $0[1] })
    }

    @Test func usngOut() throws {
        let rows = try GeoConvertVectors.rows("dd-mgrs.tsv").prefix(3000)
        for p in [-6, -5, -2, 0, 3] {
            try Self.check(
                ["--to", "usng", "--precision", String(p)], rows.map { $0[0] }, rows.map { Self.usng($0[p + 7]) })
        }
    }

    @Test func linesGeoConvertRejectsAreErrorsAndTheRestGoOn() throws {
        let rows = try GeoConvertVectors.rows("errors.txt")
        try Self.check(["--to", "dd"], rows.map { $0[0] }, rows.map { $0[1] })
        let run = try Self.coord(["--to", "mgrs"], input: ["40.7 -74", "95 0", "38SMB4488", "oops"])
        // Expected values from GeoConvert -m; a square read back is written at its centre.
        #expect(
            run.lines == [
                "18TWL8448205935", "ERROR: latitude 95 is not in [-90, 90]", "38SMB4450088500",
                "ERROR: grid reference 'oops': band letter O is not in A, B, Y, Z",
            ])
        #expect(run.status == 1)
    }

    @Test func positionsAsArguments() throws {
        let run = try Self.coord(["--to", "utm", "38SMB4488", "33.3 44.4", "n 2000000 2000000"])
        #expect(run.lines == ["38n 444500 3688500", "38n 444141 3684706", "n 2000000 2000000"])
        #expect(run.status == 0)
        let usng = try Self.coord(["--to", "usng", "--precision", "-1", "33.3 44.4"])
        #expect(usng.lines == ["38S MB 4414 8470"])
    }

    @Test func usageErrorsAreOneLine() throws {
        for (args, message) in [
            ([String](), "meridian coord: --to is required (mgrs, usng, utm, dd or dms)\n"),
            (["--to", "xyz"], "meridian coord: --to xyz: expected mgrs, usng, utm, dd or dms\n"),
            (["--to", "dd", "--from", "dms"], "meridian coord: --from dms: expected dd, mgrs, usng or utm\n"),
            (
                ["--to", "dd", "--precision", "x"],
                "meridian coord: --precision x: expected a whole number such as -1, 0 or 3\n"
            ),
            (["--to", "dd", "--zone", "3"], "meridian coord: unknown option --zone\n"),
        ] {
            let run = try Self.coord(args)
            #expect(run.stderr == message)
            #expect(run.status == 2)
            #expect(run.lines.isEmpty)
        }
    }

    /// GeoConvert's MGRS with USNG's spaces: `18SUJ2348706483` -> `18S UJ 23487 06483`.
    private static func usng(_ mgrs: String) -> String {
        guard mgrs != "ERROR" else { return mgrs }
        let gzd = mgrs.first!.isNumber ? 3 : 1
        var out = String(mgrs.prefix(gzd))
        let rest = mgrs.dropFirst(gzd)
        if rest.isEmpty { return out }
        out += " " + rest.prefix(2)
        let digits = rest.dropFirst(2)
        if !digits.isEmpty { out += " " + digits.prefix(digits.count / 2) + " " + digits.suffix(digits.count / 2) }
        return out
    }
}
