import Foundation
import Raster
import Synchronization
import Tiles

/// The routes of `meridian serve`:
///
/// - `/` and `/index.html`: the viewer page (`ViewerPage`);
/// - `/tiles.json`: TileJSON 3.0.0, its tile URL made from the request's `Host`;
/// - `/leaflet/...`: Leaflet's files, from Debian's libjs-leaflet;
/// - `/{z}/{x}/{y}.EXT` (and `/without-grid/{z}/{x}/{y}.EXT` for a map with a grid): a tile,
///   with an `ETag` (the XXH3-128 hash of its bytes) and `Cache-Control`; 304 when the
///   client's `If-None-Match` names it; 404 for a tile outside the pyramid or holding
///   nothing; 400 for a tile path that is not one (`/a/b/c.png`, `/1/2.png`).
///
/// GET and HEAD only (405 otherwise). Every other path is 404.
public final class TileService: Sendable {
    public let tiles: any ServedTiles
    private let format: String
    private let leaflet: String
    private let requests = Mutex(0)

    /// How long clients may keep a tile without asking again.
    public static let tileCacheControl = "public, max-age=3600"

    public init(tiles: any ServedTiles, leaflet: String = LeafletAssets.installed) {
        self.tiles = tiles
        self.format = tiles.metadata.values["format"] ?? "png"
        self.leaflet = leaflet
    }

    /// Requests answered so far.
    public var requestCount: Int { requests.withLock { $0 } }

    public func respond(to request: HTTPRequest) -> HTTPResponse {
        requests.withLock { $0 += 1 }
        guard request.method == "GET" || request.method == "HEAD" else {
            return text(405, "only GET and HEAD are answered here\n", headers: [("Allow", "GET, HEAD")])
        }
        let path = request.path
        switch path {
        case "/", "/index.html":
            return HTTPResponse(
                status: 200, headers: [("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-cache")],
                body: Array(viewerPage.html.utf8))
        case "/" + TileJSON.fileName:
            let host = request.headers["host"].flatMap { $0.isEmpty ? nil : $0 } ?? "127.0.0.1"
            let template = "http://\(host)/" + TileJSON.relativeTiles(format: format)
            return HTTPResponse(
                status: 200,
                headers: [
                    ("Content-Type", "application/json"), ("Cache-Control", "no-cache"),
                    ("Access-Control-Allow-Origin", "*"),
                ],
                body: TileJSON.document(tiles.metadata, tiles: template, scheme: .xyz))
        default:
            break
        }
        if path.hasPrefix("/leaflet/") { return leafletFile(String(path.dropFirst("/leaflet/".count))) }
        var parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
        var layer = TileLayer.map
        if parts.first == TileLayer.withoutGrid.rawValue {
            layer = .withoutGrid
            parts.removeFirst()
        }
        // A path that starts with a number, or ends like a tile, is meant as a tile: it is
        // one, or it is malformed (400). Anything else is a page that is not here (404).
        guard parts.first?.first?.isNumber == true || parts.last?.hasSuffix("." + format) == true else {
            return text(404, "no such page: \(path)\n")
        }
        return tile(parts, layer: layer, request: request)
    }

    private var viewerPage: ViewerPage {
        let relative = TileJSON.relativeTiles(format: format)
        return ViewerPage(
            metadata: tiles.metadata, tiles: "/" + relative,
            tilesWithoutGrid: tiles.layers.contains(.withoutGrid)
                ? "/\(TileLayer.withoutGrid.rawValue)/" + relative : nil,
            leaflet: "/leaflet")
    }

    /// `z`, `x`, `y.EXT`: each a number of at most nine digits.
    private func tile(_ parts: [String], layer: TileLayer, request: HTTPRequest) -> HTTPResponse {
        func number(_ text: Substring) -> Int? {
            guard !text.isEmpty, text.count <= 9, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            return Int(text)
        }
        let last = parts.count == 3 ? parts[2].split(separator: ".", omittingEmptySubsequences: false) : []
        guard parts.count == 3, last.count == 2, let z = number(Substring(parts[0])),
            let x = number(Substring(parts[1])),
            let y = number(last[0])
        else {
            return text(400, "not a tile path: \(request.path) (tiles are /{z}/{x}/{y}.\(format))\n")
        }
        guard last[1] == format, z <= ZoomRange.deepest, x < 1 << z, y < 1 << z, tiles.layers.contains(layer) else {
            return text(404, "no such tile: \(request.path)\n")
        }
        let id = TileID(z: z, x: x, y: y)
        let found: TileLookup
        do { found = try tiles.lookup(id, layer: layer) } catch {
            return text(500, "tile \(id): \(error)\n", note: "error")
        }
        switch found {
        case .outside:
            return text(
                404,
                "tile \(id) is outside the tile set (zoom \(tiles.metadata.values["minzoom"] ?? "?")-\(tiles.metadata.values["maxzoom"] ?? "?"))\n"
            )
        case .absent(let origin):
            return text(404, "tile \(id) holds nothing\n", note: origin)
        case .tile(let tile, let origin):
            let etag = "\"\(tile.dataHash.hex)\""
            let headers = [
                ("ETag", etag), ("Cache-Control", TileService.tileCacheControl), ("Access-Control-Allow-Origin", "*"),
            ]
            if let wanted = request.headers["if-none-match"],
                wanted == "*"
                    || wanted.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == etag })
            {
                return HTTPResponse(status: 304, headers: headers, note: origin)
            }
            return HTTPResponse(
                status: 200, headers: [("Content-Type", TileService.contentType(format))] + headers, body: tile.data,
                note: origin)
        }
    }

    private func leafletFile(_ relative: String) -> HTTPResponse {
        guard LeafletAssets.files.contains(relative) else { return text(404, "no such file: /leaflet/\(relative)\n") }
        do {
            let bytes = try FileIO.readBytes(atPath: leaflet + "/" + relative)
            let type =
                relative.hasSuffix(".js")
                ? "text/javascript" : relative.hasSuffix(".css") ? "text/css" : "image/png"
            return HTTPResponse(
                status: 200, headers: [("Content-Type", type), ("Cache-Control", "public, max-age=86400")], body: bytes)
        } catch {
            return text(404, "Leaflet is not installed here (\(error)): Debian's libjs-leaflet provides it\n")
        }
    }

    static func contentType(_ format: String) -> String {
        switch format {
        case "png": return "image/png"
        case "jpg": return "image/jpeg"
        case "webp": return "image/webp"
        default: return "application/octet-stream"
        }
    }

    private func text(_ status: Int, _ message: String, headers: [(String, String)] = [], note: String? = nil)
        -> HTTPResponse
    {
        HTTPResponse(
            status: status, headers: [("Content-Type", "text/plain; charset=utf-8")] + headers.map { ($0.0, $0.1) },
            body: Array(message.utf8), note: note)
    }
}

/// One line per request for the access log: client, request, status, bytes, time, and where
/// a tile came from: `127.0.0.1 "GET /2/1/1.png" 200 13567 B 41.2 ms render`.
public enum AccessLog {
    public static func line(_ request: HTTPRequest, _ response: HTTPResponse, seconds: Double) -> String {
        let path = request.path.count > 200 ? String(request.path.prefix(200)) + "..." : request.path
        let quoted = path.unicodeScalars.map {
            $0.value < 0x20 || $0 == "\"" ? "%" + String($0.value, radix: 16) : String($0)
        }
        .joined()
        return "\(request.client) \"\(request.method) \(quoted)\" \(response.status) \(response.body.count) B "
            + String(format: "%.1f ms", seconds * 1000) + (response.note.map { " " + $0 } ?? "")
    }
}
