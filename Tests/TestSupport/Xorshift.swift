/// A deterministic pseudo-random generator (xorshift) so test inputs are reproducible; also
/// the generator for the standard library's `random(in:using:)`.
public struct Xorshift: RandomNumberGenerator {
    public var state: UInt64

    public init(state: UInt64) {
        self.state = state
    }

    public mutating func next() -> UInt64 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return state
    }
}
