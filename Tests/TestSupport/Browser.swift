import Foundation
import Raster
import Testing

/// Debian's Chromium, headless, as the real browser that loads a viewer page: it runs the
/// page's scripts, fetches its tiles, and the screenshot shows what a user would see.
public enum Chromium {
    /// A `width` x `height` screenshot of `url`, taken once the page is idle (Chromium's
    /// virtual time runs the page's timers and network until then, up to 20 s of page time).
    /// As root, Chromium runs only without its sandbox.
    public static func screenshot(_ url: String, width: Int, height: Int) throws -> Image {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let shot = folder.path + "/shot.png"
        let profile = folder.path + "/profile"
        _ = try Tool.run(
            "chromium",
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
                "--user-data-dir=" + profile, "--force-device-scale-factor=1", "--window-size=\(width),\(height)",
                "--virtual-time-budget=20000", "--screenshot=" + shot, url,
            ]
        ).succeeded()
        return try PNG.decode(contentsOf: shot)
    }
}

/// Python's `http.server` serving a folder on a free loopback port: a web server that is not
/// ours, for pages that must be loaded over HTTP. Stopped when this object goes away.
public final class StaticHTTPServer {
    public let port: Int
    private let process: Process

    public init(serving folder: String) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-u", "-m", "http.server", "--bind", "127.0.0.1", "--directory", folder, "0"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // "Serving HTTP on 127.0.0.1 port 43567 (http://127.0.0.1:43567/) ..."
        var printed = Data()
        while true {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else {
                throw ToolFailure(
                    ToolRun(command: ["python3", "-m", "http.server"], status: -1, output: Array(printed), errors: []),
                    unusable: "ended before it said its port")
            }
            printed += chunk
            let text = String(decoding: printed, as: UTF8.self)
            if let range = text.range(of: " port "), let number = Int(text[range.upperBound...].prefix { $0.isNumber })
            {
                port = number
                break
            }
        }
    }

    deinit {
        // SIGKILL: a process started from a test's thread inherits its blocked SIGTERM.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    public func url(_ path: String) -> String { "http://127.0.0.1:\(port)/" + path }
}
