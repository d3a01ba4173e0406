import Raster

/// Read access to an image's pixels as RGBA words (R in the low byte), for the inner loops.
struct PixelGrid {
    let base: UnsafeRawPointer
    let width: Int
    let height: Int

    @inline(__always) subscript(x: Int, y: Int) -> UInt32 {
        UInt32(littleEndian: base.loadUnaligned(fromByteOffset: (y &* width &+ x) &* 4, as: UInt32.self))
    }
}
