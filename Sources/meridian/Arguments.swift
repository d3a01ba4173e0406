import Foundation

/// A command line split into positional arguments and `--name value` / `--flag` options.
/// `flags` names the options that take no value. Every option a command reads must be
/// asked for (`value`, `flag`); `finish()` then rejects whatever was given but never read,
/// so a typo is an error, not silently ignored.
final class Arguments {
    private(set) var positional: [String] = []
    private var options: [(name: String, value: String?)] = []
    private var consumed: Set<String> = []

    init(_ argv: [String], flags: Set<String>) {
        var index = 0
        while index < argv.count {
            var word = argv[index]
            if word == "-o" { word = "--output" }  // the one short option: `-o FILE`
            if word.hasPrefix("--"), word.count > 2 {
                let body = word.dropFirst(2)
                if let eq = body.firstIndex(of: "=") {
                    options.append((String(body[..<eq]), String(body[body.index(after: eq)...])))
                } else if !flags.contains(String(body)), index + 1 < argv.count,
                    !Arguments.looksLikeOption(argv[index + 1])
                {
                    options.append((String(body), argv[index + 1]))
                    index += 1
                } else {
                    options.append((String(body), nil))
                }
            } else {
                positional.append(word)
            }
            index += 1
        }
    }

    /// Negative numbers (`--bbox -10,-5,10,5`) are values, not options.
    private static func looksLikeOption(_ word: String) -> Bool {
        (word.hasPrefix("--") && word.count > 2) || word == "-o"
    }

    /// The value of `--name VALUE`, or nil when absent.
    func value(_ name: String) throws -> String? {
        consumed.insert(name)
        let matches = options.filter { $0.name == name }
        guard let last = matches.last else { return nil }
        guard let value = last.value else { throw UsageError("--\(name) needs a value") }
        if matches.count > 1 { throw UsageError("--\(name) is given more than once") }
        return value
    }

    func required(_ name: String) throws -> String {
        guard let v = try value(name) else { throw UsageError("--\(name) is required") }
        return v
    }

    /// True when `--name` (declared in the command's `flags`) is present.
    func flag(_ name: String) -> Bool {
        consumed.insert(name)
        return options.contains { $0.name == name }
    }

    /// Call after reading every option: rejects unknown options and extra positionals.
    func finish(maxPositional: Int) throws {
        if let unknown = options.first(where: { !consumed.contains($0.name) }) {
            throw UsageError("unknown option --\(unknown.name)")
        }
        if positional.count > maxPositional {
            throw UsageError("unexpected argument '\(positional[maxPositional])'")
        }
    }
}

struct UsageError: Error, CustomStringConvertible, ExitStatusProviding {
    let description: String
    init(_ message: String) { description = message }
    var exitStatus: Int32 { 2 }
}
