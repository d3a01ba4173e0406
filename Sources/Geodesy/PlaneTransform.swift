/// The map-to-image transform, the one every drawing goes through: plane metres (x east,
/// y north) to image units (x right, y down) and back. The images are a view's pixels, a
/// page's millimetres, and the tenths of a millimetre a sheet's grid is generated in.
///
/// A plane point goes first to *global* units, `(p - origin) / metresPerUnit` with y
/// flipped, then to the image by subtracting `offset`. Views need the two steps: global
/// pixels count from the Web Mercator world's corner, the same for every view at a
/// resolution, and a tile's offset is a whole number, so a tile gets the same coordinates,
/// to the last bit, whichever block of tiles it is drawn in.
///
/// The conversions are `@inlinable`: the renderer runs every vertex through them.
public struct PlaneTransform: Sendable, Hashable {
    /// The plane point at global (0, 0).
    public var origin: PlanePoint
    /// Plane metres per image unit.
    public var metresPerUnit: Double
    /// The image's top-left corner in global units.
    public var offset: PlanePoint

    public init(origin: PlanePoint, metresPerUnit: Double, offset: PlanePoint = PlanePoint(x: 0, y: 0)) {
        self.origin = origin
        self.metresPerUnit = metresPerUnit
        self.offset = offset
    }

    /// Web Mercator in pixels of `metresPerPixel` counted from the world's top-left corner
    /// (180°W, 85.0511°N), as XYZ tiles count them.
    public static func webMercator(metresPerPixel: Double, offset: PlanePoint = PlanePoint(x: 0, y: 0))
        -> PlaneTransform
    {
        PlaneTransform(
            origin: PlanePoint(x: -WebMercator.halfWorld, y: WebMercator.halfWorld), metresPerUnit: metresPerPixel,
            offset: offset)
    }

    /// A plane point in global units.
    @inlinable public func global(_ p: PlanePoint) -> PlanePoint {
        PlanePoint(x: (p.x - origin.x) / metresPerUnit, y: (origin.y - p.y) / metresPerUnit)
    }

    /// A plane point in image units.
    @inlinable public func image(_ p: PlanePoint) -> PlanePoint { image(global: global(p)) }

    @inlinable public func image(global g: PlanePoint) -> PlanePoint {
        PlanePoint(x: g.x - offset.x, y: g.y - offset.y)
    }

    @inlinable public func global(image i: PlanePoint) -> PlanePoint {
        PlanePoint(x: i.x + offset.x, y: i.y + offset.y)
    }

    /// The plane point at global units `g`.
    @inlinable public func plane(global g: PlanePoint) -> PlanePoint {
        PlanePoint(x: g.x * metresPerUnit + origin.x, y: origin.y - g.y * metresPerUnit)
    }

    /// The plane point at image units `i`.
    @inlinable public func plane(image i: PlanePoint) -> PlanePoint { plane(global: global(image: i)) }

    /// A plane rectangle in global units (its top edge, max y, becomes min y).
    public func global(_ r: Rect) -> Rect {
        let topLeft = global(PlanePoint(x: r.minX, y: r.maxY))
        let bottomRight = global(PlanePoint(x: r.maxX, y: r.minY))
        return Rect(minX: topLeft.x, minY: topLeft.y, maxX: bottomRight.x, maxY: bottomRight.y)
    }

    /// The plane rectangle covered by a rectangle of global units.
    public func plane(global r: Rect) -> Rect {
        let bottomLeft = plane(global: PlanePoint(x: r.minX, y: r.maxY))
        let topRight = plane(global: PlanePoint(x: r.maxX, y: r.minY))
        return Rect(minX: bottomLeft.x, minY: bottomLeft.y, maxX: topRight.x, maxY: topRight.y)
    }

    /// A rectangle of global units in image units.
    public func image(global r: Rect) -> Rect {
        Rect(minX: r.minX - offset.x, minY: r.minY - offset.y, maxX: r.maxX - offset.x, maxY: r.maxY - offset.y)
    }
}
