import Foundation

/// Puts a job's batches back in the order the plan made them, whatever order the workers
/// finish them in, so the writer stores them in the same order every run and with any number
/// of workers. An MBTiles file's pages and row ids follow the order its rows were inserted:
/// without this, the same job gave a file of the same tiles but different bytes.
///
/// A batch that comes early waits here until those before it have come. The feeder asks
/// `admit` before handing out each item, which holds it back while too many batches, or too
/// many bytes, wait: a metatile that takes long (a whole-world view) delays the others' writing,
/// not their memory.
final class WriteOrder<Item: Sendable>: @unchecked Sendable {
    // Guarded by `condition`.
    private let condition = NSCondition()
    private var next = 0
    private var waiting: [Int: (item: Item, bytes: Int)] = [:]
    private var waitingBytes = 0
    private var cancelled = false
    /// The most items handed out beyond the next one to write, and the most bytes waiting.
    let maxAhead: Int
    let maxBytes: Int

    init(maxAhead: Int = 4096, maxBytes: Int = 32 << 20) {
        precondition(maxAhead > 0 && maxBytes > 0)
        self.maxAhead = maxAhead
        self.maxBytes = maxBytes
    }

    /// Waits until item `sequence` (numbered from 0 in the order handed out) may be handed
    /// out. False once cancelled.
    func admit(_ sequence: Int) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !cancelled && (sequence - next >= maxAhead || waitingBytes > maxBytes) {
            condition.wait()
        }
        return !cancelled
    }

    /// Takes item `sequence` (`bytes` large) and returns the items now due, in order: none
    /// while an earlier one is still missing.
    func deliver(_ sequence: Int, _ item: Item, bytes: Int) -> [Item] {
        condition.lock()
        defer { condition.unlock() }
        waiting[sequence] = (item, bytes)
        waitingBytes += bytes
        var due: [Item] = []
        while let first = waiting.removeValue(forKey: next) {
            due.append(first.item)
            waitingBytes -= first.bytes
            next += 1
        }
        if !due.isEmpty { condition.broadcast() }
        return due
    }

    /// What still waits, in order, when no more will come (a failed or stopped job: the items
    /// before them were never made).
    func drain() -> [Item] {
        condition.lock()
        defer { condition.unlock() }
        let rest = waiting.keys.sorted().map { waiting[$0]!.item }
        waiting = [:]
        waitingBytes = 0
        return rest
    }

    /// Lets a waiting `admit` return false, now and from then on.
    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
    }
}
