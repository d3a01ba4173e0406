import Dispatch
import Foundation
import Synchronization
import Tiles

/// SIGINT (Ctrl-C) and SIGTERM for the commands that run long (`tiles`, `merge`, `convert`,
/// `serve`): the first asks the command to stop cleanly through `request` (work in progress
/// is finished, what is complete is kept, temporary files go, one line says where it
/// stopped), and the command exits with 128 + the signal's number (130, 143). A second signal
/// ends the process at once.
final class StopSignals: Sendable {
    static let shared = StopSignals()

    let request = StopRequest()
    private let received = Atomic<Int32>(0)
    /// The dispatch sources must live as long as the process listens.
    private let sources = Mutex<[any DispatchSourceSignal]>([])

    /// Starts listening (once; later calls do nothing).
    func install() {
        sources.withLock { sources in
            guard sources.isEmpty else { return }
            for number in [SIGINT, SIGTERM] {
                signal(number, SIG_IGN)  // delivered to the dispatch source instead
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler { [self] in self.receive(number) }
                source.resume()
                sources.append(source)
            }
        }
    }

    private func receive(_ number: Int32) {
        let first = received.compareExchange(expected: 0, desired: number, ordering: .sequentiallyConsistent).exchanged
        if first {
            request.request()
        } else {
            signal(number, SIG_DFL)
            raise(number)
        }
    }

    /// 128 + the signal that stopped the command (130 for SIGINT, 143 for SIGTERM).
    var exitStatus: Int32 {
        let number = received.load(ordering: .sequentiallyConsistent)
        return 128 + (number == 0 ? SIGINT : number)
    }
}
