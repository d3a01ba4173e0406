import Geodesy
import Testing

@testable import Grids

/// Lines made without labels (a metatile's) carry no label text, which nothing reads then;
/// they are the same lines, vertex for vertex, as those made with labels, whose texts stay.
@Suite struct GridLinesWithoutLabelsTests {
    @Test(arguments: [GridType.utm, .mgrs, .usng])
    func linesWithoutLabelsAreTheSameLinesWithoutTexts(_ type: GridType) throws {
        for (z, x, y) in [(12, 1205, 1539), (14, 4824, 6157), (10, 301, 384)] {
            let projection = WebMercatorGridProjection(resolution: WebMercator.resolution(zoom: z))
            let area = TileConsistencyTests.area(projection, x: x, y: y, columns: 4)
            let plain = try TileConsistencyTests.generate(type, projection, area, labels: false)
            let labelled = try TileConsistencyTests.generate(type, projection, area, labels: true)
            #expect(plain.labels.isEmpty)
            #expect(plain.lines.count == labelled.lines.count && !plain.lines.isEmpty)
            #expect(plain.lines.allSatisfy { $0.label == nil }, "\(type) z\(z): a line without labels has a text")
            #expect(labelled.lines.contains { $0.label != nil }, "\(type) z\(z): no line has a text")
            for (a, b) in zip(plain.lines, labelled.lines) {
                #expect(a.level == b.level && a.axis == b.axis && a.zone == b.zone && a.value == b.value)
                #expect(a.chunkStarts == b.chunkStarts)
                #expect(
                    a.vertices.map { [$0.point.x.bitPattern, $0.point.y.bitPattern] }
                        == b.vertices.map { [$0.point.x.bitPattern, $0.point.y.bitPattern] })
            }
        }
    }
}
