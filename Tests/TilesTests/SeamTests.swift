import Foundation
import ImageDiff
import MapModel
import Raster
import Render
import TestSupport
import Testing

@testable import Tiles

/// Tiles cut from metatiles against one image of the same extent: labels and symbols must
/// continue across tile and metatile edges, each label drawn whole in every tile it touches
/// and never twice. Then the same job with other worker counts and metatile sizes must give
/// the same bytes.
@Suite(.serialized) struct SeamTests {
    static let mapnikStyle = try! LoadedMap.load(path: Repository.fixture("maps/world-mapnik.json"))
    static let referenceScaled = try! LoadedMap.load(path: Repository.fixture("maps/world.json"))

    /// Renders the block `columns` x `rows` from (x, y) at zoom z as a tile job with small
    /// metatiles, decodes the tiles and stitches them.
    static func stitched(
        map: LoadedMap, z: Int, x: Int, y: Int, columns: Int, rows: Int, metatile: Int,
        format: TileFormat = try! TileFormat()
    ) throws -> Image {
        let root = try TemporaryFolder.create().path
        defer { TemporaryFolder.remove(root) }
        let n = Double(1 << z)
        func lon(_ column: Int) -> Double { Double(column) / n * 360 - 180 }
        func lat(_ row: Int) -> Double { atan(sinh(Double.pi * (1 - 2 * Double(row) / n))) * 180 / Double.pi }
        // The bbox of the block, shrunk a hair so that exactly its tiles are in the job.
        let e = 1e-7
        let bounds = try GeoBounds(
            west: lon(x) + e, south: lat(y + rows) + e, east: lon(x + columns) - e, north: lat(y) - e)
        let pyramid = try TilePyramid(zooms: ZoomRange(min: z, max: z), bounds: bounds)
        #expect(pyramid.ranges == [TileRange(z: z, minX: x, maxX: x + columns - 1, minY: y, maxY: y + rows - 1)])
        let plan = try MetatilePlan(pyramid: pyramid, size: metatile)
        _ = try TileJob(plan: plan, workers: 2).run(
            sink: DirectorySink(root: root, scheme: .xyz), encoder: PNGTileEncoder()
        ) {
            try MapTileRenderer(map: map, format: format, buffer: 128)
        }
        let side = format.pixels
        var block = Image(width: columns * side, height: rows * side)
        for row in 0..<rows {
            for column in 0..<columns {
                let tile = try PNG.decode(contentsOf: "\(root)/\(z)/\(x + column)/\(y + row).png")
                #expect(tile.width == side && tile.height == side)
                for py in 0..<side {
                    for px in 0..<side { block[column * side + px, row * side + py] = tile[px, py] }
                }
            }
        }
        return block
    }

    static func whole(
        map: LoadedMap, z: Int, x: Int, y: Int, columns: Int, rows: Int, format: TileFormat = try! TileFormat()
    ) throws -> Image {
        let view = try View.tiles(
            z: z, x: x, y: y, columns: columns, rows: rows, tileSize: format.tileSize, pixelRatio: format.pixelRatio)
        return try MapRenderer(map: map).renderImage(view: view, margin: 128 * Double(format.pixelRatio))
    }

    /// Pixels that differ at all, and the largest difference in any channel.
    static func differences(_ a: Image, _ b: Image) -> (pixels: Int, largest: Int) {
        guard a.width == b.width, a.height == b.height else { return (-1, 255) }
        var count = 0
        var largest = 0
        for i in stride(from: 0, to: a.pixels.count, by: 4) where a.pixels[i..<i + 4] != b.pixels[i..<i + 4] {
            count += 1
            for c in 0..<4 { largest = max(largest, abs(Int(a.pixels[i + c]) - Int(b.pixels[i + c]))) }
        }
        return (count, largest)
    }

