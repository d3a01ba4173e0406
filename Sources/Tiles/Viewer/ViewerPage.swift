import Foundation

/// `index.html`: a Leaflet page that shows a tile set, as gdal2tiles writes beside its
/// pyramids. It opens at the tile set's centre (or at `#zoom/lat/lon` in the address, which
/// it keeps up to date), stays within its zoom range and bounds, credits the attribution, has
/// a scale bar, and, when the map has a grid, a control that switches between the tiles with
/// the grid and the same map rendered without it (`without-grid/`; `#zoom/lat/lon/without-grid`
/// opens on that one). The grid is a second rendering, not an overlay, because map and grid
/// labels share one collision space: drawn apart, they would overlap.
///
/// Leaflet itself comes from Debian's libjs-leaflet, copied beside the page (`leaflet/`) for
/// a directory pyramid, served under `/leaflet/` by `meridian serve`: the page needs no
/// network.
public struct ViewerPage: Sendable {
    public var metadata: TileSetMetadata
    /// The tiles' URL template, relative to the page or absolute.
    public var tiles: String
    /// The URL template of the same map without its grid, when it has one.
    public var tilesWithoutGrid: String?
    public var scheme: TileScheme
    /// Where `leaflet.js` and `leaflet.css` are, relative to the page or absolute.
    public var leaflet: String

    public init(
        metadata: TileSetMetadata, tiles: String, tilesWithoutGrid: String? = nil, scheme: TileScheme = .xyz,
        leaflet: String = "leaflet"
    ) {
        self.metadata = metadata
        self.tiles = tiles
        self.tilesWithoutGrid = tilesWithoutGrid
        self.scheme = scheme
        self.leaflet = leaflet
    }

    /// The folder a grid-free layer lives in, inside a directory pyramid.
    public static let withoutGridFolder = "without-grid"

    public var html: String {
        let values = metadata.values
        let bounds = metadata.bounds ?? [-180, -85.0511287798066, 180, 85.0511287798066]
        let zooms = metadata.zooms ?? 0...18
        let center = (values["center"] ?? "").split(separator: ",").compactMap { Double($0) }
        var settings: [String: Any] = [
            "name": values["name"] ?? "tiles",
            "attribution": values["attribution"] ?? "",
            "tiles": tiles,
            "tms": scheme == .tms,
            // Leaflet wants south-west and north-east corners as [lat, lon].
            "bounds": [[bounds[1], bounds[0]], [bounds[3], bounds[2]]],
            "minzoom": zooms.lowerBound,
            "maxzoom": zooms.upperBound,
            "center": center.count == 3
                ? [center[1], center[0], center[2]] : [(bounds[1] + bounds[3]) / 2, (bounds[0] + bounds[2]) / 2, 0],
        ]
        if let tilesWithoutGrid { settings["withoutGrid"] = tilesWithoutGrid }
        // Slashes stay escaped ("<\/script>"), so no value can end the script element.
        let json = String(
            decoding: try! JSONSerialization.data(withJSONObject: settings, options: [.sortedKeys]), as: UTF8.self)
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(Self.escaped(values["name"] ?? "tiles"))</title>
            <link rel="stylesheet" href="\(Self.escaped(leaflet))/leaflet.css">
            <script src="\(Self.escaped(leaflet))/leaflet.js"></script>
            <style>html, body, #map { width: 100%; height: 100%; margin: 0; }</style>
            </head>
            <body>
            <div id="map"></div>
            <script>
            // Written by meridian: the tile set's name, bounds, zooms, attribution and tiles.
            var tileset = \(json);
            var bounds = L.latLngBounds(tileset.bounds);
            var map = L.map("map", { minZoom: tileset.minzoom, maxZoom: tileset.maxzoom, fadeAnimation: false });
            function layer(url) {
              return L.tileLayer(url, { minZoom: tileset.minzoom, maxZoom: tileset.maxzoom, tms: tileset.tms,
                                        bounds: bounds, noWrap: true, attribution: tileset.attribution });
            }
            var withGrid = layer(tileset.tiles);
            var withoutGrid = tileset.withoutGrid ? layer(tileset.withoutGrid) : null;
            // The view: #zoom/lat/lon (and /without-grid) in the address, else the tile set's centre.
            var view = location.hash.slice(1).split("/");
            var shown = withoutGrid && view[3] === "without-grid" ? withoutGrid : withGrid;
            shown.addTo(map);
            if (withoutGrid) {
              L.control.layers({ "Map with grid": withGrid, "Map without grid": withoutGrid },
                               {}, { collapsed: false }).addTo(map);
              map.on("baselayerchange", function (event) { shown = event.layer; keep(); });
            }
            L.control.scale().addTo(map);
            var position = view.slice(0, 3).map(Number);
            if (view.length >= 3 && position.every(isFinite)) {
              map.setView([position[1], position[2]], position[0]);
            } else {
              map.setView([tileset.center[0], tileset.center[1]], tileset.center[2]);
            }
            function keep() {
              var c = map.getCenter();
              history.replaceState(null, "", "#" + map.getZoom() + "/" + c.lat.toFixed(5) + "/" + c.lng.toFixed(5)
                                   + (shown === withoutGrid ? "/without-grid" : ""));
            }
            map.on("moveend", keep);
            </script>
            </body>
            </html>

            """
    }

    /// Text safe inside HTML text and attribute values.
    static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}

/// Debian's libjs-leaflet: the files the viewer page needs.
public enum LeafletAssets {
    /// Where libjs-leaflet installs Leaflet.
    public static let installed = "/usr/share/javascript/leaflet"

    /// The files, relative to `installed` and to the copy: the script, the style sheet and
    /// the images the style sheet names (the layers control's icon, markers).
    public static let files = [
        "leaflet.js", "leaflet.css", "images/layers.png", "images/layers-2x.png", "images/marker-icon.png",
        "images/marker-icon-2x.png", "images/marker-shadow.png",
    ]

    /// The installed file for a path under `leaflet/` (nil for any other name, so a request
    /// cannot reach outside the folder).
    public static func installedPath(of relative: String) -> String? {
        files.contains(relative) ? installed + "/" + relative : nil
    }
}
