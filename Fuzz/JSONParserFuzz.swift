// libFuzzer target: the JSON parser on arbitrary bytes. Built and run by scripts/fuzz.sh.
// Beyond "no crash, no hang": an error is one line, and a parsed value written back as text
// (JSONWriter, which keeps nested GeoJSON properties) parses to the same value.
@testable import MapModel

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let value: JSONValue
    do {
        value = try JSONParser.parse(bytes, file: "fuzz.json")
    } catch {
        requireOneLine(error)
        return 0
    }
    let text = JSONWriter.text(value)
    do {
        let again = try JSONParser.parse(Array(text.utf8), file: "written.json")
        require(again == value, "written back differently: \(text)")
    } catch {
        fail("the writer's text does not parse: \(error): \(text)")
    }
    return 0
}
