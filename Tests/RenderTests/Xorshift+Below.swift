import TestSupport

extension Xorshift {
    /// Uniform in 0..<n.
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}
