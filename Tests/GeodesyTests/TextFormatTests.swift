import Foundation
import Testing

@testable import Geodesy

/// Numbers and JSON strings as every module writes them, read back by Python: its float
/// parser, its printf and its JSON decoder are the independent references.
@Suite struct TextFormatTests {
    /// Runs `python3 -c script` with `input` on stdin; a failing run fails the test.
    static func python(_ script: String, input: String) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script]
        let stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let data = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "python3 exited with \(process.terminationStatus)")
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    static let values: [Double] = [
        0, -0.0, 3, -42, 0.1, -0.5, 2.5e-7, 1e15, 123_456_789_012_345, 1.000_000_000_000_000_2, -273.15, .pi,
        12.25, 0.125, 2.675, -1e-9, 999_999.999_999_5, 6_378_137,
    ]

    /// The shortest form reads back as the same double and writes whole numbers without a fraction.
    @Test func shortestReadsBackExactly() throws {
        let input = Self.values.map { DecimalFormat.shortest($0) + " " + String(format: "%a", $0) }.joined(
            separator: "\n")
        let script = """
            import sys
            for line in sys.stdin:
                text, exact = line.split()
                same = float(text) == float.fromhex(exact)
                whole = float.fromhex(exact).is_integer() and abs(float.fromhex(exact)) < 1e15
                print(same and (not whole or ("." not in text and "e" not in text)))
            """
        let answers = try Self.python(script, input: input)
        #expect(answers.count == Self.values.count)
        for (value, answer) in zip(Self.values, answers) {
            #expect(answer == "True", "\(value) -> \(DecimalFormat.shortest(value))")
        }
    }

    /// Fixed decimals as C's printf rounds them, trailing zeros removed, never `-0`.
    @Test(arguments: [0, 1, 6, 9])
    func trimmedIsPrintfWithoutTrailingZeros(decimals: Int) throws {
        let input = Self.values.map { String(format: "%a", $0) }.joined(separator: "\n")
        let script = """
            import sys
            for line in sys.stdin:
                t = "%.\(decimals)f" % float.fromhex(line.strip())
                if "." in t:
                    t = t.rstrip("0").rstrip(".")
                print("0" if t == "-0" else t)
            """
        let expected = try Self.python(script, input: input)
        #expect(Self.values.map { DecimalFormat.trimmed($0, decimals: decimals) } == expected)
    }

    /// Every string survives a trip through JSON: Python's decoder reads back the original.
    @Test func quotedStringsDecodeToTheOriginal() throws {
        let strings = [
            "", "plain", "say \"hi\"", #"back\slash"#, "line\nbreak", "tab\there", "cr\rlf", "\u{1}\u{1f}\u{7f}",
            "45°30'N", "Zürich — 北京", "emoji 🗺️", "/slash/",
        ]
        // The originals travel as UTF-8 hex, so the check does not lean on our own escaping.
        let input = strings.map {
            Data($0.utf8).map { String(format: "%02x", $0) }.joined() + " " + JSONText.quoted($0)
        }
        .joined(separator: "\n")
        let script = """
            import sys, json
            for line in sys.stdin.read().split("\\n"):
                hexed, _, quoted = line.partition(" ")
                print(json.loads(quoted) == bytes.fromhex(hexed).decode("utf-8"))
            """
        let answers = try Self.python(script, input: input)
        #expect(answers == Array(repeating: "True", count: strings.count))
    }
}
