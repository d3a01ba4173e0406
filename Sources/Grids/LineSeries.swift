/// The values one family of lines takes (meridians, parallels, a zone's eastings or
/// northings), in whole units of the generator (arc seconds or 0.0001° for angles, metres
/// for UTM), and the level each belongs to.
///
/// Lines lie at `offset + k·step`. Without a user interval, `step` is the finest shown
/// level's and the offset 0, and a line belongs to the coarsest shown level whose step
/// divides its value (a 10 km line is not drawn again as a 1 km line). With a user interval
/// (`GridRequest.interval`), `step` and `offset` are the user's; a line still belongs to the
/// coarsest level whose step divides it, and to `intervalLevel` when none does.
struct LineSeries: Sendable {
    /// The shown levels and their steps, coarse to fine.
    let levels: [(level: Int, step: Int64)]
    let step: Int64
    let offset: Int64
    /// The level of lines no level's step divides (lines of a user interval); nil without one.
    let intervalLevel: Int?

    /// Lines at the shown levels' steps.
    init(levels: [(level: Int, step: Int64)]) {
        self.levels = levels
        step = levels.last?.step ?? 1
        offset = 0
        intervalLevel = nil
    }

    /// Lines every `interval` from `offset`: the shown levels whose steps are coarser than the
    /// interval still claim the lines they divide; the others belong to `intervalLevel`.
    init(levels: [(level: Int, step: Int64)], interval: Int64, offset: Int64, intervalLevel: Int) {
        self.levels = levels.filter { $0.step > interval }
        step = Swift.max(1, interval)
        let r = offset % step
        self.offset = r < 0 ? r + step : r
        self.intervalLevel = intervalLevel
    }

    /// The level a value belongs to, or nil when no line lies there.
    func owner(_ value: Int64) -> Int? {
        guard (value - offset) % step == 0 else { return nil }
        return levels.first { value % $0.step == 0 }?.level ?? intervalLevel
    }

    /// No lines at all (only the zones are drawn).
    var isEmpty: Bool { levels.isEmpty && intervalLevel == nil }

    /// The line indices k whose values `offset + k·step` lie in [lo, hi] (in units); none
    /// when the series is empty.
    func indices(from lo: Double, to hi: Double) -> StrideThrough<Int64> {
        guard !isEmpty, lo.isFinite, hi.isFinite, lo <= hi, Swift.abs(lo) < 1e15, Swift.abs(hi) < 1e15 else {
            return stride(from: 1, through: 0, by: 1)
        }
        let s = Double(step)
        let o = Double(offset)
        return stride(from: Int64(((lo - o) / s).rounded(.up)), through: Int64(((hi - o) / s).rounded(.down)), by: 1)
    }

    func value(_ k: Int64) -> Int64 { offset + k * step }

    /// How many lines lie in [lo, hi]: for estimating the work before doing it.
    func count(from lo: Double, to hi: Double) -> Double {
        guard lo.isFinite, hi.isFinite, hi >= lo else { return 0 }
        return (hi - lo) / Double(step) + 1
    }
}
