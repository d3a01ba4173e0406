import Synchronization

/// A request to stop work early and cleanly (the command line makes one on SIGINT or
/// SIGTERM): work in progress finishes, nothing new starts, what is complete is kept.
/// Loops look at `isRequested`; code blocked waiting (a job's queues, a server) registers a
/// handler that wakes it.
public final class StopRequest: Sendable {
    private struct State {
        var requested = false
        var handlers: [Int: @Sendable () -> Void] = [:]
        var nextKey = 0
    }

    private let state = Mutex(State())

    public init() {}

    /// Asks for the stop; runs the handlers registered so far (once).
    public func request() {
        let handlers = state.withLock { state -> [@Sendable () -> Void] in
            guard !state.requested else { return [] }
            state.requested = true
            return Array(state.handlers.values)
        }
        for handler in handlers { handler() }
    }

    public var isRequested: Bool { state.withLock { $0.requested } }

    /// Runs `handler` when the stop is requested (at once if it already is), until the
    /// returned key is passed to `remove`.
    @discardableResult
    public func onRequest(_ handler: @escaping @Sendable () -> Void) -> Int {
        let (key, now) = state.withLock { state -> (Int, Bool) in
            state.nextKey += 1
            if !state.requested { state.handlers[state.nextKey] = handler }
            return (state.nextKey, state.requested)
        }
        if now { handler() }
        return key
    }

    public func remove(_ key: Int) {
        _ = state.withLock { $0.handlers.removeValue(forKey: key) }
    }
}
