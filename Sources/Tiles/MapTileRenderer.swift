import Geodesy
import MapModel
import Raster
import Render

/// The real renderer: draws a metatile with `MapRenderer`.
///
/// The view of a block of tiles has a whole-number global pixel origin, and label placement
/// is global per resolution, so a tile has the same pixels whichever metatile it is cut from;
/// the buffer widens the feature query so symbols of features just outside are drawn too.
public final class MapTileRenderer: MetatileRendering {
    private let renderer: MapRenderer
    public let format: TileFormat
    /// The buffer in 1x pixels; @2x tiles draw twice as many pixels of it.
    public let buffer: Int

    /// The most pixels of buffer accepted: past a tile, nothing is gained.
    public static let maxBuffer = 1024

    public static func check(buffer: Int) throws(TilesError) {
        guard buffer >= 0, buffer <= maxBuffer else { throw .bufferOutOfRange(buffer, max: maxBuffer) }
    }

    /// Told of long label placements ("placing labels for zoom 4").
    private let progress: TileProgress?

    /// The area the pyramid renders: polygons it cuts are labelled in their part inside its
    /// tiles, the same in every metatile (see `View.renderedArea`).
    private let extent: GeoBounds

    public init(
        map: LoadedMap, format: TileFormat, buffer: Int, progress: TileProgress? = nil, extent: GeoBounds = .world
    ) throws {
        try Self.check(buffer: buffer)
        self.extent = extent
        renderer = try MapRenderer(map: map)
        self.format = format
        self.buffer = buffer
        self.progress = progress
    }

    public func renderMetatile(_ metatile: Metatile) throws -> Image {
        try renderer.renderImage(
            view: try view(of: metatile), margin: Double(buffer * format.pixelRatio),
            tileSize: format.tileSize * format.pixelRatio)
    }

    /// Cairo's premultiplied pixels as drawn: the job converts only the tiles it encodes.
    public func withRenderedPixels<T>(_ metatile: Metatile, _ body: (MetatilePixels) throws -> T) throws -> T {
        try renderer.withRenderedPixels(
            view: try view(of: metatile), margin: Double(buffer * format.pixelRatio),
            tileSize: format.tileSize * format.pixelRatio
        ) { bytes, width, height, stride in
            var pixels = MetatilePixels(
                bytes: bytes, width: width, height: height, stride: stride, layout: .premultipliedARGB32)
            pixels.plainTiles = renderer.plainRegions
            return try body(pixels)
        }
    }

    private func view(of metatile: Metatile) throws -> View {
        if let progress { renderer.labelStage = progress.labelStage(zoom: metatile.z) }
        var view = try View.tiles(
            z: metatile.z, x: metatile.x, y: metatile.y, columns: metatile.columns,
            rows: metatile.rows, tileSize: format.tileSize, pixelRatio: format.pixelRatio)
        if extent != .world {
            let range = extent.tileRange(zoom: metatile.z)
            let side = Double(format.tileSize * format.pixelRatio)
            view.renderedArea = Rect(
                minX: Double(range.minX) * side, minY: Double(range.minY) * side, maxX: Double(range.maxX + 1) * side,
                maxY: Double(range.maxY + 1) * side)
        }
        return view
    }
}

/// PNG through libpng with Raster's measured settings: an exact palette when a tile has at
/// most 256 colours (most map tiles: flat fills, a few anti-aliased edges), RGB when every
/// pixel is opaque, RGBA otherwise; filter and zlib level as chosen in `PNGEncodingOptions`.
public struct PNGTileEncoder: TileEncoding {
    public let options: PNGEncodingOptions

    public init(options: PNGEncodingOptions = PNGEncodingOptions()) {
        self.options = options
    }

    public func encode(_ tile: Image) throws -> [UInt8] {
        try PNG.encode(tile, options: options)
    }

    /// Opaque tiles (every tile of a map with an opaque background) are encoded from Cairo's
    /// words as they are, with the bytes the converted image would give; others are converted.
    public func encode(cairoARGB32 tile: UnsafeRawBufferPointer, side: Int, stride: Int) throws -> [UInt8] {
        if let png = try PNG.encodeOpaque(
            cairoARGB32: tile, width: side, height: side, stride: stride, options: options)
        {
            return png
        }
        return try encode(Image(cairoARGB32: tile, width: side, height: side, stride: stride))
    }
}
