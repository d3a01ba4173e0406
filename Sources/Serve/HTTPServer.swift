import CHTTPServer
import Foundation
import Synchronization

/// One HTTP request, as much of it as the routes need.
public struct HTTPRequest: Sendable {
    public var method: String
    /// The path, without the query.
    public var path: String
    /// The client's address, as text.
    public var client: String
    /// The request headers the routes read (`If-None-Match`, `Host`), by lowercase name.
    public var headers: [String: String]

    public init(method: String, path: String, client: String = "-", headers: [String: String] = [:]) {
        self.method = method
        self.path = path
        self.client = client
        self.headers = headers
    }

    /// The headers read from a request (others are not asked for).
    public static let headerNames = ["If-None-Match", "Host"]
}

/// The answer to a request. `note` is not sent: it says, for the access log, where a tile
/// came from (`render`, `wait`, `memory`, `disk`, `archive`).
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]
    public var note: String?

    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = [], note: String? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.note = note
    }

    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// What went wrong starting a server.
public struct ServeError: Error, CustomStringConvertible, Sendable, Equatable {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}

/// An HTTP server over libmicrohttpd: a pool of `threads` threads answers requests, each by
/// calling `handler`, which may block (render) while others are answered.
public final class HTTPServer: Sendable {
    public let port: Int
    private let server: Mutex<OpaquePointer?>
    private let box: HandlerBox

    /// Holds the handler for the C callback, which finds it through its context pointer.
    fileprivate final class HandlerBox: Sendable {
        let handler: @Sendable (HTTPRequest) -> HTTPResponse
        init(_ handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse) { self.handler = handler }
    }

    /// Listens on `address` (an IPv4 or IPv6 literal) and `port` (0: a free port, then
    /// `port` says which), with at most `connections` connections at once.
    public init(
        address: String, port: Int, threads: Int, connections: Int = 256,
        handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse
    ) throws(ServeError) {
        guard (0...65535).contains(port) else { throw ServeError("port \(port) is out of range: 0 to 65535") }
        box = HandlerBox(handler)
        var message = [CChar](repeating: 0, count: 256)
        let callback: hs_handler = { context, request in
            guard let context, let request else { return }
            Unmanaged<HandlerBox>.fromOpaque(context).takeUnretainedValue().answer(request)
        }
        let started = hs_start(
            address, UInt16(port), UInt32(threads), UInt32(connections), callback,
            Unmanaged.passUnretained(box).toOpaque(), &message, message.count)
        guard let started else {
            throw ServeError(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        self.port = Int(hs_port(started))
        server = Mutex(started)
    }

    /// Stops accepting, waits for the requests being answered, and closes the socket.
    public func stop() {
        server.withLock { server in
            if let running = server { hs_stop(running) }
            server = nil
        }
    }

    deinit { stop() }
}

extension HTTPServer.HandlerBox {
    fileprivate func answer(_ request: UnsafeMutablePointer<hs_request>) {
        var headers: [String: String] = [:]
        for name in HTTPRequest.headerNames {
            if let value = hs_header(request, name) { headers[name.lowercased()] = String(cString: value) }
        }
        let client = withUnsafeBytes(of: request.pointee.client) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        let response = handler(
            HTTPRequest(
                method: String(cString: request.pointee.method), path: String(cString: request.pointee.url),
                client: client, headers: headers))
        // Header values never hold a line break: they are made by the routes, not taken
        // from the request.
        let lines = response.headers.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
        response.body.withUnsafeBytes { body in
            hs_respond(request, UInt32(response.status), body.baseAddress, body.count, lines)
        }
    }
}
