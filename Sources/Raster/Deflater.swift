import CDeflate
import Synchronization

/// One libdeflate compressor at one level, with the scratch memory of a PNG encoding (the
/// filtered rows in, the zlib stream out), lent to one thread at a time by `with(level:)`.
///
/// libdeflate compresses a whole buffer in one call, faster than zlib at the same or a
/// smaller size (measured in PNGEncodingOptions). A compressor holds its hash tables (a few
/// hundred KB) and is not thread-safe, and a tile's scratch is as large as the tile: making
/// them per tile would cost more page faults than the compression saves, so idle ones wait
/// in a small pool. It is bounded by the number of threads encoding at once.
final class Deflater: @unchecked Sendable {  // one thread at a time: the pool hands it out exclusively
    let level: Int
    private let compressor: OpaquePointer
    private(set) var input: UnsafeMutableRawBufferPointer = .init(start: nil, count: 0)
    private(set) var output: UnsafeMutableRawBufferPointer = .init(start: nil, count: 0)

    /// Levels libdeflate knows: 0 (stored) to 12 (smallest).
    static let levels = 0...12
    /// Idle compressors kept beyond this are freed (more threads than that never encode at once).
    private static let maxIdle = 64
    private static let idle = Mutex<[Deflater]>([])

    private init?(level: Int) {
        guard let compressor = libdeflate_alloc_compressor(Int32(level)) else { return nil }
        self.level = level
        self.compressor = compressor
    }

    deinit {
        libdeflate_free_compressor(compressor)
        input.deallocate()
        output.deallocate()
    }

    /// Runs `body` with a compressor of `level` (clamped to `levels`) that no other thread
    /// uses meanwhile; nil when out of memory.
    static func with<T>(level: Int, _ body: (Deflater) -> T) -> T? {
        let level = min(max(level, levels.lowerBound), levels.upperBound)
        let lent = idle.withLock { idle -> Deflater? in
            guard let index = idle.lastIndex(where: { $0.level == level }) else { return nil }
            return idle.remove(at: index)
        }
        guard let deflater = lent ?? Deflater(level: level) else { return nil }
        let result = body(deflater)
        deflater.trimScratch()
        idle.withLock { idle in
            if idle.count < maxIdle { idle.append(deflater) }
        }
        return result
    }

    /// The input scratch, at least `count` bytes; its contents are not kept when it grows.
    func inputBuffer(count: Int) -> UnsafeMutableRawBufferPointer {
        Deflater.grow(&input, to: count)
        return UnsafeMutableRawBufferPointer(rebasing: input[0..<count])
    }

    /// Compresses `source` (the input scratch, or image data laid out elsewhere) as a zlib
    /// stream (RFC 1950, what a PNG's IDAT holds); the stream is in the output scratch. Nil
    /// when out of memory.
    func zlibCompress(_ source: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        let count = source.count
        Deflater.grow(&output, to: libdeflate_zlib_compress_bound(compressor, count))
        guard let target = output.baseAddress else { return nil }
        let size = libdeflate_zlib_compress(compressor, source.baseAddress, count, target, output.count)
        guard size > 0 else { return nil }  // 0: did not fit, which the bound rules out
        return UnsafeRawBufferPointer(rebasing: output[0..<size])
    }

    /// `data` (the input scratch, or image data laid out elsewhere; rows of `row` bytes,
    /// pixels of `pixel` bytes) as a zlib stream made by `RunDeflate`, in the output scratch;
    /// nil when it gives up: detail, which libdeflate compresses better. The budget is one
    /// literal byte in 16 for palette indices and one in 24 for RGB and RGBA, whose literal
    /// pixels cost three or four bytes: at one in 16 a tile of slanted streets with 7.7% of
    /// its pixels changing (Fixtures/png/tiles/base-14-4825-6157.png) took the runs at 42%
    /// more bytes than level 1; at one in 24 it goes to level 1. Over the world pyramid at
    /// zoom 0-6 one in 24 costs 2% more instructions than one in 16 for 0.4% fewer bytes; one
    /// in 32, 4% for 0.5% (docs/performance.md).
    func zlibRuns(of data: UnsafeRawBufferPointer, row: Int, pixel: Int) -> UnsafeRawBufferPointer? {
        let count = data.count
        Deflater.grow(&output, to: RunDeflate.bound(count) + 6)
        guard count > 0, let source = data.baseAddress, let target = output.baseAddress else { return nil }
        let bytes = target.assumingMemoryBound(to: UInt8.self)
        // CMF: deflate with a 32 KB window; FLG: the fastest compression, no dictionary, and
        // CMF * 256 + FLG a multiple of 31.
        bytes[0] = 0x78
        bytes[1] = 0x01
        guard
            let size = RunDeflate.compress(
                source.assumingMemoryBound(to: UInt8.self), count: count, row: row, pixel: pixel,
                literalBudget: count / (pixel == 1 ? 16 : 24),
                into: bytes + 2)
        else { return nil }
        let adler = UInt32(libdeflate_adler32(1, source, count))
        for k in 0..<4 { bytes[2 + size + k] = UInt8(truncatingIfNeeded: adler >> (24 - 8 * k)) }
        return UnsafeRawBufferPointer(rebasing: output[0..<(size + 6)])
    }

    /// Scratch larger than this (a big sheet, not a tile) is freed after use, not kept idle.
    private static let maxKeptScratch = 4 << 20

    private func trimScratch() {
        if input.count > Deflater.maxKeptScratch {
            input.deallocate()
            input = .init(start: nil, count: 0)
        }
        if output.count > Deflater.maxKeptScratch {
            output.deallocate()
            output = .init(start: nil, count: 0)
        }
    }

    private static func grow(_ buffer: inout UnsafeMutableRawBufferPointer, to count: Int) {
        guard buffer.count < count else { return }
        buffer.deallocate()
        buffer = .allocate(byteCount: count, alignment: 16)
    }

    /// CRC-32 (ISO 3309, as PNG chunks use) of `bytes`, continuing from `crc`.
    static func crc32(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        UInt32(libdeflate_crc32(crc, bytes.baseAddress, bytes.count))
    }
}
