import Glibc

/// glibc's malloc, told to give every block of 1 MB or more a mapping of its own, for good.
///
/// glibc starts so, but raises that threshold to the size of each mapped block freed (up to
/// 32 MB): after a whole-world view frees its label placement or its shoreline table, blocks
/// of up to that size come from the heap, where what is freed stays in the process (the heap
/// only shrinks from its top) and two workers' views fragment it. The whole map of the large
/// benchmark at zoom 0-3 with 2 workers peaked at 320 MB RSS, and at 261 MB with the
/// threshold fixed at 128 KB (its 1/10 sample: 184 and 182 MB); at 1 MB 276 MB, at 4 MB
/// 284 MB. 128 KB, glibc's own start, mapped and unmapped every tile's 256 KB image and
/// buffers: 0.4 s of system time in the world pyramid's 1.1 s at zoom 0-6, where 1 MB takes
/// 0.1 s (and the whole map at zoom 0-3 266 MB against 283 MB).
enum MallocTuning {
    /// Blocks from this size are mapped on their own and unmapped when freed.
    static let mmapThreshold: Int32 = 1 << 20

    /// Fixes the threshold, once per process; false where the C library has no `mallopt`.
    @discardableResult
    static func install() -> Bool { installed }

    private static let installed: Bool = {
        // `mallopt` is not in Swift's Glibc module: found by name (RTLD_DEFAULT is null).
        guard let symbol = dlsym(nil, "mallopt") else { return false }
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
        return mallopt(mmapThresholdParameter, mmapThreshold) == 1
    }()

    /// Gives the free pages of every arena back to the system (glibc's `malloc_trim`).
    static func giveBack() {
        _ = trim?(0)
    }

    private static let trim: (@convention(c) (Int) -> Int32)? = {
        guard let symbol = dlsym(nil, "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
    }()

    /// glibc's M_MMAP_THRESHOLD (malloc.h).
    private static let mmapThresholdParameter: Int32 = -3
}
