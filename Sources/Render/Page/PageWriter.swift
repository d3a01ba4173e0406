import Foundation
import Geodesy
import MapModel
import Raster

/// Draws pages: as PNG (raster at a dpi, recorded in the file), or as PDF or SVG through
/// Cairo's vector surfaces (the page size in points, lines stay lines, text stays text).
/// Files are written as `ImageWriter` writes them: whole or not at all.
public enum PageWriter {
    /// Writes `page` to `path`, its format taken from the extension. `dpi` is the PNG's
    /// resolution; vector files are resolution-free (map views inside keep their own dpi).
    public static func write(_ page: Page, renderer: MapRenderer, dpi: Double, to path: String) throws {
        let format = try ImageWriter.format(forPath: path)
        if format == .png {
            try ImageWriter.writePNG(try renderImage(page, renderer: renderer, dpi: dpi), dpi: dpi, to: path)
            return
        }
        let points = 72 / 25.4
        try ImageWriter.writeVector(
            format, to: path, widthPoints: page.width * points, heightPoints: page.height * points, title: page.title
        ) { context in
            context.scale(points, points)
            try draw(page, renderer: renderer, into: context)
        }
    }

    /// The page's size in pixels at `dpi`.
    public static func pixelSize(of page: Page, dpi: Double) -> (width: Int, height: Int) {
        (Int((page.width / 25.4 * dpi).rounded()), Int((page.height / 25.4 * dpi).rounded()))
    }

    /// The page as an image at `dpi`.
    public static func renderImage(_ page: Page, renderer: MapRenderer, dpi: Double) throws -> Image {
        let (width, height) = pixelSize(of: page, dpi: dpi)
        guard width > 0, height > 0, width <= View.maxSide, height <= View.maxSide,
            width.multipliedReportingOverflow(by: height).partialValue <= 400_000_000
        else {
            throw RenderError.invalidView(
                "the page at \(DecimalFormat.shortest(dpi)) dpi would be \(width)x\(height) pixels (at most \(View.maxSide) a side and 400 million in all): lower the dpi"
            )
        }
        let surface = try CairoSurface.image(width: width, height: height)
        let context = CairoContext(surface)
        context.scale(dpi / 25.4, dpi / 25.4)
        try draw(page, renderer: renderer, into: context)
        try context.checkStatus()
        return try surface.withPixels { pixels in
            try Image(cairoARGB32: pixels, width: surface.width, height: surface.height, stride: surface.stride)
        }
    }

    /// Draws into a context whose user units are millimetres.
    static func draw(_ page: Page, renderer: MapRenderer, into context: CairoContext) throws {
        context.save()
        context.setColor(page.background)
        context.paint()
        context.restore()
        for item in page.items { try draw(item, renderer: renderer, into: context) }
    }

    private static func draw(_ item: PageItem, renderer: MapRenderer, into context: CairoContext) throws {
        switch item {
        case .map(let view, let origin, let grid):
            let k = 25.4 / view.dpi
            context.save()
            context.translate(origin.x, origin.y)
            context.scale(k, k)
            context.newPath()
            context.rectangle(0, 0, Double(view.width), Double(view.height))
            context.clip()
            try renderer.draw(view: view, into: context, grid: grid)
            context.restore()
        case .path(let lines, let stroke, let fill):
            context.save()
            trace(lines, in: context)
            if let fill {
                context.setEvenOddFill()
                context.setColor(fill)
                if stroke != nil { context.fillPreserve() } else { context.fill() }
            }
            if let stroke {
                context.setColor(stroke.color)
                context.setLineWidth(stroke.width)
                context.setDash(stroke.dash, offset: 0)
                context.setLineCap(stroke.squareCaps ? .square : .butt)
                context.setLineJoin(.miter)
                context.stroke()
            }
            context.restore()
        case .text(let text):
            PageTextLayout(text, engine: renderer.text).draw(text, in: context)
        case .clipped(let rect, let items):
            context.save()
            context.newPath()
            context.rectangle(rect.minX, rect.minY, rect.width, rect.height)
            context.clip()
            for inner in items { try draw(inner, renderer: renderer, into: context) }
            context.restore()
        case .clippedToPath(let lines, let items):
            context.save()
            trace(lines, in: context)
            context.setEvenOddFill()
            context.clip()
            for inner in items { try draw(inner, renderer: renderer, into: context) }
            context.restore()
        }
    }

    /// Starts a new path of the polylines.
    private static func trace(_ lines: [PagePolyline], in context: CairoContext) {
        context.newPath()
        for line in lines {
            guard let first = line.points.first else { continue }
            context.moveTo(first.x, first.y)
            for p in line.points.dropFirst() { context.lineTo(p.x, p.y) }
            if line.closed { context.closePath() }
        }
    }
}
