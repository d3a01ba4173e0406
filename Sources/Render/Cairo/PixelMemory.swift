/// Memory for the pixels of image surfaces made one after another (`CairoSurface.image(in:)`),
/// freed when the last surface over it and its owner are gone.
///
/// Why: a pyramid's blocks are not all one size (those at the edges of its range are cut
/// short), and a new surface for each new size was a new mapping of up to 16 MB whose every
/// page the background's fill then faulted in: some 53,000 page faults over the New York
/// pyramid at zoom 10-14 (`perf record -e page-faults`: nine in ten in `pixman_fill`), a
/// seventh of its CPU time. Surfaces made over memory already touched fault nothing.
final class PixelMemory {
    let base: UnsafeMutableRawPointer
    let byteCount: Int

    init(byteCount: Int) {
        self.byteCount = byteCount
        base = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: 64)
    }

    deinit { base.deallocate() }
}
