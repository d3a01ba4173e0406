import Foundation
import Glibc
import Synchronization

/// `meridian serve ...` running in the background on a free loopback port, for the serve
/// tests: its standard output (the banner, then one line per request) is collected as it
/// comes, so the server never blocks on a full pipe.
public final class MeridianServer {
    public let port: Int
    private let process: Process
    private let printed = Printed()
    private let errors: Pipe

    /// Standard output as it arrives, filled on the pipe's reading thread.
    private final class Printed: Sendable {
        let data = Mutex(Data())
    }

    /// Starts `meridian serve ARGUMENTS --port 0` and waits for its banner.
    public init(_ arguments: [String]) throws {
        process = Process()
        process.executableURL = Meridian.binary
        process.arguments = ["serve"] + arguments + ["--port", "0"]
        let output = Pipe()
        errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        let banner = DispatchSemaphore(value: 0)
        let printed = self.printed
        output.fileHandleForReading.readabilityHandler = { handle in
            let chunk = handle.availableData
            let (lines, ended) = printed.data.withLock { printed in
                printed += chunk
                return (printed.contains(10), chunk.isEmpty)
            }
            if lines || ended { banner.signal() }
            if ended { handle.readabilityHandler = nil }
        }
        try process.run()
        banner.wait()
        let first = String(decoding: printed.data.withLock { $0 }, as: UTF8.self).split(separator: "\n").first ?? ""
        // "serving World at http://127.0.0.1:43567/ (...)"
        guard let range = first.range(of: "http://127.0.0.1:"),
            let number = Int(first[range.upperBound...].prefix { $0.isNumber })
        else {
            process.waitUntilExit()
            let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            throw ToolFailure(
                ToolRun(
                    command: ["meridian", "serve"] + arguments, status: process.terminationStatus,
                    output: Array(first.utf8), errors: Array(message.utf8)),
                unusable: "printed no address")
        }
        port = number
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// What it printed on standard output so far, line by line (the banner first).
    public var lines: [String] {
        String(decoding: printed.data.withLock { $0 }, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// Sends `signal`, waits for the server to exit, and returns its exit status and what it
    /// printed on standard error.
    public func stop(with signal: Int32) -> (status: Int32, stderr: String) {
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (process.terminationStatus, message)
    }
}

/// Fixtures/serve/client.py: HTTP requests made with Python's http.client, a client that is
/// not ours. See the script for what each command takes and gives.
public enum HTTPClient {
    public struct Response {
        public let status: Int
        public let headers: [String: String]
        public let body: [UInt8]
    }

    /// Requests one after the other over one connection; `headers` per request.
    public static func get(port: Int, _ paths: [String], headers: [String: String] = [:], method: String = "GET")
        throws -> [Response]
    {
        let requests = paths.map { ["method": method, "path": $0, "headers": headers] as [String: Any] }
        return try responses(run("get", ["port": port, "requests": requests]))
    }

    /// Every path requested at the same moment, each on its own connection.
    public static func burst(port: Int, _ paths: [String]) throws -> [Response] {
        try responses(run("burst", ["port": port, "paths": paths]))
    }

    /// `clients` clients for `seconds` seconds over `cases` (path, status, file of the
    /// expected bytes for a 200): the script's report.
    public static func load(
        port: Int, clients: Int, seconds: Double, cases: [(path: String, status: Int, file: String?)]
    )
        throws -> [String: Any]
    {
        let spec: [String: Any] = [
            "port": port, "clients": clients, "seconds": seconds,
            "cases": cases.map { c -> [String: Any] in
                var object: [String: Any] = ["path": c.path, "status": c.status]
                if let file = c.file { object["file"] = file }
                return object
            },
        ]
        return try run("load", spec)
    }

    private static func run(_ command: String, _ spec: [String: Any]) throws -> [String: Any] {
        let input = String(decoding: try JSONSerialization.data(withJSONObject: spec), as: UTF8.self)
        let run = try Tool.run("/usr/bin/python3", [Repository.fixture("serve/client.py"), command], input: input)
            .succeeded()
        guard let object = try JSONSerialization.jsonObject(with: Data(run.output)) as? [String: Any] else {
            throw ToolFailure(run, unusable: "printed no JSON object")
        }
        return object
    }

    private static func responses(_ object: [String: Any]) throws -> [Response] {
        guard let list = object["responses"] as? [[String: Any]] else {
            throw ToolFailure(
                ToolRun(command: ["client.py"], status: 0, output: [], errors: []), unusable: "gave no responses")
        }
        return try list.map { item in
            Response(
                status: item["status"] as? Int ?? -1, headers: item["headers"] as? [String: String] ?? [:],
                body: try PMTilesReference.bytes(hex: item["body"] as? String ?? ""))
        }
    }
}
