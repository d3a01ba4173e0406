import Foundation
import Geodesy
import MapModel

/// What one render shows: a rectangle of the Web Mercator plane, a size in pixels and a
/// pixel density.
///
/// Positions are kept in *global pixels* at the view's resolution (pixels counted from the
/// world's top-left corner). Two views at the same resolution then put every feature at the
/// same global pixel, and a view's own pixels are global pixels minus its origin. For tiles
/// the origin is a whole number, so a tile renders the same bytes whichever metatile it
/// was cut from.
public struct View: Sendable, Equatable {
    /// The plane the view is drawn in; nil for Web Mercator, the plane features are stored in.
    public let plane: (any PlaneProjection)?
    /// The plane's metres to global pixels and to the view's pixels.
    public let transform: PlaneTransform
    public let width: Int
    public let height: Int
    /// Pixels per inch: converts symbol sizes from points and defines the scale denominator.
    public let dpi: Double
    /// True for a block of XYZ tiles (`View.tiles`): what is drawn must not depend on the
    /// block's edges, so that tiles agree whatever metatile they are cut from. The grid then
    /// anchors its labels to the grid alone instead of to the image's edges.
    public var isTileBlock = false

    /// The OGC standard rendering pixel, 0.28 mm, as dots per inch (about 90.71).
    public static let standardDPI = 25.4 / 0.28
    /// The largest image side accepted (Cairo's image surfaces stop at 32767).
    public static let maxSide = 32767

    public init(
        resolution: Double, originX: Double, originY: Double, width: Int, height: Int,
        dpi: Double = View.standardDPI, plane: (any PlaneProjection)? = nil
    ) throws {
        guard width > 0, height > 0 else { throw RenderError.invalidView("the image size \(width)x\(height) is empty") }
        guard width <= View.maxSide, height <= View.maxSide else {
            throw RenderError.invalidView(
                "the image size \(width)x\(height) is too large (at most \(View.maxSide) pixels a side)")
        }
        guard width.multipliedReportingOverflow(by: height).partialValue <= 400_000_000 else {
            throw RenderError.invalidView("the image size \(width)x\(height) is too large (at most 400 million pixels)")
        }
        guard dpi.isFinite, dpi >= 10, dpi <= 10_000 else {
            throw RenderError.invalidView("the dpi \(DecimalFormat.shortest(dpi)) is out of range (10 to 10000)")
        }
        guard resolution.isFinite, resolution > 0 else { throw RenderError.invalidView("the view has no extent") }
        self.plane = plane
        transform = .webMercator(metresPerPixel: resolution, offset: PlanePoint(x: originX, y: originY))
        self.width = width
        self.height = height
        self.dpi = dpi
    }

    /// Metres (projected) per pixel.
    public var resolution: Double { transform.metresPerUnit }
    /// Global pixel coordinates of the view's top-left corner.
    public var originX: Double { transform.offset.x }
    public var originY: Double { transform.offset.y }

    /// The view's pixels as a rectangle of global pixels.
    public var globalBounds: Rect {
        Rect(minX: originX, minY: originY, maxX: originX + Double(width), maxY: originY + Double(height))
    }

    /// Pixels per projected metre.
    public var pixelsPerMetre: Double { 1 / resolution }

    /// The size of one pixel on paper, in metres.
    public var pixelSizeMetres: Double { 0.0254 / dpi }

    /// The scale denominator: projected metres per metre of image (OGC convention).
    public var scale: Double { resolution / pixelSizeMetres }

    /// Pixels per point (1/72 inch): symbol sizes are authored in points.
    public var pixelsPerPoint: Double { dpi / 72 }

    public static func == (a: View, b: View) -> Bool {
        a.plane?.identifier == b.plane?.identifier && a.transform == b.transform && a.width == b.width
            && a.height == b.height && a.dpi == b.dpi
    }

    /// The view's rectangle in its plane's metres (Web Mercator metres without a plane).
    public var planeExtent: Rect { transform.plane(global: globalBounds) }

    /// The Web Mercator rectangle that holds the view: what to ask the feature stores for.
    public var extent: Rect { mercatorBounds(ofPlaneRect: planeExtent) }

    /// The Web Mercator bounds of a rectangle of the view's plane (itself without a plane; in
    /// another plane, its edges are walked, since they are curves in Web Mercator).
    func mercatorBounds(ofPlaneRect rect: Rect) -> Rect {
        guard let plane else { return rect }
        let bounds = rect.boundsOfEdges(steps: 16, under: plane.inverse)
        // Edges bulge between the walked points; a small margin covers that.
        return bounds.expanded(by: max(bounds.width, bounds.height) * 0.01)
    }

    /// A Web Mercator position in the view's pixels.
    @inline(__always) public func pixel(_ p: PlanePoint) -> PlanePoint {
        transform.image(global: globalPixel(p))
    }

    /// A Web Mercator position in global pixels: pixels from the plane's top-left corner at
    /// this resolution, the same for every view of the plane at this resolution.
    @inline(__always) public func globalPixel(_ p: PlanePoint) -> PlanePoint {
        transform.global(plane?.forward(p) ?? p)
    }

