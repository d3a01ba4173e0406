import Foundation
import MapModel
import Render

/// One `meridian <name>` command. `run` returns the process exit status.
protocol Subcommand {
    static var name: String { get }
    static var summary: String { get }
    /// Full help text, printed for `--help`.
    static var usage: String { get }
    /// Options that take no value (`--quiet`); every other `--name` takes one.
    static var flags: Set<String> { get }
    static func run(_ arguments: Arguments) throws -> Int32
}

/// Prints errors as one line on stderr: `meridian <command>: <what went wrong>`.
func runSubcommand(_ command: any Subcommand.Type, _ argv: [String]) -> Int32 {
    if argv.contains("--help") || argv.contains("-h") {
        print(command.usage)
        return 0
    }
    // What the C libraries logged is said in our words, after the command's own lines.
    defer { printWarnings(LibraryWarnings.drain(), command: command.name) }
    do {
        return try command.run(Arguments(argv, flags: command.flags))
    } catch {
        printError("meridian \(command.name): \(commandLineMessage(error))")
        return (error as? ExitStatusProviding)?.exitStatus ?? 1
    }
}

/// Each warning as one line on stderr: `meridian <command>: warning: <what>`.
func printWarnings(_ lines: [String], command: String) {
    for line in lines { printError("meridian \(command): warning: \(line)") }
}

/// Warns about what looks wrong in a map but does not stop it (misspelt attributes, fonts
/// not found); the command goes on.
func warnAboutMap(_ map: LoadedMap, command: String) throws {
    printWarnings(try MapWarnings.list(for: map), command: command)
}

func printError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}

/// Errors that want a particular exit status (for example `diff` uses 2 for unusable input).
protocol ExitStatusProviding {
    var exitStatus: Int32 { get }
}
