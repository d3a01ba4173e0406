import CCairo
import DataSources
import Foundation
import Geodesy
import MapModel

/// A raster layer warped and coloured for one view: an ARGB32 image of the view's pixels,
/// painted with the layer's opacity and compositing operator.
struct RasterPicture {
    let surface: CairoSurface

    func paint(into context: CairoContext, layer: Layer) {
        context.save()
        context.setCompositing(layer.compositing)
        context.setSource(surface, x: 0, y: 0)
        // Pixels land on pixels: no smoothing between them (a PDF keeps the image's pixels).
        cairo_pattern_set_filter(cairo_get_source(context.pointer), CAIRO_FILTER_NEAREST)
        context.paint(alpha: layer.opacity)
        context.restore()
    }
}

/// One render worker's readers of the map's raster layers (each with its own GDAL handles),
/// opened on first use, and the drawing of a layer for a view.
final class RasterLayers {
    private let map: LoadedMap
    private var readers: [Int: RasterReader] = [:]

    init(map: LoadedMap) {
        self.map = map
    }

    /// Layer `index` warped into `view`, or nil where the view misses the raster.
    func picture(layer index: Int, view: View) throws -> RasterPicture? {
        guard let style = map.document.layers[index].raster,
            let source = map.sources[index] as? GDALRasterSource,
            source.bounds.intersects(view.extent)
        else { return nil }
        let reader = try readers[index] ?? source.makeRasterReader()
        readers[index] = reader
        let crs: String
        if let plane = view.plane {
            guard let definition = plane.crsDefinition else {
                throw RenderError.invalidView("raster layers cannot be drawn in the plane \(plane.identifier)")
            }
            crs = definition
        } else {
            crs = "EPSG:3857"
        }
        let surface = try CairoSurface.image(width: view.width, height: view.height)
        let footprint = source.bounds.expanded(by: max(source.bounds.width, source.bounds.height) * 0.01)
        for block in RasterLayers.blocks(of: view) {
            let topLeft = view.transform.plane(
                global: PlanePoint(x: view.originX + Double(block.x), y: view.originY + Double(block.y)))
            let area = Rect(
                minX: topLeft.x, minY: topLeft.y - Double(block.height) * view.resolution,
                maxX: topLeft.x + Double(block.width) * view.resolution, maxY: topLeft.y)
            // Blocks of a Web Mercator view that miss the raster stay transparent, unread.
            if view.plane == nil, !area.intersects(footprint) { continue }
            let grid = RasterGrid(
                crs: crs, minX: topLeft.x, maxY: topLeft.y, resolution: view.resolution, width: block.width,
                height: block.height)
            try draw(source, reader, grid, style, isMercator: view.plane == nil, into: surface, at: block)
        }
        return RasterPicture(surface: surface)
    }

    /// A part of a view, in its pixels.
    struct Block {
        let x: Int
        let y: Int
        let width: Int
        let height: Int
    }

    /// Side of the blocks a block of tiles is warped in.
    static let blockSide = 256

    /// The parts a view is warped in. A block of tiles is warped in squares of 256 global
    /// pixels: GDAL's warper gives a pixel values that vary in the last bits with the extent it
    /// warps (its chunks, its source windows), and a tile must have the same bytes whichever
    /// metatile it is drawn in. Other views are warped whole.
    static func blocks(of view: View) -> [Block] {
        let side = blockSide
        guard view.isTileBlock, view.originX.truncatingRemainder(dividingBy: Double(side)) == 0,
            view.originY.truncatingRemainder(dividingBy: Double(side)) == 0, view.width % side == 0,
            view.height % side == 0
        else { return [Block(x: 0, y: 0, width: view.width, height: view.height)] }
        return stride(from: 0, to: view.height, by: side).flatMap { y in
            stride(from: 0, to: view.width, by: side).map { x in Block(x: x, y: y, width: side, height: side) }
        }
    }

