import Foundation

/// A first-in first-out queue between threads with a fixed capacity: `push` waits while it is
/// full, so a fast producer cannot pile up metatiles or encoded tiles (memory stays flat).
/// `close()` ends it: `pop` returns what is left, then nil; `push` after close drops the item.
final class BoundedQueue<Element: Sendable>: @unchecked Sendable {
    // All state is guarded by `condition`.
    private let condition = NSCondition()
    private var items: [Element] = []
    private var head = 0
    private var closed = false
    let capacity: Int

    init(capacity: Int) {
        precondition(capacity > 0)
        self.capacity = capacity
    }

    /// Adds an item, waiting for room. Returns false (dropping it) when the queue is closed.
    @discardableResult
    func push(_ item: Element) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !closed && items.count - head >= capacity { condition.wait() }
        if closed { return false }
        items.append(item)
        condition.broadcast()
        return true
    }

    /// The next item, waiting for one; nil once the queue is closed and empty.
    func pop() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while items.count == head && !closed { condition.wait() }
        guard head < items.count else { return nil }
        let item = items[head]
        head += 1
        if head > 64 && head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
        condition.broadcast()
        return item
    }

    /// No more items will come; waiting consumers wake up.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// Closes and throws away what is queued (a failed job stops quickly).
    func cancel() {
        condition.lock()
        closed = true
        items.removeAll()
        head = 0
        condition.broadcast()
        condition.unlock()
    }
}
