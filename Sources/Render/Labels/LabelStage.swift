/// A long label placement in progress, for a progress display ("placing labels for zoom 4").
/// A render reports it every `PlacementEngine.progressInterval` label evaluations, from the
/// thread that renders; the receiver throttles what it prints.
public struct LabelStage: Sendable, Equatable {
    /// The scale denominator of the resolution being placed.
    public let scale: Double
    /// Label evaluations so far in this render (a label is evaluated once per round).
    public let evaluated: Int
}