    /// One block of the layer, warped, coloured and written into the surface.
    private func draw(
        _ source: GDALRasterSource, _ reader: RasterReader, _ grid: RasterGrid, _ style: RasterStyle,
        isMercator: Bool, into surface: CairoSurface, at block: Block
    ) throws {
        if let shade = style.hillshade {
            try drawHillshade(shade, reader, grid, style, isMercator: isMercator, into: surface, at: block)
        } else if case .values = source.kind {
            let warped = try reader.warpValues(grid, resampling: style.resampling, nodata: style.nodata)
            let range = source.greyRange
            let span = range.upperBound - range.lowerBound
            surface.writePixels(block) { index in
                let alpha = warped.alpha[index]
                guard alpha != 0 else { return 0 }
                let value = Double(warped.values[index])
                if let color = style.rampColor(value) {
                    return RasterPicture.premultiplied(color, alpha: alpha)
                }
                let level = UInt8(max(0, min(255, ((value - range.lowerBound) / span * 255).rounded())))
                return RasterPicture.premultiplied(level, level, level, alpha)
            }
        } else {
            let rgba = try reader.warpColours(grid, resampling: style.resampling)
            surface.writePixels(block) { index in
                RasterPicture.premultiplied(
                    rgba[index * 4], rgba[index * 4 + 1], rgba[index * 4 + 2], rgba[index * 4 + 3])
            }
        }
    }

    /// Elevations warped with a one-pixel border, then shaded.
    private func drawHillshade(
        _ shade: RasterStyle.Hillshade, _ reader: RasterReader, _ grid: RasterGrid, _ style: RasterStyle,
        isMercator: Bool, into surface: CairoSurface, at block: Block
    ) throws {
        var bordered = grid
        bordered.minX -= grid.resolution
        bordered.maxY += grid.resolution
        bordered.width += 2
        bordered.height += 2
        let warped = try reader.warpValues(bordered, resampling: style.resampling, nodata: style.nodata)
        let shaded = Hillshade(style: shade).shade(
            values: warped.values, alpha: warped.alpha, width: grid.width, height: grid.height
        ) { row in
            guard isMercator else { return grid.resolution }
            // A Web Mercator pixel spans cos(latitude) of its nominal size on the ground.
            let y = bordered.maxY - (Double(row) + 0.5) * grid.resolution
            return grid.resolution * cos(WebMercator.latitude(y: y) * .pi / 180)
        }
        surface.writePixels(block) { index in
            let level = shaded.grey[index]
            return RasterPicture.premultiplied(level, level, level, shaded.alpha[index])
        }
    }
}

extension RasterPicture {
    /// A Cairo ARGB32 pixel: colour premultiplied by alpha.
    @inline(__always) static func premultiplied(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8) -> UInt32 {
        guard a != 255 else { return 0xFF00_0000 | UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b) }
        func scaled(_ c: UInt8) -> UInt32 { (UInt32(c) * UInt32(a) + 127) / 255 }
        return UInt32(a) << 24 | scaled(r) << 16 | scaled(g) << 8 | scaled(b)
    }

    static func premultiplied(_ color: Color, alpha: UInt8) -> UInt32 {
        func byte(_ v: Double) -> UInt8 { UInt8(max(0, min(255, (v * 255).rounded()))) }
        let a = UInt8((Double(byte(color.alpha)) * Double(alpha) / 255).rounded())
        return premultiplied(byte(color.red), byte(color.green), byte(color.blue), a)
    }
}

extension CairoSurface {
    /// Sets the pixels of a block of an image surface to `pixel(index)` (index = row * block
    /// width + column, within the block).
    func writePixels(_ block: RasterLayers.Block, _ pixel: (Int) -> UInt32) {
        cairo_surface_flush(pointer)
        guard let data = cairo_image_surface_get_data(pointer) else { return }
        let words = stride / 4
        let target = UnsafeMutableRawPointer(data).assumingMemoryBound(to: UInt32.self)
        for row in 0..<block.height {
            let start = (block.y + row) * words + block.x
            for column in 0..<block.width {
                target[start + column] = pixel(row * block.width + column)
            }
        }
        cairo_surface_mark_dirty(pointer)
    }
}
