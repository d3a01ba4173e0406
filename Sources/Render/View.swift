import Foundation
import Geodesy
import MapModel

/// What one render shows: a rectangle of a plane (Web Mercator, a sheet's UTM zone, or any
/// CRS through `ProjectedPlane`), a size in pixels and a pixel density.
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
    /// For a block of tiles: the whole area the pyramid renders at this zoom (global pixels),
    /// in whose visible part a polygon cut by it is labelled; nil for the whole world. A
    /// single image's area is its own pixels.
    public var renderedArea: Rect?

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
        let h = WebMercator.halfWorld
        let world = Rect(minX: -h, minY: -h, maxX: h, maxY: h)
        let points = rect.edgePoints(steps: 16).map(plane.inverse)
        // Part of the rectangle lies outside the plane's domain (the far side of an azimuthal
        // projection): its edges say nothing about what is inside, so ask for everything.
        guard points.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { return world }
        var bounds = points.reduce(Rect.empty) { $0.including($1) }
        // Edges bulge between the walked points; a small margin covers that.
        bounds = bounds.expanded(by: max(bounds.width, bounds.height) * 0.01)
        // A pole inside the rectangle (a polar or azimuthal view) is surrounded by the edges:
        // every longitude meets there, and the latitudes up to the pole are not on an edge.
        for pole in [PlanePoint(x: 0, y: h), PlanePoint(x: 0, y: -h)] {
            let p = plane.forward(pole)
            if p.x.isFinite, p.y.isFinite, rect.contains(p) {
                bounds = bounds.union(Rect(minX: -h, minY: pole.y, maxX: h, maxY: pole.y))
            }
        }
        return bounds
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
    /// Mapnik does), so pixels stay square. In another plane the view holds the box's edges
    /// (curves there), walked.
    public static func fitting(
        west: Double, south: Double, east: Double, north: Double,
        width: Int, height: Int, dpi: Double = standardDPI, plane: (any PlaneProjection)? = nil
    ) throws -> View {
        let box: GeoBox
        do {
            box = try GeoBox(checkingWest: west, south: south, east: east, north: north)
        } catch {
            throw RenderError.invalidView(error.description)
        }
        let project = { (p: PlanePoint) -> PlanePoint in
            let mercator = WebMercator.forward(latitude: p.y, longitude: p.x)
            return plane?.forward(mercator) ?? mercator
        }
        // Web Mercator keeps meridians and parallels straight: the corners suffice.
        let bounds = box.rect.boundsOfEdges(steps: plane == nil ? 1 : 64, under: project)
        guard bounds.minX.isFinite, bounds.minY.isFinite, bounds.maxX.isFinite, bounds.maxY.isFinite else {
            let values = [west, south, east, north].map(DecimalFormat.shortest).joined(separator: ",")
            throw RenderError.invalidView(
                "the bbox \(values) reaches where \(plane?.identifier ?? "the plane") has no coordinates")
        }
        return try fitting(planeRect: bounds, width: width, height: height, dpi: dpi, plane: plane)
    }

    /// The view that shows a rectangle of its plane's metres (Web Mercator metres without a
    /// plane), grown around its centre to the image's shape.
    public static func fitting(
        planeRect rect: Rect, width: Int, height: Int, dpi: Double = standardDPI, plane: (any PlaneProjection)? = nil
    ) throws -> View {
        guard width > 0, height > 0 else { throw RenderError.invalidView("the image size \(width)x\(height) is empty") }
        guard !rect.isEmpty, rect.width > 0 || rect.height > 0 else {
            throw RenderError.invalidView("the view has no extent")
        }
        let resolution = max(rect.width / Double(width), rect.height / Double(height))
        return try View(
            resolution: resolution, centre: rect.center, width: width, height: height, dpi: dpi, plane: plane)
    }

    /// The view centred on a point at a scale denominator, in Web Mercator or in `plane`.
    public static func centered(
        longitude: Double, latitude: Double, scale: Double,
        width: Int, height: Int, dpi: Double = standardDPI, plane: (any PlaneProjection)? = nil
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
        let mercator = WebMercator.forward(latitude: latitude, longitude: longitude)
        let centre = plane?.forward(mercator) ?? mercator
        guard centre.x.isFinite, centre.y.isFinite else {
            throw RenderError.invalidView(
                "the centre \(DecimalFormat.shortest(longitude)),\(DecimalFormat.shortest(latitude)) has no coordinates in \(plane?.identifier ?? "the plane")"
            )
        }
        return try View(resolution: resolution, centre: centre, width: width, height: height, dpi: dpi, plane: plane)
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
