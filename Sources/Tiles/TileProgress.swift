import Foundation

/// Progress of a job on standard error: on a terminal a bar redrawn in place (tiles done,
/// total, tiles per second, time left); otherwise (a log, CI) a plain line every few seconds;
/// nothing when quiet. Fed by the writer thread; it throttles itself.
public final class TileProgress: @unchecked Sendable {
    public enum Style: Sendable, Equatable {
        case bar
        case lines(every: Double)
        case quiet
    }

    public let style: Style
    private let output: FileHandle
    // Guarded by `lock`.
    private let lock = NSLock()
    private var total = 0
    private var done = 0
    private var skipped = 0
    private var started = Date()
    private var lastShown = Date.distantPast

    public init(style: Style, output: FileHandle = .standardError) {
        self.style = style
        self.output = output
    }

    /// A bar on a terminal, a line every 5 s otherwise, nothing when `quiet`.
    public static func automatic(quiet: Bool) -> TileProgress {
        if quiet { return TileProgress(style: .quiet) }
        return TileProgress(style: isatty(STDERR_FILENO) == 1 ? .bar : .lines(every: 5))
    }

    func start(total: Int) {
        lock.lock()
        self.total = total
        started = Date()
        // A log gets its first line after one interval, not for the first tile.
        if case .lines = style { lastShown = started }
        lock.unlock()
    }

    func skip(_ count: Int) {
        lock.lock()
        skipped += count
        lock.unlock()
        show(force: false)
    }

    func advance(_ count: Int) {
        lock.lock()
        done += count
        lock.unlock()
        show(force: false)
    }

    /// Draws the final state (and ends the bar's line).
    func finish() {
        show(force: true)
        if style == .bar { output.write(Data("\n".utf8)) }
    }

    private func show(force: Bool) {
        lock.lock()
        let now = Date()
        let interval: Double
        switch style {
        case .quiet:
            lock.unlock()
            return
        case .bar: interval = 0.2
        case .lines(let every): interval = every
        }
        guard force || now.timeIntervalSince(lastShown) >= interval else {
            lock.unlock()
            return
        }
        lastShown = now
        let text = line(now: now)
        lock.unlock()
        output.write(Data(text.utf8))
    }

    /// `[#########-----------]  1234/5461 tiles  312 tiles/s  0:14 left`
    private func line(now: Date) -> String {
        let elapsed = max(now.timeIntervalSince(started), 1e-3)
        let finished = done + skipped
        let rate = Double(done) / elapsed
        let left = rate > 0 ? Double(total - finished) / rate : .infinity
        let figures = "\(finished)/\(total) tiles  \(Int(rate.rounded())) tiles/s  \(Self.duration(left)) left"
        switch style {
        case .bar:
            let width = 24
            let filled = total > 0 ? min(width, finished * width / total) : width
            return "\r[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "] "
                + figures + "   "
        default:
            let percent = total > 0 ? Double(finished) * 100 / Double(total) : 100
            return String(format: "%5.1f%% ", percent) + figures + "\n"
        }
    }

    static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite else { return "--:--" }
        let s = Int(seconds.rounded(.up))
        return s >= 3600
            ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
    }
}
