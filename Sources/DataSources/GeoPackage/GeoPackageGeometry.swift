import Geodesy
import MapModel

/// Where the vertices of one GeoPackage geometry blob lie, found without copying them: the
/// blob's header (`GP`, version, flags, SRS id, optional envelope) and the ISO WKB after it,
/// walked once into runs of vertices (one per part: a point, a line, a ring), so that the
/// reader can take the envelope, the ends of each part or every vertex straight from SQLite's
/// buffer into `Geometry`'s flat layout. No `OGRGeometry`, no `OGRFeature`.
///
/// Only what OGR turns into one geometry of one kind with no empty piece is taken here: a
/// point, line or polygon, or a multi of one of these, in XY, XYZ, XYM or XYZM. Anything else
/// (collections, curves, empty geometries or parts, NaN coordinates, the extended GeoPackage
/// types) is `unsupported`, and the reader hands that feature's WKB to OGR, so every feature
/// comes out as OGR's reading makes it.
struct GeoPackageGeometry {
    /// One part's vertices: `count` positions of `stride` bytes from `offset` in the blob.
    struct Run {
        let offset: Int
        let count: Int
        let stride: Int
        let bigEndian: Bool
    }

    enum Status: Equatable {
        /// The runs and envelope describe the geometry.
        case read
        /// A NULL geometry: the feature has none.
        case none
        /// Valid, but for OGR to convert (see above).
        case unsupported
        /// Not a GeoPackage geometry blob; the reason.
        case invalid(String)
    }

    private(set) var kind: Geometry.Kind = .point
    /// Whether the WKB was a single (not a multi) geometry.
    private(set) var isSingle = true
    private(set) var runs: [Run] = []
    /// For polygons: the first run of each polygon, and the run count at the end.
    private(set) var polygonStarts: [Int] = []
    /// The bounds of every vertex, in the source's CRS.
    private(set) var envelope = Rect.empty
    /// Where the WKB starts in the blob.
    private(set) var wkbOffset = 0
    private var bytes = UnsafeRawBufferPointer(start: nil, count: 0)

    /// Reads `blob` (valid while this is used), reusing the arrays of the previous blob.
    mutating func read(_ blob: UnsafeRawBufferPointer) -> Status {
        bytes = blob
        runs.removeAll(keepingCapacity: true)
        polygonStarts.removeAll(keepingCapacity: true)
        envelope = .empty
        guard blob.count > 0 else { return .none }
        guard blob.count >= 8, blob[0] == 0x47, blob[1] == 0x50 else {
            return .invalid("its geometry is not a GeoPackage geometry blob (no GP header)")
        }
        let flags = blob[3]
        // Bit 5: an extended geometry type of a GeoPackage extension; bit 4: empty.
        guard flags & 0x30 == 0 else { return .unsupported }
        let envelopeDoubles: Int
        switch (flags >> 1) & 0x7 {
        case 0: envelopeDoubles = 0
        case 1: envelopeDoubles = 4
        case 2, 3: envelopeDoubles = 6
        case 4: envelopeDoubles = 8
        default: return .invalid("its geometry blob has an unknown envelope code")
        }
        wkbOffset = 8 + 8 * envelopeDoubles
        var offset = wkbOffset
        guard let type = header(&offset) else { return .invalid(truncated) }
        guard let (base, dimensions, big) = type else { return .unsupported }
        isSingle = base <= 3
        let status: Status
        switch base {
        case 1, 2, 3:
            kind = base == 1 ? .point : base == 2 ? .line : .polygon
            status = simple(base, dimensions, big, &offset)
        case 4, 5, 6:
            kind = base == 4 ? .point : base == 5 ? .line : .polygon
            guard let count = uint32(&offset, big) else { return .invalid(truncated) }
            guard count > 0 else { return .unsupported }
            var member = Status.read
            for _ in 0..<count where member == .read {
                guard let type = header(&offset) else { return .invalid(truncated) }
                guard let (memberBase, memberDimensions, memberBig) = type, memberBase == base - 3 else {
                    return .unsupported
                }
                member = simple(memberBase, memberDimensions, memberBig, &offset)
            }
            status = member
        default:
            return .unsupported
        }
        guard status == .read else { return status }
        if kind == .polygon { polygonStarts.append(runs.count) }
        return scanEnvelope() ? .read : .unsupported
    }

    private var truncated: String { "its geometry blob ends early (\(bytes.count) bytes)" }

    /// The WKB header at `offset` (byte order, type) as the base type, the coordinates per
    /// vertex and the byte order; nil inside when valid but not one this reader takes; nil
    /// outside when truncated.
    private func header(_ offset: inout Int) -> (Int, Int, Bool)?? {
        guard offset + 5 <= bytes.count, bytes[offset] <= 1 else { return nil }
        let big = bytes[offset] == 0
        offset += 1
        let raw = read32(offset, big)
        offset += 4
        // ISO codes (1000 Z, 2000 M, 3000 ZM) and the older high-bit flags for Z and M.
        var code = Int(raw & 0x0FFF_FFFF)
        var dimensions = 2
        if raw & 0x2000_0000 != 0 { return .some(nil) }  // an embedded SRID
        if raw & 0x8000_0000 != 0 { dimensions += 1 }
        if raw & 0x4000_0000 != 0 { dimensions += 1 }
        switch code / 1000 {
        case 0: break
        case 1, 2: dimensions += 1
        case 3: dimensions += 2
        default: return .some(nil)
        }
        code %= 1000
        guard (1...7).contains(code), dimensions <= 4 else { return .some(nil) }
        return .some((code, dimensions, big))
    }

