// Micro-benchmarks for `make bench`. Timings live here, never in tests.
// `meridian-bench [NAME ...]` runs the named benchmarks (all when none is named).
import Foundation

let benchmarks: [(name: String, run: () -> Void)] = [
    ("geodesy", GeodesyBench.run),
    ("png", PNGBench.run),
    ("tiles", TilesBench.run),
    ("grid", GridBench.run),
    ("labels", LabelsBench.run),
    ("json", JSONBench.run),
]

let wanted = Set(CommandLine.arguments.dropFirst())
for benchmark in benchmarks where wanted.isEmpty || wanted.contains(benchmark.name) {
    benchmark.run()
}
