import Testing

@testable import Tiles

@Suite struct ContentHashTests {
    @Test func sameBytesSameHashAndHexForm() {
        let bytes = (0..<1000).map { UInt8($0 % 251) }
        #expect(ContentHash(of: bytes) == ContentHash(of: bytes))
        let hex = ContentHash(of: bytes).hex
        #expect(hex.count == 32 && hex.allSatisfy { "0123456789abcdef".contains($0) })
    }

    @Test func everyLengthAndEverySingleBitFlipGivesANewHash() {
        var seen = Set<ContentHash>()
        let base = (0..<200).map { UInt8(truncatingIfNeeded: $0 &* 37) }
        for length in 0...base.count { seen.insert(ContentHash(of: Array(base.prefix(length)))) }
        #expect(seen.count == base.count + 1)
        for bit in 0..<(base.count * 8) {
            var flipped = base
            flipped[bit / 8] ^= 1 << UInt8(bit % 8)
            seen.insert(ContentHash(of: flipped))
        }
        #expect(seen.count == base.count + 1 + base.count * 8)
    }

    @Test func swappedStripesDiffer() {
        // Tiles that differ only by where a block of pixels sits must not collide.
        var a = [UInt8](repeating: 0, count: 256)
        var b = a
        for i in 0..<32 {
            a[i] = UInt8(i + 1)
            b[32 + i] = UInt8(i + 1)
        }
        #expect(ContentHash(of: a) != ContentHash(of: b))
    }

    /// A good hash flips each output bit with probability 1/2 when one input bit flips.
    @Test func oneInputBitFlipsAboutHalfTheOutputBits() {
        var generator = SystemRandomNumberGenerator()
        var total = 0
        var trials = 0
        var perBit = [Int](repeating: 0, count: 128)
        for _ in 0..<400 {
            let bytes = (0..<Int.random(in: 1...300, using: &generator)).map { _ in
                UInt8.random(in: 0...255, using: &generator)
            }
            var flipped = bytes
            let bit = Int.random(in: 0..<(bytes.count * 8), using: &generator)
            flipped[bit / 8] ^= 1 << UInt8(bit % 8)
            let h1 = ContentHash(of: bytes)
            let h2 = ContentHash(of: flipped)
            let high = h1.high ^ h2.high
            let low = h1.low ^ h2.low
            total += high.nonzeroBitCount + low.nonzeroBitCount
            for i in 0..<64 {
                perBit[i] += Int((high >> UInt64(i)) & 1)
                perBit[64 + i] += Int((low >> UInt64(i)) & 1)
            }
            trials += 1
        }
        let mean = Double(total) / Double(trials)
        #expect(mean > 60 && mean < 68, "mean flipped bits \(mean)")
        // Every output bit flips in 30-70 % of the trials (expected 50 %, sd 2.5 %).
        #expect(perBit.allSatisfy { $0 > trials * 3 / 10 && $0 < trials * 7 / 10 })
    }
}