    /// A point, line or polygon body at `offset` (after its header) into runs.
    private mutating func simple(_ base: Int, _ dimensions: Int, _ big: Bool, _ offset: inout Int) -> Status {
        switch base {
        case 1:
            return run(count: 1, dimensions, big, &offset)
        case 2:
            guard let count = uint32(&offset, big) else { return .invalid(truncated) }
            return run(count: count, dimensions, big, &offset)
        case 3:
            guard let rings = uint32(&offset, big) else { return .invalid(truncated) }
            guard rings > 0 else { return .unsupported }
            polygonStarts.append(runs.count)
            for _ in 0..<rings {
                guard let count = uint32(&offset, big) else { return .invalid(truncated) }
                let status = run(count: count, dimensions, big, &offset)
                guard status == .read else { return status }
            }
            return .read
        default:
            return .unsupported
        }
    }

    private mutating func run(count: Int, _ dimensions: Int, _ big: Bool, _ offset: inout Int) -> Status {
        guard count > 0 else { return .unsupported }
        let stride = 8 * dimensions
        guard count <= (bytes.count - offset) / stride else { return .invalid(truncated) }
        runs.append(Run(offset: offset, count: count, stride: stride, bigEndian: big))
        offset += count * stride
        return .read
    }

    /// The envelope of every vertex; false when a coordinate is NaN (OGR's to judge).
    private mutating func scanEnvelope() -> Bool {
        var minX = Double.infinity
        var minY = Double.infinity
        var maxX = -Double.infinity
        var maxY = -Double.infinity
        // A NaN is noted, not tested for at each vertex: this loop runs over every vertex a
        // whole-world view reads (14 million for GSHHG), and ISO WKB is little-endian.
        var sawNaN = false
        for r in runs {
            var at = r.offset
            if r.bigEndian {
                for _ in 0..<r.count {
                    let x = double(at, true)
                    let y = double(at + 8, true)
                    sawNaN = sawNaN || x.isNaN || y.isNaN
                    if x < minX { minX = x }
                    if x > maxX { maxX = x }
                    if y < minY { minY = y }
                    if y > maxY { maxY = y }
                    at += r.stride
                }
                continue
            }
            for _ in 0..<r.count {
                let x = bytes.loadUnaligned(fromByteOffset: at, as: Double.self)
                let y = bytes.loadUnaligned(fromByteOffset: at + 8, as: Double.self)
                if x.isNaN || y.isNaN { sawNaN = true }
                if x < minX { minX = x }
                if x > maxX { maxX = x }
                if y < minY { minY = y }
                if y > maxY { maxY = y }
                at += r.stride
            }
        }
        guard !sawNaN else { return false }
        envelope = Rect(minX: minX, minY: minY, maxX: maxX, maxY: maxY)
        return true
    }

    // MARK: Vertices

    /// Vertex `i` of run `r`, as (x, y) in the source's CRS.
    @inline(__always) func vertex(_ r: Run, _ i: Int) -> (x: Double, y: Double) {
        let at = r.offset + i * r.stride
        return (double(at, r.bigEndian), double(at + 8, r.bigEndian))
    }

    /// Every vertex, interleaved, with the start of each part and the end (`Geometry`'s layout).
    func allVertices() -> (coordinates: [Double], partStarts: [Int]) {
        let total = runs.reduce(0) { $0 + $1.count }
        var partStarts = [Int]()
        partStarts.reserveCapacity(runs.count + 1)
        partStarts.append(0)
        let coordinates = [Double](unsafeUninitializedCapacity: 2 * total) { buffer, initialised in
            var out = 0
            for r in runs {
                var at = r.offset
                if r.bigEndian {
                    for _ in 0..<r.count {
                        buffer[out] = double(at, true)
                        buffer[out + 1] = double(at + 8, true)
                        out += 2
                        at += r.stride
                    }
                } else {
                    for _ in 0..<r.count {
                        buffer[out] = bytes.loadUnaligned(fromByteOffset: at, as: Double.self)
                        buffer[out + 1] = bytes.loadUnaligned(fromByteOffset: at + 8, as: Double.self)
                        out += 2
                        at += r.stride
                    }
                }
                partStarts.append(out / 2)
            }
            initialised = out
        }
        return (coordinates, partStarts)
    }

    /// Whether a vertex lies within `rect` (edges included).
    func hasVertex(in rect: Rect) -> Bool {
        for r in runs {
            for i in 0..<r.count {
                let (x, y) = vertex(r, i)
                if x >= rect.minX, x <= rect.maxX, y >= rect.minY, y <= rect.maxY { return true }
            }
        }
        return false
    }

    /// The WKB after the header (for OGR).
    var wkb: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: bytes[wkbOffset...]) }

    // MARK: Bytes

    private func uint32(_ offset: inout Int, _ big: Bool) -> Int? {
        guard offset + 4 <= bytes.count else { return nil }
        let value = read32(offset, big)
        offset += 4
        return Int(value)
    }

    @inline(__always) private func read32(_ offset: Int, _ big: Bool) -> UInt32 {
        let raw = bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
        return big ? UInt32(bigEndian: raw) : UInt32(littleEndian: raw)
    }

    @inline(__always) private func double(_ offset: Int, _ big: Bool) -> Double {
        let raw = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        return Double(bitPattern: big ? UInt64(bigEndian: raw) : UInt64(littleEndian: raw))
    }
}
