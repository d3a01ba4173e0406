/// An MGRS/UTM latitude band: C to X (I and O are skipped), 8° each from 80°S, except X
/// which spans 12° (72°N–84°N). Beyond 80°S and 84°N lie the UPS regions.
public struct LatitudeBand: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// 0 for C up to 19 for X.
    public let index: Int

    static let letters: [UInt8] = Array("CDEFGHJKLMNPQRSTUVWX".utf8)

    /// The band with this index (0...19), or nil.
    public init?(index: Int) {
        guard (0..<20).contains(index) else { return nil }
        self.index = index
    }

    /// The band with this letter (either case), or nil.
    public init?(letter: Character) {
        guard let ascii = letter.uppercased().utf8.first, letter.utf8.count == 1,
            let i = Self.letters.firstIndex(of: ascii)
        else { return nil }
        index = i
    }

    /// The band that contains a latitude in [-80°, 84°]; nil outside (UPS) or for NaN.
    /// A latitude on a band edge belongs to the band to its north; 84° belongs to X.
    public static func containing(latitude: Double) -> LatitudeBand? {
        guard latitude >= -80, latitude <= 84 else { return nil }
        return LatitudeBand(index: clampedIndex(latitude: latitude) + 10)
    }

    /// All twenty bands, south to north.
    public static let all: [LatitudeBand] = (0..<20).map { LatitudeBand(index: $0)! }

    public var letter: Character { Character(Unicode.Scalar(Self.letters[index])) }
    /// True for N to X, the bands of the northern hemisphere.
    public var isNorthern: Bool { index >= 10 }
    /// Southern edge, in degrees.
    public var south: Double { Double(8 * index - 80) }
    /// Northern edge, in degrees (84 for X).
    public var north: Double { index == 19 ? 84 : Double(8 * index - 72) }
    /// [south, north] in degrees.
    public var latitudeRange: ClosedRange<Double> { south...north }

    public var description: String { String(letter) }
    public static func < (a: LatitudeBand, b: LatitudeBand) -> Bool { a.index < b.index }

    /// Band index relative to the equator (-10 for C ... 9 for X), clamped so that
    /// latitudes beyond the UTM range get the outermost band, as MGRS needs for
    /// positions projected into a neighbouring zone.
    @inline(__always)
    static func clampedIndex(latitude: Double) -> Int {
        let ilat = Int(latitude.rounded(.down))
        // Division truncating towards zero, then clamping, as the MGRS standard's tables do.
        return Swift.max(-10, Swift.min(9, (ilat + 80) / 8 - 10))
    }
}
