import ImageDiff
import Raster

/// Two tile pyramids compared tile by tile (`meridian diff` on directories or MBTiles files):
/// tiles missing on either side, and tiles whose images differ beyond an allowance under the
/// perceptual comparison of ImageDiff. Tiles with identical bytes are not decoded. A tile on
/// one side only that is fully transparent is not missing: `--skip-empty` leaves such tiles out.
public struct PyramidDiff: Sendable {
    public var comparator: ImageComparator
    /// Whether a tile's comparison is within the allowance.
    public var permits: @Sendable (DiffResult) -> Bool

    public init(
        comparator: ImageComparator = ImageComparator(),
        permits: @escaping @Sendable (DiffResult) -> Bool = { !$0.sizesDiffer && $0.differingPixels == 0 }
    ) {
        self.comparator = comparator
        self.permits = permits
    }

    public struct Report: Sendable {
        /// In the expected pyramid, not in the actual one.
        public var missingInActual: [TileID] = []
        /// In the actual pyramid, not in the expected one.
        public var missingInExpected: [TileID] = []
        /// Tiles in both whose images differ beyond the allowance, with the comparison.
        public var differing: [(tile: TileID, result: DiffResult)] = []
        /// Tiles in both within the allowance (identical bytes or close enough).
        public var matching = 0

        public var passed: Bool { missingInActual.isEmpty && missingInExpected.isEmpty && differing.isEmpty }
        public var compared: Int { matching + differing.count }
    }

    /// Compares every tile. `diffImage` receives the diff image of each differing tile.
    public func compare(
        expected: any PyramidSource, actual: any PyramidSource,
        diffImage: ((TileID, Image) throws -> Void)? = nil
    ) throws -> Report {
        let a = try expected.tileIDs()
        let b = try actual.tileIDs()
        var report = Report()
        var i = 0
        var j = 0
        while i < a.count || j < b.count {
            if j == b.count || (i < a.count && a[i] < b[j]) {
                if try isEmpty(a[i], in: expected) {
                    report.matching += 1
                } else {
                    report.missingInActual.append(a[i])
                }
                i += 1
            } else if i == a.count || b[j] < a[i] {
                if try isEmpty(b[j], in: actual) {
                    report.matching += 1
                } else {
                    report.missingInExpected.append(b[j])
                }
                j += 1
            } else {
                let id = a[i]
                i += 1
                j += 1
                guard let x = try expected.tileData(id), let y = try actual.tileData(id) else { continue }
                if x == y {
                    report.matching += 1
                    continue
                }
                let imageX = try decode(x, id, in: expected)
                let imageY = try decode(y, id, in: actual)
                let result = comparator.compare(expected: imageX, actual: imageY, makeDiffImage: diffImage != nil)
                if permits(result) {
                    report.matching += 1
                } else {
                    report.differing.append((id, result))
                    if let diffImage, let image = result.diffImage { try diffImage(id, image) }
                }
            }
        }
        return report
    }

    /// A tile one side has and the other has not is no difference when nothing in it shows:
    /// a job with `--skip-empty` stores no such tile.
    private func isEmpty(_ id: TileID, in pyramid: any PyramidSource) throws -> Bool {
        guard let data = try pyramid.tileData(id) else { return false }
        return try decode(data, id, in: pyramid).isFullyTransparent
    }

    private func decode(_ data: [UInt8], _ id: TileID, in pyramid: any PyramidSource) throws -> Image {
        do { return try PNG.decode(data) } catch {
            throw TilesError.io(path: "\(pyramid.location) tile \(id)", message: "\(error)")
        }
    }
}
