extension MutableCollection where Self: RandomAccessCollection, Index == Int {
    /// Moves each element once so that slot i holds the element that was at `order[i]`,
    /// following the permutation cycle by cycle: no copy of the collection is made, which
    /// matters where it holds a whole-world layer's bounds or a chunk's placements. `order`
    /// is used up (each slot done is set to point at itself).
    mutating func permute(by order: inout [UInt32]) {
        for start in 0..<count where order[start] != UInt32(start) {
            let held = self[start]
            var slot = start
            while true {
                let from = Int(order[slot])
                order[slot] = UInt32(slot)
                if from == start {
                    self[slot] = held
                    break
                }
                self[slot] = self[from]
                slot = from
            }
        }
    }
}
