import Geodesy
import Grids
import MapModel
import Testing

@testable import Render

/// How far a grid label reaches is measured once per worker for each set of fonts and sample
/// texts (`GridCache.measure`): the value kept must be the one measured, view after view,
/// also when the fonts or the samples change between views sharing the cache.
@Suite struct GridLabelReachTests {
    @Test func aReachKeptIsTheReachMeasured() throws {
        let text = try GridLabelRuleTests.text()
        let cache = GridCache()
        var reaches = Set<Double>()
        var annotated = GridSettings(type: .latlong)
        annotated.annotation = GridAnnotation()
        for round in 0..<2 {
            for settings in [
                GridSettings(type: .mgrs), GridSettings(type: .utm), GridSettings(type: .latlong), annotated,
            ] {
                for (scale, dpi) in [(150_000.0, 96.0), (150_000, 192), (2_000_000, 96), (20_000, 300)] {
                    let view = try View.centered(
                        longitude: -73.97, latitude: 40.77, scale: scale, width: 512, height: 512, dpi: dpi)
                    let overlay = GridOverlay(settings: settings, view: view, text: text)
                    let levels = overlay.levels()
                    let measured = overlay.labelReach(levels)
                    #expect(
                        overlay.labelReach(levels, cache: cache) == measured, "\(settings.type) 1:\(scale) \(dpi) dpi")
                    if round == 0 { reaches.insert(measured) }
                }
            }
        }
        #expect(reaches.count >= 4)  // the fonts and samples did differ
    }
}
