// libFuzzer target: reading a GeoJSON source as LoadedMap does (JSON, features projected
// to Web Mercator, the spatial index, label anchors) on arbitrary bytes. Built and run by
// scripts/fuzz.sh.
import MapModel

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGeoJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let features: [Feature]
    do {
        let table = try GeoJSONReader.table(from: JSONStream(bytes: bytes, file: "fuzz.geojson"))
        features = (0..<table.count).map(table.feature)
    } catch let error as DocumentError {
        requireOneLine(error)
        require(error.file == "fuzz.geojson", "the error names another file: \(error)")
        return 0
    } catch {
        fail("not a DocumentError: \(error)")
    }
    let store = FeatureStore(path: "fuzz.geojson", features: features)
    for (index, feature) in features.enumerated() {
        for geometry in feature.geometries {
            for v in 0..<geometry.vertexCount {
                require(geometry.x(v).isFinite && geometry.y(v).isFinite, "feature \(index): vertex \(v)")
            }
        }
        if let anchor = LabelPoint.anchor(for: feature) {
            require(anchor.x.isFinite && anchor.y.isFinite, "feature \(index): anchor \(anchor)")
        }
        if !feature.bounds.isEmpty {
            require(store.query(feature.bounds).contains(index), "feature \(index) not found by its bounds")
        }
    }
    return 0
}
