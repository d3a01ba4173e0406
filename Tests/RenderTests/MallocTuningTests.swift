import Glibc
import Testing

@testable import Render

/// glibc keeps large blocks in mappings of their own, given back when freed, even after one
/// of them was freed (see `MallocTuning`: it used to raise its threshold then, and the whole
/// map's peak RSS at zoom 0-3 was 320 MB where it is now 258 MB).
@Suite struct MallocTuningTests {
    /// Whether glibc mapped the block at `pointer` on its own: bit 2 (IS_MMAPPED) of the chunk's
    /// size word, just before the block, as glibc has laid chunks out for decades.
    static func isMapped(_ pointer: UnsafeMutableRawPointer) -> Bool {
        pointer.load(fromByteOffset: -MemoryLayout<UInt>.size, as: UInt.self) & 2 != 0
    }

    /// Untuned, freeing a mapped 24 MB block raised the threshold past 24 MB, and the next
    /// 24 MB block came from the heap. (A block is also taken from the heap when a free
    /// stretch there is large enough, whatever the threshold: a 24 MB one is not expected in
    /// the test process, and where the first block is not mapped nothing is concluded.)
    @Test func largeBlocksStayMappedAfterOneIsFreed() throws {
        #expect(MallocTuning.install())
        let size = 24 << 20
        let first = try #require(malloc(size))
        let firstWasMapped = Self.isMapped(first)
        free(first)
        guard firstWasMapped else { return }
        let second = try #require(malloc(size))
        defer { free(second) }
        #expect(Self.isMapped(second), "a 24 MB block came from the heap after another was freed")
    }
}
