import Foundation
import Geodesy
import MapModel
import TestSupport
import Testing

@testable import Render

/// Per-resolution generalisation (`Generaliser`): fewer vertices the further out, polygons
/// still valid by GEOS (through Debian's python3-gdal, an independent check), rings smaller
/// than a pixel gone, and the same answer whatever view asks.
@Suite struct GeneralisationTests {
    static let boroughs = Repository.fixture("data/nybb.geojson")

    /// Metres per pixel of a 256 px tile at `zoom`.
    static func pixel(zoom: Int) -> Double { 2 * WebMercator.halfWorld / 256 / Double(1 << zoom) }

    static func vertices(_ features: [Feature]) -> Int {
        features.reduce(0) { $0 + $1.geometries.reduce(0) { $0 + $1.vertexCount } }
    }

    @Test func verticesFallWithZoom() throws {
        let store = try FeatureStore.load(path: Self.boroughs)
        let original = Self.vertices(store.features)
        var counts: [Int] = []
        for zoom in [6, 9, 12, 15] {
            let generaliser = Generaliser(pixel: Self.pixel(zoom: zoom))
            counts.append(Self.vertices(store.features.compactMap(generaliser.generalise)))
        }
        // Each zoom out keeps fewer vertices; zoom 12 (38 m pixels) far fewer than the file.
        #expect(counts == counts.sorted() && Set(counts).count == counts.count, "\(counts)")
        #expect(counts[2] * 4 < original, "\(counts) of \(original)")
        // No simplified vertex strays: every kept vertex is one of the file's.
        let generalised = store.features.compactMap(Generaliser(pixel: Self.pixel(zoom: 9)).generalise)
        let known = Set(
            store.features.flatMap { f in f.geometries.flatMap { g in (0..<g.vertexCount).map { g.point($0) } } })
        #expect(
            generalised.allSatisfy { f in
                f.geometries.allSatisfy { g in (0..<g.vertexCount).allSatisfy { known.contains(g.point($0)) } }
            })
    }

    @Test func polygonsStayValid() throws {
        let store = try FeatureStore.load(path: Self.boroughs)
        var wkt: [String] = store.features.flatMap { $0.geometries.map(Self.wkt) }
        for zoom in [4, 7, 10, 13] {
            let generaliser = Generaliser(pixel: Self.pixel(zoom: zoom))
            wkt += store.features.compactMap(generaliser.generalise).flatMap { $0.geometries.map(Self.wkt) }
        }
        let verdicts = try Self.validity(wkt)
        #expect(verdicts.count == wkt.count)
        #expect(verdicts.allSatisfy { $0 }, "invalid: \(verdicts.indices.filter { !verdicts[$0] })")
    }

    /// A shell with an inlet and a bay that a coarse simplification cuts across: plain
    /// Douglas-Peucker makes the shell cross a hole beside the inlet, and swallow an island in
    /// the bay (GEOS says both are invalid); the generaliser splits those shortcuts again.
    @Test func shortcutsThatWouldCrossOrSwallowAreSplit() throws {
        let shell: [Double] = [0, 0, 50, 1, 100, 0, 100, 100, 70, 100, 60, 40, 50, 100, 30, 100, 15, 160, 0, 100, 0, 0]
        let hole: [Double] = [44, 60, 53, 60, 53, 68, 44, 68, 44, 60]
        let island: [Double] = [31, 102, 34, 102, 34, 104, 31, 104, 31, 102]
        let withHole = Geometry(
            kind: .polygon, coordinates: shell + hole, partStarts: [0, 11, 16], polygonStarts: [0, 2])
        let withIsland = Geometry(
            kind: .polygon, coordinates: shell + island, partStarts: [0, 11, 16], polygonStarts: [0, 1, 2])
        // Shortcuts up to 15 units from what they drop: coarse enough to cut both.
        let generaliser = Generaliser(pixel: 15 / Generaliser.pixelTolerance)
        for polygon in [withHole, withIsland] {
            let plain = generaliser.plainSimplification(polygon)
            let repaired = try #require(generaliser.generalise(polygon))
            #expect(repaired.vertexCount < polygon.vertexCount)
            #expect(
                try Self.validity([Self.wkt(polygon), Self.wkt(plain), Self.wkt(repaired)]) == [true, false, true])
        }
    }

    /// Lines are simplified part by part into one result, with one scratch for every part:
    /// each part as GEOS's Douglas-Peucker simplifies it alone (OGR's Simplify through Debian's
    /// python3-gdal), whatever the parts before it (short parts after a long one, which a
    /// scratch left stale would spoil), on growing random walks and at several tolerances.
    @Test func linesMatchGEOSPartByPart() throws {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Double {
            // SplitMix64: a fixed walk on every machine.
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
        }
        var lines: [Geometry] = []
        for lengths in [[3, 40], [2000, 5, 300, 3, 2, 1200, 7], [9, 4000, 12]] {
            var coordinates: [Double] = []
            var partStarts = [0]
            var x = 0.0
            var y = 0.0
            for length in lengths {
                for _ in 0..<length {
                    x += next() * 20 - 8
                    y += next() * 20 - 10
                    coordinates += [x, y]
                }
                partStarts.append(coordinates.count / 2)
            }
            lines.append(Geometry(kind: .line, coordinates: coordinates, partStarts: partStarts))
        }
        var ours: [String] = []
        var input: [String] = []
        for pixel in [2.0, 20, 200] {
            let generaliser = Generaliser(pixel: pixel)
            for line in lines {
                let simplified = try #require(generaliser.generalise(line))
                #expect(simplified.partCount == line.partCount)
                #expect(simplified.vertexCount < line.vertexCount)
                ours += (0..<simplified.partCount).map { part in
                    simplified.partRange(part).map { "\(simplified.x($0)) \(simplified.y($0))" }.joined(separator: ",")
                }
                input.append("\(generaliser.tolerance);\(Self.wkt(line))")
            }
        }
        let script = """
            import sys
            from osgeo import ogr
            ogr.UseExceptions()
            for line in sys.stdin:
                tolerance, wkt = line.split(";")
                for part in ogr.CreateGeometryFromWkt(wkt):
                    kept = part.Simplify(float(tolerance))
                    print(",".join("%r %r" % (x, y) for x, y in kept.GetPoints()))
            """
        let run = try Tool.run("/usr/bin/python3", ["-c", script], input: input.joined(separator: "\n") + "\n")
            .succeeded()
        func parsed(_ text: some StringProtocol) -> [Double] {
            text.split(whereSeparator: { $0 == "," || $0 == " " }).map { Double($0)! }
        }
        let geos = run.stdout.split(separator: "\n")
        #expect(geos.count == ours.count)
        for (a, b) in zip(ours, geos) { #expect(parsed(a) == parsed(b)) }
    }

    @Test func ringsBelowAPixelGo() throws {
        // A 10 m square with a 2 m hole, and a 400 m square.
        func square(_ x: Double, _ side: Double) -> [Double] { [x, 0, x + side, 0, x + side, side, x, side, x, 0] }
        let small = Geometry(
            kind: .polygon, coordinates: square(0, 10) + square(4, 2), partStarts: [0, 5, 10], polygonStarts: [0, 2])
        let large = Geometry(
            kind: .polygon, coordinates: square(1000, 400), partStarts: [0, 5], polygonStarts: [0, 1])
        let feature = Feature(index: 0, geometries: [small, large], properties: Properties([]))
        let atZoom12 = try #require(Generaliser(pixel: Self.pixel(zoom: 12)).generalise(feature))
        #expect(atZoom12.geometries.count == 1 && atZoom12.geometries[0].bounds.minX == 1000)
        #expect(Generaliser(pixel: Self.pixel(zoom: 4)).generalise(feature) == nil)
        // Three metres a pixel: the small square stays, its 2 m hole goes.
        let near = try #require(Generaliser(pixel: 3).generalise(feature))
        #expect(near.geometries.map(\.partCount) == [1, 1])
    }

    @Test func cacheGivesTheSameAnswerAsAFreshGeneralisation() throws {
        let store = try FeatureStore.load(path: Self.boroughs)
        let cache = GeneralisedFeatures()
        let source = ObjectIdentifier(store)
        for zoom in [8, 11, 8, 14, 11] {
            let pixel = Self.pixel(zoom: zoom)
            for feature in store.features {
                let fresh = Generaliser(pixel: pixel).generalise(feature)
                let cached = cache.feature(feature, of: source, pixel: pixel)
                #expect(fresh?.geometries == cached?.geometries)
            }
        }
    }

    /// Features within the view that asks are not kept (no other view at the resolution
    /// draws them); those reaching beyond it are, as without a view.
    @Test func cacheKeepsNothingOfAViewsInterior() throws {
        let store = try FeatureStore.load(path: Self.boroughs)
        let source = ObjectIdentifier(store)
        let pixel = Self.pixel(zoom: 12)
        let inside = GeneralisedFeatures()
        let unbounded = GeneralisedFeatures()
        let across = GeneralisedFeatures()
        let middle = store.bounds.center
        let small = Rect(minX: middle.x - 10, minY: middle.y - 10, maxX: middle.x + 10, maxY: middle.y + 10)
        for feature in store.features {
            let fresh = Generaliser(pixel: pixel).generalise(feature)?.geometries
            #expect(inside.feature(feature, of: source, pixel: pixel, area: store.bounds)?.geometries == fresh)
            #expect(across.feature(feature, of: source, pixel: pixel, area: small)?.geometries == fresh)
            _ = unbounded.feature(feature, of: source, pixel: pixel)
        }
        #expect(inside.count == 0)
        #expect(unbounded.count > 0)
        #expect(across.count == unbounded.count)
    }

    static func wkt(_ geometry: Geometry) -> String {
        func ring(_ part: Int) -> String {
            "(" + geometry.partRange(part).map { "\(geometry.x($0)) \(geometry.y($0))" }.joined(separator: ",") + ")"
        }
        switch geometry.kind {
        case .polygon:
            return "MULTIPOLYGON("
                + (0..<geometry.polygonCount).map { p in
                    "(" + geometry.ringRange(ofPolygon: p).map(ring).joined(separator: ",") + ")"
                }.joined(separator: ",") + ")"
        case .line: return "MULTILINESTRING(" + (0..<geometry.partCount).map(ring).joined(separator: ",") + ")"
        case .point: return "MULTIPOINT(" + (0..<geometry.partCount).map(ring).joined(separator: ",") + ")"
        }
    }

    /// GEOS's verdict (OGR's IsValid, Debian's python3-gdal) on each WKT geometry.
    static func validity(_ wkt: [String]) throws -> [Bool] {
        let script = """
            import sys
            from osgeo import ogr
            ogr.UseExceptions()
            for line in sys.stdin:
                print(1 if ogr.CreateGeometryFromWkt(line).IsValid() else 0)
            """
        let run = try Tool.run("/usr/bin/python3", ["-c", script], input: wkt.joined(separator: "\n") + "\n")
            .succeeded()
        return run.stdout.split(separator: "\n").map { $0 == "1" }
    }
}

extension Geometry {
    fileprivate func point(_ i: Int) -> PlanePoint { PlanePoint(x: x(i), y: y(i)) }
}

extension Generaliser {
    /// Douglas-Peucker ring by ring without the crossing repair: what the repair prevents.
    fileprivate func plainSimplification(_ geometry: Geometry) -> Geometry {
        var coordinates: [Double] = []
        var partStarts = [0]
        geometry.coordinates.withUnsafeBufferPointer { buffer in
            for part in 0..<geometry.partCount {
                let range = geometry.partRange(part)
                let simplifier = LineSimplifier(coordinates: buffer, start: range.lowerBound, end: range.upperBound)
                for p in simplifier.simplify(tolerance: tolerance, ring: true) {
                    coordinates += [simplifier.x(p), simplifier.y(p)]
                }
                partStarts.append(coordinates.count / 2)
            }
        }
        return Geometry(
            kind: .polygon, coordinates: coordinates, partStarts: partStarts, polygonStarts: geometry.polygonStarts)
    }
}
