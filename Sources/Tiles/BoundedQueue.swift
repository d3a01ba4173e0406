import Dispatch
import Synchronization

/// A first-in first-out queue between threads with a fixed capacity: `push` waits while it is
/// full, so a fast producer cannot pile up metatiles or encoded tiles (memory stays flat).
/// `close()` ends it: `pop` returns what is left, then nil; `push` after close drops the item.
///
/// The items live in a `Mutex`; two counting semaphores do the waiting: `room` counts free
/// places (a producer takes one before adding), `queued` counts items (a consumer takes one
/// before removing). Once the queue is closed, a thread that wakes and finds nothing to do
/// signals again, so every waiter wakes in turn.
final class BoundedQueue<Element: Sendable>: Sendable {
    private struct State {
        /// Slots before `head` are taken and empty: an item is released as it is taken. The
        /// job's queues carry metatiles of encoded tiles, and up to 64 taken ones kept until
        /// the slots were compacted held 81 MB of PNGs (zoom 7 of the large benchmark, one
        /// worker). The slots are dropped in bulk, not one by one.
        var items: [Element?] = []
        var head = 0
        var closed = false
    }

    private let state = Mutex(State())
    private let room = DispatchSemaphore(value: 0)
    private let queued = DispatchSemaphore(value: 0)
    let capacity: Int

    init(capacity: Int) {
        precondition(capacity > 0)
        self.capacity = capacity
        // Counted up from zero: libdispatch traps when a semaphore is freed below its
        // initial value, which a queue dropped while still holding items would be.
        for _ in 0..<capacity { room.signal() }
    }

    /// Adds an item, waiting for room. Returns false (dropping it) when the queue is closed.
    @discardableResult
    func push(_ item: Element) -> Bool {
        room.wait()
        let accepted = state.withLock { state in
            if state.closed { return false }
            state.items.append(item)
            return true
        }
        if accepted { queued.signal() } else { room.signal() }
        return accepted
    }

    /// The next item, waiting for one; nil once the queue is closed and empty.
    func pop() -> Element? {
        queued.wait()
        let item = state.withLock { state -> Element? in
            guard state.head < state.items.count else { return nil }
            let item = state.items[state.head].take()
            state.head += 1
            if state.head > 64 && state.head * 2 > state.items.count {
                state.items.removeFirst(state.head)
                state.head = 0
            }
            return item
        }
        if item != nil { room.signal() } else { queued.signal() }
        return item
    }

    /// No more items will come; waiting consumers wake up.
    func close() {
        state.withLock { $0.closed = true }
        queued.signal()
        room.signal()
    }

    /// Closes and throws away what is queued (a failed job stops quickly).
    func cancel() {
        state.withLock { state in
            state.closed = true
            state.items.removeAll()
            state.head = 0
        }
        queued.signal()
        room.signal()
    }
}
