import FileInput
import Foundation
import Geodesy

/// `meridian coord`: converts positions between decimal degrees, DMS, UTM/UPS, MGRS and
/// USNG, one a line, with GeoConvert's text conventions.
enum CoordCommand: Subcommand {
    static let name = "coord"
    static let summary = "convert positions between DD, DMS, UTM/UPS, MGRS and USNG"
    static let usage = """
        usage: meridian coord --to mgrs|usng|utm|dd|dms [--from dd|mgrs|usng|utm] [--precision P] [POSITION ...]

        Converts one position a line from standard input (or each POSITION argument) and
        writes one line each. A line that cannot be converted prints `ERROR: <reason>` and
        the others go on; the exit status is 1 if any line failed. Lines longer than 4096
        bytes are not read: each prints `ERROR: line longer than 4096 bytes`.

          --to FORMAT      output: mgrs (18SUJ2348706483), usng (18S UJ 23487 06483),
                           utm (18n 323486 4306483; UPS: n 2000000 2000000),
                           dd (38.89000 -77.03000), dms (38°53'24.0"N 077°01'48.0"W)
          --from FORMAT    input: dd (LAT LON, decimal or DMS), mgrs, usng or utm
                           (ZONE EASTING NORTHING); guessed from the fields when left out
          --precision P    as GeoConvert's -p: 0 is 1 m (5 MGRS digits per axis, UTM metres,
                           DD 5 decimals, DMS tenths of a second); -1 is 10 m, 1 is 0.1 m...
                           MGRS: -6 (grid zone only) to 6; UTM: -5 to 9
        """
    static let flags: Set<String> = []

    /// The longest input line converted. A position is tens of bytes; the limit keeps memory
    /// bounded when standard input is not a list of positions (/dev/zero). docs/limits.md.
    static let maxLineBytes = 4096

    static func run(_ arguments: Arguments) throws -> Int32 {
        guard let toText = try arguments.value("to") else {
            throw UsageError("--to is required (mgrs, usng, utm, dd or dms)")
        }
        guard let to = CoordinateFormat(rawValue: toText.lowercased()) else {
            throw UsageError("--to \(toText): expected mgrs, usng, utm, dd or dms")
        }
        var from: CoordinateFormat?
        if let fromText = try arguments.value("from") {
            guard let f = CoordinateFormat(rawValue: fromText.lowercased()), f != .dms else {
                throw UsageError("--from \(fromText): expected dd, mgrs, usng or utm")
            }
            from = f
        }
        var precision = 0
        if let p = try arguments.value("precision") {
            guard let value = Int(p), (-20...20).contains(value) else {
                throw UsageError("--precision \(p): expected a whole number such as -1, 0 or 3")
            }
            precision = value
        }
        try arguments.finish(maxPositional: Int.max)

        var output = BufferedOutput()
        // Also when reading standard input fails: the lines converted so far still appear.
        defer { output.flush() }
        var failed = false
        func convert(_ line: String) {
            do {
                let parsed = try CoordinateText.parse(line, as: from)
                output.write(try CoordinateText.format(parsed, as: to, precision: precision))
            } catch {
                failed = true
                output.write("ERROR: \(error)")
            }
        }
        if arguments.positional.isEmpty {
            var lines = LineReader(descriptor: FileHandle.standardInput.fileDescriptor, maxLength: maxLineBytes)
            while let line = try lines.next() {
                switch line {
                case .text(let text): convert(text)
                case .tooLong:
                    failed = true
                    output.write("ERROR: line longer than \(maxLineBytes) bytes")
                }
            }
        } else {
            arguments.positional.forEach(convert)
        }
        return failed ? 1 : 0
    }
}

/// Collects output lines and writes them to standard output in large chunks.
private struct BufferedOutput {
    private var buffer = ""

    mutating func write(_ line: String) {
        buffer += line
        buffer += "\n"
        if buffer.utf8.count >= 1 << 16 { flush() }
    }

    mutating func flush() {
        FileHandle.standardOutput.write(Data(buffer.utf8))
        buffer = ""
    }
}
