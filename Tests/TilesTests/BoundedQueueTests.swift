import Dispatch
import Synchronization
import Testing

@testable import Tiles

/// The queue between the job's threads: every item delivered once, never more than
/// `capacity` waiting, and close / cancel wake every thread that waits.
@Suite struct BoundedQueueTests {
    @Test func closeDeliversWhatIsLeftThenNil() {
        let queue = BoundedQueue<Int>(capacity: 4)
        #expect(queue.push(1) && queue.push(2))
        queue.close()
        #expect(!queue.push(3))
        #expect(queue.pop() == 1)
        #expect(queue.pop() == 2)
        #expect(queue.pop() == nil)
        #expect(queue.pop() == nil)
    }

    @Test func manyProducersAndConsumers() {
        let queue = BoundedQueue<Int>(capacity: 3)
        let producers = 4
        let perProducer = 2000
        let received = Mutex<[[Int]]>(Array(repeating: [], count: producers))
        let inFlight = Mutex((now: 0, most: 0))
        let consumers = DispatchGroup()
        let consumerCount = 3
        for _ in 0..<consumerCount {
            DispatchQueue.global().async(group: consumers) {
                while let item = queue.pop() {
                    inFlight.withLock { $0.now -= 1 }
                    received.withLock { $0[item / perProducer].append(item % perProducer) }
                }
            }
        }
        DispatchQueue.concurrentPerform(iterations: producers) { producer in
            for i in 0..<perProducer {
                // Counted before the push and after the pop: beyond the queue's own items, one
                // per producer and one per consumer may be counted.
                inFlight.withLock {
                    $0.now += 1
                    $0.most = max($0.most, $0.now)
                }
                #expect(queue.push(producer * perProducer + i))
            }
        }
        queue.close()
        consumers.wait()
        // Every item arrives exactly once.
        for lists in received.withLock({ $0 }) {
            #expect(lists.sorted() == Array(0..<perProducer))
        }
        #expect(inFlight.withLock { $0.most } <= queue.capacity + producers + consumerCount)
    }

    @Test func cancelWakesBlockedProducersAndConsumers() {
        let full = BoundedQueue<Int>(capacity: 1)
        #expect(full.push(0))
        let empty = BoundedQueue<Int>(capacity: 1)
        let results = Mutex<[String]>([])
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) {
            let pushed = full.push(1)  // waits for room until cancelled
            results.withLock { $0.append("push \(pushed)") }
        }
        for _ in 0..<2 {
            DispatchQueue.global().async(group: group) {
                let item = empty.pop()  // waits for an item until cancelled
                results.withLock { $0.append("pop \(item.map(String.init) ?? "nil")") }
            }
        }
        full.cancel()
        empty.cancel()
        group.wait()
        #expect(results.withLock { $0.sorted() } == ["pop nil", "pop nil", "push false"])
        #expect(full.pop() == nil)
    }

    /// An item taken is the taker's alone: the queue keeps no reference to it (the job's
    /// queues carry encoded tiles, and taken ones kept until the queue compacts held tens of
    /// megabytes).
    @Test(arguments: [1, 10, 100])
    func takenItemsAreReleased(count: Int) {
        final class Item: Sendable {}
        let queue = BoundedQueue<Item>(capacity: count)
        var released: [() -> Bool] = []
        for _ in 0..<count {
            let item = Item()
            weak let watched = item
            released.append { watched == nil }
            #expect(queue.push(item))
        }
        for _ in 0..<count { #expect(queue.pop() != nil) }
        #expect(released.allSatisfy { $0() })
    }
}
