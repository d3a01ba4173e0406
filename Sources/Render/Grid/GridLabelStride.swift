import Foundation
import Geodesy
import Grids

/// Thinning crowded line labels the way a cartographer does: keep the labels of every n-th
/// line (every 2nd, 5th, 10th...), so the ones left are evenly spaced, instead of letting
/// each label win or lose by the gaps around it.
///
/// The strides are the level steps of the family, and twice or five times a step where that
/// divides the next coarser step (1 km, 2 km, 5 km, 10 km...; 5', 10', 30', 1°, 5°...): a
/// stride never skips a coarser line that a finer stride kept.
enum GridLabelStride {
    /// The strides to try, finest first, in the family's units (degrees or metres).
    static func ladder(_ spacing: GridSpacing) -> [Double] {
        var steps = spacing.levelSteps.filter { $0 > spacing.step } + [spacing.step]
        steps = Array(Set(steps)).sorted(by: >)
        var out: [Double] = []
        for (i, step) in steps.enumerated().reversed() {
            out.append(step)
            let next = i > 0 ? steps[i - 1] : step * 10
            for factor in [2.0, 5.0] where step * factor < next && divides(step * factor, next) {
                out.append(step * factor)
            }
        }
        // Beyond the coarsest level: 2, 5, 10 times it, and so on.
        if let coarsest = steps.first {
            for factor in [2.0, 5.0, 10, 20, 50, 100, 200, 500, 1000] { out.append(coarsest * factor) }
        }
        return Array(Set(out)).sorted()
    }

    /// Whether `stride` divides `value` (both in the family's units), to a few ulps.
    static func divides(_ stride: Double, _ value: Double) -> Bool {
        let q = value / stride
        return abs(q - q.rounded()) < 1e-7
    }

    /// Whether a line of `value` is one of every `stride`, counted from the family's offset.
    static func keeps(_ value: Double, stride: Double, spacing: GridSpacing) -> Bool {
        divides(stride, value - spacing.offset)
    }

    /// The finest stride whose labels do not overlap one another, judged on the labels at
    /// hand (a single image: what it shows decides). Labels of different UTM zones, or of
    /// one line, are left to the ranks: no stride parts them.
    static func stride(of labels: [GridLabelCandidate], spacing: GridSpacing) -> Double {
        let ladder = ladder(spacing)
        let zones = Dictionary(grouping: labels) { $0.zoneNumber }
        for stride in ladder {
            let clear = zones.values.allSatisfy { group in
                let kept = group.filter { keeps($0.value, stride: stride, spacing: spacing) }.sorted {
                    $0.box.minX < $1.box.minX
                }
                return !anyOverlap(kept)
            }
            if clear { return stride }
        }
        return ladder.last ?? spacing.step
    }

    /// The finest stride at which labels `extent` pixels long (along the family's spacing)
    /// clear each other when lines `pixelsPerUnit` apart per unit: decided by the resolution
    /// alone, so every tile of a zoom level keeps the same lines.
    static func stride(extent: Double, pixelsPerUnit: Double, spacing: GridSpacing) -> Double {
        let ladder = ladder(spacing)
        return ladder.first { $0 * pixelsPerUnit >= extent } ?? ladder.last ?? spacing.step
    }

    /// Whether any two labels of different lines overlap (sorted by their boxes' left edges).
    static func anyOverlap(_ sorted: [GridLabelCandidate]) -> Bool {
        for (i, a) in sorted.enumerated() {
            var j = i + 1
            while j < sorted.count, sorted[j].box.minX < a.box.maxX {
                if sorted[j].value != a.value, sorted[j].box.overlaps(a.box) { return true }
                j += 1
            }
        }
        return false
    }
}
