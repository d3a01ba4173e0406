import Foundation
import Geodesy

extension MapDocument {
    /// Keys of a raster layer (`"raster": "dem.tif"`); docs/rasters.md.
    static let rasterLayerKeys = [
        "name", "raster", "srs", "geotransform", "visible", "minScale", "maxScale", "minZoom", "maxZoom", "band",
        "nodata", "resampling", "colors", "colorMode", "hillshade", "opacity", "compositing",
    ]
    static let hillshadeKeys = ["azimuth", "altitude", "zFactor", "multidirectional"]

    /// True for a layer object with a `raster` key: it is decoded by `decodeRasterLayer`.
    static func isRasterLayer(_ node: JSONNode) -> Bool {
        guard case .object(let members) = node.value else { return false }
        return members.contains { $0.key == "raster" }
    }

    /// A raster layer: its dataset becomes the layer's source (with `srs`), the rest its style.
    static func decodeRasterLayer(_ node: JSONNode, baseDirectory: String) throws -> Layer {
        let object = try node.object(allowed: rasterLayerKeys)
        let name = try object.required("name").string()
        guard !name.isEmpty else { throw object["name"]!.error("a layer name cannot be empty") }
        let pathNode = try object.required("raster")
        let path = try pathNode.string()
        guard !path.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw pathNode.error("expected a non-empty string")
        }
        var source = LayerSource(dataset: resolve(path, against: baseDirectory))
        if let n = object["srs"] { source.srs = try n.string() }
        var layer = Layer(name: name, source: source)
        if let n = object["visible"] { layer.visible = try n.bool() }
        layer.scales = try scaleRange(object)
        // Opacity and compositing are every layer's: the picture is put on the map as a group is.
        if let n = object["opacity"] { layer.opacity = try n.opacity() }
        if let n = object["compositing"] { layer.compositing = try n.enumValue(Compositing.self) }
        layer.raster = try rasterStyle(object)
        return layer
    }

    private static func rasterStyle(_ object: JSONObject) throws -> RasterStyle {
        var style = RasterStyle()
        if let n = object["band"] {
            let band = try n.integer()
            guard band >= 1 else { throw n.error("bands are numbered from 1; got \(band)") }
            style.band = band
        }
        if let n = object["nodata"] { style.nodata = try n.number() }
        if let n = object["geotransform"] {
            let items = try n.array()
            guard items.count == 6 else { throw n.error("a geotransform has 6 numbers; got \(items.count)") }
            let values = try items.map { try $0.number() }
            guard values[1] != 0, values[5] != 0 else { throw n.error("a geotransform's pixel size cannot be 0") }
            style.geotransform = values
        }
        if let n = object["resampling"] { style.resampling = try n.enumValue(RasterStyle.Resampling.self) }
        if let n = object["colors"] { style.colors = try colorStops(n) }
        if let n = object["colorMode"] {
            let mode = try n.string()
            guard mode == "interpolate" || mode == "step" else {
                throw n.error("\(DocumentError.quote(mode)) is not a colour mode (expected interpolate or step)")
            }
            guard style.colors != nil else { throw n.error("colorMode needs \"colors\"") }
            style.stepped = mode == "step"
        }
        if let n = object["hillshade"] { style.hillshade = try hillshade(n) }
        if style.hillshade != nil, let n = object["colors"] {
            throw n.error("a hillshade is grey: give colours and the hillshade as two layers")
        }
        return style
    }

    /// `[[value, colour], ...]` with values strictly ascending.
    private static func colorStops(_ node: JSONNode) throws -> [RasterStyle.ColorStop] {
        let items = try node.array()
        guard !items.isEmpty else { throw node.error("a colour ramp needs at least one [value, colour] stop") }
        var stops: [RasterStyle.ColorStop] = []
        for item in items {
            let pair = try item.array()
            guard pair.count == 2 else { throw item.error("a colour stop is [value, colour]; got \(pair.count) items") }
            let stop = RasterStyle.ColorStop(value: try pair[0].number(), color: try pair[1].color())
            if let previous = stops.last, stop.value <= previous.value {
                throw pair[0].error(
                    "the colour ramp is not sorted: \(DecimalFormat.shortest(stop.value)) follows "
                        + "\(DecimalFormat.shortest(previous.value)) (give stops in ascending order of value)")
            }
            stops.append(stop)
        }
        return stops
    }

    private static func hillshade(_ node: JSONNode) throws -> RasterStyle.Hillshade {
        var shade = RasterStyle.Hillshade()
        if case .bool(let on) = node.value {
            guard on else { throw node.error("give hillshade parameters or true; leave the key out for none") }
            return shade
        }
        let object = try node.object(allowed: hillshadeKeys)
        if let n = object["azimuth"] { shade.azimuth = try n.number(in: 0...360) }
        if let n = object["altitude"] { shade.altitude = try n.number(in: 0...90) }
        if let n = object["zFactor"] {
            shade.zFactor = try n.number()
            guard shade.zFactor > 0, shade.zFactor.isFinite else { throw n.error("the z-factor must be positive") }
        }
        if let n = object["multidirectional"] { shade.multidirectional = try n.bool() }
        return shade
    }
}
