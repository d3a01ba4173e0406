import Foundation

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
    do {
        return try command.run(Arguments(argv, flags: command.flags))
    } catch {
        printError("meridian \(command.name): \(commandLineMessage(error))")
        return (error as? ExitStatusProviding)?.exitStatus ?? 1
    }
}

func printError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}

/// Errors that want a particular exit status (for example `diff` uses 2 for unusable input).
protocol ExitStatusProviding {
    var exitStatus: Int32 { get }
}
