// libFuzzer target: the map document decoder (JSON, then every key, style, filter, grid
// setting and label template) on arbitrary bytes. Built and run by scripts/fuzz.sh.
import MapModel

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMapDocument(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        let root = JSONNode(value: try JSONParser.parse(bytes, file: "fuzz.json"), file: "fuzz.json")
        // Fonts and sources are resolved against a folder that does not exist: the decoder
        // looks at font paths, and they must be refused, not opened.
        let map = try MapDocument.decode(root, baseDirectory: "/nonexistent-fuzz")
        require(Set(map.layers.map(\.name)).count == map.layers.count, "layer names repeat")
    } catch let error as DocumentError {
        requireOneLine(error)
        require(error.file == "fuzz.json", "the error names another file: \(error)")
    } catch {
        fail("not a DocumentError: \(error)")
    }
    return 0
}
