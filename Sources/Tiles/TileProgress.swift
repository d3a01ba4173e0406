import Foundation
import MapModel
import Render
import Synchronization

/// Progress of a job on standard error: on a terminal a bar redrawn in place (tiles done,
/// total, tiles per second, time left); otherwise (a log, CI) a plain line every few seconds;
/// nothing when quiet. Fed by the writer thread; it throttles itself. It also shows the
/// current stage ("reading coast: 1.2 M features", "rendering zoom 6"), which any thread may
/// report, and with `startHeartbeat` it prints at its interval even when nothing reports, so a
/// long read or a slow first zoom still shows signs of life.
public final class TileProgress: StageReporter, Sendable {
    public enum Style: Sendable, Equatable {
        case bar
        case lines(every: Double)
        case quiet
    }

    public let style: Style
    private let output: FileHandle
    private let state = Mutex(State())

    private struct State {
        var total = 0
        var done = 0
        var skipped = 0
        var started = Date()
        var lastShown = Date.distantPast
        /// The latest stage reported.
        var stage: String?
        var tilesStarted = false
        var finished = false
    }

    public init(style: Style, output: FileHandle = .standardError) {
        self.style = style
        self.output = output
    }

    /// A bar on a terminal, a line every 5 s otherwise, nothing when `quiet`.
    public static func automatic(quiet: Bool) -> TileProgress {
        if quiet { return TileProgress(style: .quiet) }
        return TileProgress(style: isatty(STDERR_FILENO) == 1 ? .bar : .lines(every: 5))
    }

    /// The display of a single render (`render`, `sheet`): stages alone, first `first`, shown
    /// by the heartbeat only once the work has lasted an interval, so a quick render prints
    /// nothing. Only on a terminal, where the line is redrawn in place and cleared by `end`:
    /// in a log, an error must stay the one line printed. Call `end` when done.
    public static func stages(_ first: String) -> TileProgress {
        let progress = TileProgress(style: isatty(STDERR_FILENO) == 1 ? .bar : .quiet)
        progress.setStage(first)
        progress.startHeartbeat()
        return progress
    }

    public func stage(_ text: String) {
        state.withLock { $0.stage = text }
        show(force: false)
    }

    /// Sets the stage without showing it now: what the heartbeat shows if the work is long
    /// ("rendering"), while a short render prints nothing.
    public func setStage(_ text: String) {
        state.withLock { $0.stage = text }
    }

    /// A renderer's report of a long label placement, as a stage: "placing labels for zoom 4"
    /// in a pyramid, "placing labels: 120 k" (evaluations so far) for one view.
    public func labelStage(zoom: Int?) -> @Sendable (LabelStage) -> Void {
        { [weak self] placing in
            if let zoom {
                self?.stage("placing labels for zoom \(zoom)")
            } else {
                self?.stage("placing labels: \(ReadingProgress.count(placing.evaluated))")
            }
        }
    }

    /// Ends a display of stages alone (`render`, `sheet`): the heartbeat stops, and a bar's
    /// line, if one was drawn, is cleared.
    public func end() {
        let shown = state.withLock { state in
            state.finished = true
            return state.lastShown != .distantPast
        }
        if style == .bar, shown { output.write(Data("\r\u{1B}[K".utf8)) }
    }

    /// Shows the progress at least once an interval from now until `finish`, even when no tile
    /// is done and no stage is reported.
    public func startHeartbeat() {
        guard let interval else { return }
        Thread.detachNewThread { [weak self] in
            while true {
                Thread.sleep(forTimeInterval: interval)
                guard let self, !self.state.withLock({ $0.finished }) else { return }
                self.tick()
            }
        }
    }

    /// What the heartbeat does each interval: shows the progress if nothing did since the last.
    func tick() {
        show(force: false)
    }

    func start(total: Int) {
        let lines = if case .lines = style { true } else { false }
        state.withLock { state in
            state.tilesStarted = true
            state.total = total
            state.started = Date()
            // A log gets its first line after one interval, not for the first tile.
            if lines { state.lastShown = state.started }
        }
    }

    func skip(_ count: Int) {
        state.withLock { $0.skipped += count }
        show(force: false)
    }

    func advance(_ count: Int) {
        state.withLock { $0.done += count }
        show(force: false)
    }

    /// Draws the final state (and ends the bar's line).
    func finish() {
        state.withLock {
            $0.stage = nil
            $0.finished = true
        }
        show(force: true)
        if style == .bar { output.write(Data("\n".utf8)) }
    }

    /// Seconds between two displays; nil when quiet.
    private var interval: Double? {
        switch style {
        case .quiet: return nil
        case .bar: return 0.2
        case .lines(let every): return every
        }
    }

    private func show(force: Bool) {
        guard let interval else { return }
        let text = state.withLock { state -> String? in
            let now = Date()
            guard force || (!state.finished && now.timeIntervalSince(state.lastShown) >= interval) else { return nil }
            state.lastShown = now
            return line(state, now: now)
        }
        if let text { output.write(Data(text.utf8)) }
    }

    /// `[#########-----------]  1234/5461 tiles  312 tiles/s  0:14 left`
    private func line(_ state: State, now: Date) -> String {
        // Before the tiles: the stage alone.
        if !state.tilesStarted {
            let stage = state.stage ?? "starting"
            return style == .bar ? "\r" + stage + "   " : stage + "\n"
        }
        let stage = state.stage.map { "  (\($0))" } ?? ""
        let elapsed = max(now.timeIntervalSince(state.started), 1e-3)
        let finished = state.done + state.skipped
        let total = state.total
        let rate = Double(state.done) / elapsed
        let left = rate > 0 ? Double(total - finished) / rate : .infinity
        let figures = "\(finished)/\(total) tiles  \(Int(rate.rounded())) tiles/s  \(Self.duration(left)) left"
        switch style {
        case .bar:
            let width = 24
            let filled = total > 0 ? min(width, finished * width / total) : width
            return "\r[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "] "
                + figures + stage + "   "
        default:
            let percent = total > 0 ? Double(finished) * 100 / Double(total) : 100
            return String(format: "%5.1f%% ", percent) + figures + stage + "\n"
        }
    }

    static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite else { return "--:--" }
        let s = Int(seconds.rounded(.up))
        return s >= 3600
            ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
    }
}