    /// Through the golden-image diff (YIQ distance, threshold 0.1, anti-aliasing apart): not
    /// one pixel may differ. A label cut, missing or doubled at an edge changes hundreds of
    /// pixels by up to 255 levels. On failure the stitched image and the diff are written to
    /// .build/golden-artifacts/. The one image is drawn in one piece and the tiles each in
    /// their own extent, so anti-aliasing along outlines may differ by a few levels (Cairo's
    /// rasteriser depends slightly on the extent it works in); tiles of different blocks are
    /// byte-identical (see sameBytesWhateverWorkersAndMetatiles).
    static func expectSame(
        _ tiles: Image, _ whole: Image, name: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let result = ImageComparator(threshold: 0.1).compare(expected: whole, actual: tiles, makeDiffImage: true)
        #expect(
            !result.sizesDiffer && result.differingPixels == 0, "\(name): \(result.summary)",
            sourceLocation: sourceLocation)
        if result.differingPixels > 0 || result.sizesDiffer {
            GoldenCheck.keepEvidence(tiles, name: name + ".stitched", sourceLocation: sourceLocation)
            GoldenCheck.keepEvidence(whole, name: name + ".whole", sourceLocation: sourceLocation)
            if let diff = result.diffImage {
                GoldenCheck.keepEvidence(diff, name: name + ".diff", sourceLocation: sourceLocation)
            }
        }
        let d = differences(tiles, whole)
        // A few levels here and there (measured: at most 10), never a missing or cut label.
        #expect(
            d.largest <= 16, "\(d.pixels) pixels differ, by up to \(d.largest) levels", sourceLocation: sourceLocation)
    }

    /// Europe at zoom 5: dense capitals whose labels cross tile and metatile edges.
    @Test func europeTilesMatchOneImage() throws {
        let tiles = try Self.stitched(map: Self.mapnikStyle, z: 5, x: 15, y: 9, columns: 4, rows: 3, metatile: 3)
        let whole = try Self.whole(map: Self.mapnikStyle, z: 5, x: 15, y: 9, columns: 4, rows: 3)
        Self.expectSame(tiles, whole, name: "tiles-seam-europe")
        // The region does hold labels (dark text pixels), so the comparison means something.
        var dark = 0
        for i in stride(from: 0, to: whole.pixels.count, by: 4) where whole.pixels[i] < 80 && whole.pixels[i + 1] < 80 {
            dark += 1
        }
        #expect(dark > 500)
    }

    /// The reference-scaled map at a zoom where its symbols have grown, in @2x tiles.
    @Test func referenceScaledHighDensityTilesMatchOneImage() throws {
        let format = try TileFormat(tileSize: 256, pixelRatio: 2)
        let tiles = try Self.stitched(
            map: Self.referenceScaled, z: 5, x: 16, y: 10, columns: 3, rows: 2, metatile: 2, format: format)
        let whole = try Self.whole(map: Self.referenceScaled, z: 5, x: 16, y: 10, columns: 3, rows: 2, format: format)
        #expect(tiles.width == 1536 && tiles.height == 1024)
        Self.expectSame(tiles, whole, name: "tiles-seam-reference-scale-2x")
    }

    /// Text along lines and icons placed with the labels, across tile and metatile edges.
    @Test(arguments: ["style-labels", "style-markers"])
    func curvedLabelsAndIconsMatchOneImage(map name: String) throws {
        let map = try LoadedMap.load(path: Repository.fixture("maps/\(name).json"))
        let tiles = try Self.stitched(map: map, z: 6, x: 30, y: 29, columns: 4, rows: 5, metatile: 2)
        let whole = try Self.whole(map: map, z: 6, x: 30, y: 29, columns: 4, rows: 5)
        Self.expectSame(tiles, whole, name: "tiles-seam-\(name)")
    }

    @Test func sameBytesWhateverWorkersAndMetatiles() throws {
        let bounds = try GeoBounds(west: -12, south: 34, east: 32, north: 62)
        let pyramid = try TilePyramid(zooms: ZoomRange(min: 2, max: 5), bounds: bounds)
        var outputs: [[String: [UInt8]]] = []
        for (workers, metatile) in [(1, 1), (1, 8), (3, 8)] {
            let root = try TemporaryFolder.create().path
            defer { TemporaryFolder.remove(root) }
            let plan = try MetatilePlan(pyramid: pyramid, size: metatile)
            _ = try TileJob(plan: plan, workers: workers).run(
                sink: DirectorySink(root: root, scheme: .xyz), encoder: PNGTileEncoder()
            ) {
                try MapTileRenderer(map: Self.mapnikStyle, format: try TileFormat(), buffer: 128)
            }
            outputs.append(try FileTree.files(under: root))
        }
        #expect(outputs[0].count == pyramid.tileCount)
        // Each tile is drawn in its own extent, so neither the worker count nor the metatile
        // size changes a single byte.
        for other in outputs.dropFirst() {
            #expect(other.keys.sorted() == outputs[0].keys.sorted())
            let differing = outputs[0].keys.filter { outputs[0][$0] != other[$0] }.sorted()
            #expect(differing.isEmpty, "\(differing.count) tiles differ: \(differing.prefix(5))")
        }
    }

    /// A resumed job redraws whole metatiles, so its tiles have the bytes of an uninterrupted
    /// run even where anti-aliasing depends on the image's extent.
    @Test func resumedTilesHaveTheBytesOfAnUninterruptedRun() throws {
        let bounds = try GeoBounds(west: -12, south: 34, east: 32, north: 62)
        let pyramid = try TilePyramid(zooms: ZoomRange(min: 4, max: 5), bounds: bounds)
        let make: @Sendable () throws -> any MetatileRendering = {
            try MapTileRenderer(map: SeamTests.mapnikStyle, format: try TileFormat(), buffer: 128)
        }
        let reference = try TemporaryFolder.create().path
        defer { TemporaryFolder.remove(reference) }
        let resumed = try TemporaryFolder.create().path
        defer { TemporaryFolder.remove(resumed) }
        let plan = try MetatilePlan(pyramid: pyramid, size: 8)
        _ = try TileJob(plan: plan, workers: 2).run(
            sink: DirectorySink(root: reference, scheme: .xyz), encoder: PNGTileEncoder(), makeRenderer: make)
        // A run that stopped part-way: some tiles inside metatiles are missing.
        _ = try TileJob(plan: plan, workers: 2).run(
            sink: DirectorySink(root: resumed, scheme: .xyz), encoder: PNGTileEncoder(), makeRenderer: make)
        var removed = 0
        // The missing tiles of each metatile form a smaller block than the metatile.
        for name in try FileTree.files(under: resumed).keys {
            let parts = name.split(separator: "/").compactMap { Int($0.split(separator: ".")[0]) }
            guard parts[1] % 8 >= 3, parts[2] % 8 >= 2 else { continue }
            try FileManager.default.removeItem(atPath: resumed + "/" + name)
            removed += 1
        }
        let summary = try TileJob(plan: plan, workers: 2, resume: true)
            .run(sink: DirectorySink(root: resumed, scheme: .xyz), encoder: PNGTileEncoder(), makeRenderer: make)
        #expect(summary.tiles == removed && summary.skipped == pyramid.tileCount - removed)
        let expected = try FileTree.files(under: reference)
        let actual = try FileTree.files(under: resumed)
        let differing = expected.keys.filter { expected[$0] != actual[$0] }.sorted()
        #expect(
            actual.count == expected.count && differing.isEmpty,
            "\(differing.count) tiles differ: \(differing.prefix(5))")
    }
}
