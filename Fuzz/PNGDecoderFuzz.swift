// libFuzzer target: the PNG decoder (libpng through the CPNGCodec shim) on arbitrary bytes,
// from memory and from a file (the descriptor path `diff` uses). Built and run by
// scripts/fuzz.sh.
import Glibc
import Raster

/// A 256 x 256 tile: far smaller than PNG.defaultMaxPixels, so that each run stays fast (a
/// 2048 x 2048 image took 0.4 s); the check is the same code.
let maxPixels = 1 << 16

/// A regular file holding the input, read back through its /proc/self/fd path as any file
/// is. In /dev/shm (tmpfs): truncating a file on ext4 costs milliseconds. Unlinked at once:
/// nothing is left behind, the descriptor keeps it.
let memoryFile: Int32 = {
    var template = Array("/dev/shm/meridian-fuzz-png-XXXXXX".utf8CString)
    let fd = mkstemp(&template)
    unlink(template)
    return fd
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPNGDecoder(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let buffer = UnsafeRawBufferPointer(start: data, count: size)
    let fromMemory = Result { () throws(PNGError) in try PNG.decode(buffer, maxPixels: maxPixels) }
    require(
        memoryFile >= 0 && ftruncate(memoryFile, 0) == 0 && pwrite(memoryFile, data, size, 0) == size,
        "cannot write the memfd")
    let path = "/proc/self/fd/\(memoryFile)"
    let fromFile = Result { () throws(PNGError) in try PNG.decode(contentsOf: path, maxPixels: maxPixels) }
    switch (fromMemory, fromFile) {
    case (.success(let a), .success(let b)):
        require(a == b, "the file and memory decodings differ")
        let header = try? PNG.header(of: Array(buffer))
        require(header?.width == a.width && header?.height == a.height, "the image is not the header's size")
        require(a.pixels.count == a.width * a.height * 4, "pixel count")
    case (.failure(let a), .failure(let b)):
        require(a.kind == b.kind && a.detail == b.detail, "file and memory fail differently: \(a) / \(b)")
        require(b.path == path, "the error does not name the file")
        requireOneLine(a)
    default:
        fail("one of the file and memory decodings failed: \(fromMemory) / \(fromFile)")
    }
    return 0
}