    /// The Web Mercator position at a global pixel.
    func mercator(globalPixel g: PlanePoint) -> PlanePoint {
        let p = transform.plane(global: g)
        return plane?.inverse(p) ?? p
    }

    /// A rectangle of global pixels as a Web Mercator rectangle that holds it.
    func mercatorBounds(ofGlobalPixels rect: Rect) -> Rect {
        mercatorBounds(ofPlaneRect: transform.plane(global: rect))
    }

    /// The view that shows `bbox` (lon/lat degrees) in an image of the given size. When the
    /// box's shape differs from the image's, the box grows around its centre to fit (as
    /// Mapnik does), so pixels stay square.
    public static func fitting(
        west: Double, south: Double, east: Double, north: Double,
        width: Int, height: Int, dpi: Double = standardDPI
    ) throws -> View {
        do {
            _ = try GeoBox(checkingWest: west, south: south, east: east, north: north)
        } catch {
            throw RenderError.invalidView(error.description)
        }
        let minX = WebMercator.x(longitude: west)
        let maxX = WebMercator.x(longitude: east)
        let minY = WebMercator.y(latitude: south)
        let maxY = WebMercator.y(latitude: north)
        guard width > 0, height > 0 else { throw RenderError.invalidView("the image size \(width)x\(height) is empty") }
        let resolution = max((maxX - minX) / Double(width), (maxY - minY) / Double(height))
        return try View(
            resolution: resolution, centre: PlanePoint(x: (minX + maxX) / 2, y: (minY + maxY) / 2),
            width: width, height: height, dpi: dpi)
    }

    /// The view centred on a point at a scale denominator.
    public static func centered(
        longitude: Double, latitude: Double, scale: Double,
        width: Int, height: Int, dpi: Double = standardDPI
    ) throws -> View {
        guard longitude.isFinite, latitude.isFinite, abs(longitude) <= 180, abs(latitude) <= 90 else {
            throw RenderError.invalidView(
                "the centre \(DecimalFormat.shortest(longitude)),\(DecimalFormat.shortest(latitude)) is not a longitude,latitude position"
            )
        }
        let resolution = try resolution(scale: scale, dpi: dpi)
        guard dpi.isFinite, dpi > 0 else {
            throw RenderError.invalidView("the dpi \(DecimalFormat.shortest(dpi)) is out of range (10 to 10000)")
        }
        return try View(
            resolution: resolution,
            centre: WebMercator.forward(latitude: latitude, longitude: longitude), width: width, height: height,
            dpi: dpi)
    }

    /// A block of XYZ tiles at zoom `z`: `columns` x `rows` tiles from tile (x, y), each
    /// `tileSize` pixels at `pixelRatio`. A 512 px tile covers what a 256 px tile covers with
    /// twice the pixels at the standard pixel size, so its scale denominator is half (as in
    /// 512 px vector-tile styles); `pixelRatio` 2 (high-density @2x tiles) doubles the pixels
    /// *and* the dpi, keeping the scale denominator of 1x tiles.
    public static func tiles(
        z: Int, x: Int, y: Int, columns: Int = 1, rows: Int = 1,
        tileSize: Int = 256, pixelRatio: Int = 1
    ) throws -> View {
        let pixels = tileSize * pixelRatio
        var view = try View(
            resolution: WebMercator.resolution(zoom: z, tileSize: pixels),
            originX: Double(x * pixels), originY: Double(y * pixels),
            width: columns * pixels, height: rows * pixels,
            dpi: View.standardDPI * Double(pixelRatio))
        view.isTileBlock = true
        return view
    }

    /// A view of a plane (sheets): centred on plane coordinates at a scale denominator.
    public static func centered(
        in plane: any PlaneProjection, x: Double, y: Double, scale: Double,
        width: Int, height: Int, dpi: Double
    ) throws -> View {
        try View(
            resolution: resolution(scale: scale, dpi: dpi), centre: PlanePoint(x: x, y: y), width: width,
            height: height, dpi: dpi, plane: plane)
    }

    /// The view of `width` x `height` pixels centred on a point of its plane.
    init(
        resolution: Double, centre: PlanePoint, width: Int, height: Int, dpi: Double,
        plane: (any PlaneProjection)? = nil
    ) throws {
        let c = PlaneTransform.webMercator(metresPerPixel: resolution).global(centre)
        try self.init(
            resolution: resolution, originX: c.x - Double(width) / 2, originY: c.y - Double(height) / 2,
            width: width, height: height, dpi: dpi, plane: plane)
    }

    /// Metres per pixel at a scale denominator and pixel density.
    static func resolution(scale: Double, dpi: Double) throws -> Double {
        guard scale.isFinite, scale >= 1, scale <= 1e10 else {
            throw RenderError.invalidView(
                "the scale denominator \(DecimalFormat.shortest(scale)) is out of range (1 to 10,000,000,000)")
        }
        return scale * 0.0254 / dpi
    }
}
