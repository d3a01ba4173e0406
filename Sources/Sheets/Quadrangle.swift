import Foundation
import Geodesy

/// A quadrangle of the graticule, the way map series such as the USGS topographic series are
/// cut: a square of `size` degrees of latitude and longitude whose corners are whole
/// multiples of the size (a 7.5' quadrangle runs from 40°45'N to 40°52'30"N and from 74°W to
/// 73°52'30"W). On the sheet its edges, a pair of meridians and a pair of parallels, are the
/// neatline; in the UTM plane they are slightly curved and lean with the grid convergence.
public struct Quadrangle: Sendable, Equatable {
    /// The south-west corner and the size, in degrees.
    public let south: Double
    public let west: Double
    public let size: Double

    public var north: Double { south + size }
    public var east: Double { west + size }
    public var centre: (latitude: Double, longitude: Double) { (south + size / 2, west + size / 2) }
    public var box: GeoBox { GeoBox(south: south, north: north, west: west, east: east) }

    /// The sizes a series is cut in, and the scale each is printed at by the USGS (7.5' at
    /// 1:24,000, 15' at 1:62,500, 30' at 1:125,000, 1° at 1:250,000).
    public static let series: [(size: Double, text: String, scale: Double)] = [
        (7.5 / 60, "7.5'", 24_000), (15 / 60, "15'", 62_500), (30 / 60, "30'", 125_000), (1, "1°", 250_000),
    ]

    /// The series scale of this quadrangle's size.
    public var seriesScale: Double { Quadrangle.series.first { $0.size == size }?.scale ?? 250_000 }

    /// The size written as `7.5'`, `15'`, `30'` or `1°` (or `7.5m`, `1d`, `0.125`: anything
    /// AngleParser reads that names one of the series' sizes).
    public static func size(parsing text: String) throws(SheetError) -> Double {
        let names = series.map(\.text).joined(separator: ", ")
        guard let angle = try? AngleParser.parse(text.replacingOccurrences(of: "m", with: "'")),
            angle.kind == nil, let match = series.first(where: { abs($0.size - angle.degrees) < 1e-9 })
        else {
            throw .invalid("unknown quadrangle size '\(text)' (use \(names))")
        }
        return match.size
    }

    /// The quadrangle that holds a position (one on an edge belongs to the quadrangle north
    /// or east of it).
    public init(holding latitude: Double, longitude: Double, size: Double) throws(SheetError) {
        try self.init(south: Self.cell(latitude, size) * size, west: Self.cell(longitude, size) * size, size: size)
    }

    /// The quadrangle whose south-east corner is the given position, the way USGS quadrangles
    /// are indexed: the corner must lie on the ruling of the size (within a millionth of it).
    public init(southEast longitude: Double, latitude: Double, size: Double) throws(SheetError) {
        let east = (longitude / size).rounded()
        let south = (latitude / size).rounded()
        guard abs(east - longitude / size) < 1e-6, abs(south - latitude / size) < 1e-6 else {
            let text = Quadrangle.series.first { $0.size == size }?.text ?? DecimalFormat.shortest(size)
            throw .invalid(
                "\(DecimalFormat.shortest(longitude)),\(DecimalFormat.shortest(latitude)) is not the south-east corner of a \(text) quadrangle: corners lie on multiples of \(text) (the nearest is \(DecimalFormat.shortest(east * size)),\(DecimalFormat.shortest(south * size)))"
            )
        }
        try self.init(south: south * size, west: (east - 1) * size, size: size)
    }

    init(south: Double, west: Double, size: Double) throws(SheetError) {
        guard south.isFinite, west.isFinite, south >= -80, south + size <= 84, west >= -180, west + size <= 180 else {
            throw .invalid(
                "the quadrangle from \(DecimalFormat.shortest(west)),\(DecimalFormat.shortest(south)) is outside the UTM zones (longitudes -180 to 180, latitudes 80°S to 84°N)"
            )
        }
        self.south = south
        self.west = west
        self.size = size
    }

    /// The index of the cell of `size` that holds `value`, robust to a value a hair below a
    /// multiple of the size (as a decimal written in degrees can be).
    static func cell(_ value: Double, _ size: Double) -> Double {
        let n = value / size
        let nearest = n.rounded()
        return abs(n - nearest) < 1e-9 ? nearest : n.rounded(.down)
    }

    /// The corners, north-west first, clockwise: (latitude, longitude).
    public var corners: [(latitude: Double, longitude: Double)] {
        [(north, west), (north, east), (south, east), (south, west)]
    }

    /// The boundary as a closed ring of (latitude, longitude), clockwise from the north-west
    /// corner, each edge walked in `steps` pieces (the edges are curves on the sheet).
    func ring(steps: Int) -> [(latitude: Double, longitude: Double)] {
        let c = corners
        var points: [(latitude: Double, longitude: Double)] = []
        for k in 0..<4 {
            let a = c[k]
            let b = c[(k + 1) % 4]
            for i in 0..<steps {
                let t = Double(i) / Double(steps)
                points.append(
                    (a.latitude + (b.latitude - a.latitude) * t, a.longitude + (b.longitude - a.longitude) * t))
            }
        }
        return points
    }

    /// `7.5' quadrangle 40°45'N to 40°52'30"N, 74°W to 73°52'30"W`.
    public var description: String {
        let text = Quadrangle.series.first { $0.size == size }?.text ?? DecimalFormat.shortest(size) + "°"
        func lat(_ v: Double) -> String { AngleFormat.dms(v, kind: .latitude, trailing: .second, style: .compact) }
        func lon(_ v: Double) -> String { AngleFormat.dms(v, kind: .longitude, trailing: .second, style: .compact) }
        return "\(text) quadrangle \(lat(south)) to \(lat(north)), \(lon(west)) to \(lon(east))"
    }
}
