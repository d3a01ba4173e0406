// The command-line tool: argument parsing and dispatch, nothing else.
// Each subcommand lives in its own file and calls into the library modules.
import Foundation

let subcommands: [any Subcommand.Type] = [
    RenderCommand.self,
    CoordCommand.self,
    DiffCommand.self,
    SheetCommand.self,
    TilesCommand.self,
    MergeCommand.self,
    ConvertCommand.self,
    ServeCommand.self,
    GridCommand.self,
]

@MainActor func printUsage() {
    var text = "usage: meridian <command> [options]\n\ncommands:\n"
    for command in subcommands {
        text += "  " + command.name.padding(toLength: 8, withPad: " ", startingAt: 0) + command.summary + "\n"
    }
    text += "\n`meridian <command> --help` shows a command's options; `meridian --version` the version.\n"
    FileHandle.standardError.write(Data(text.utf8))
}

let argv = Array(CommandLine.arguments.dropFirst())
if argv == ["--version"] || argv == ["version"] {
    print("meridian \(meridianVersion)")
    exit(0)
}
guard let name = argv.first, name != "--help", name != "-h" else {
    printUsage()
    exit(argv.isEmpty ? 2 : 0)
}
guard let command = subcommands.first(where: { $0.name == name }) else {
    FileHandle.standardError.write(Data("meridian: unknown command '\(name)'\n".utf8))
    printUsage()
    exit(2)
}
exit(runSubcommand(command, Array(argv.dropFirst())))
