// Checks shared by the fuzz targets (each target is linked with this file).
import Glibc

/// Stops the run with `message` on stderr when `condition` fails: libFuzzer then saves the
/// input. (`precondition` drops its message in optimised builds.)
func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fail(message()) }
}

func fail(_ message: String) -> Never {
    fputs("fuzz check failed: \(message)\n", stderr)
    abort()
}

/// Bad input is reported as one line of reasonable length: anything else is a bug.
func requireOneLine(_ error: any Error) {
    let text = String(describing: error)
    require(!text.isEmpty && !text.contains("\n") && !text.contains("\r"), "not one line: \(text)")
    require(text.count <= 1000, "a message of \(text.count) characters")
}
