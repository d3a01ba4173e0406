import Geodesy

/// Where long work says what it is doing, so that a progress display shows signs of life
/// before the first tile is done: "reading coast: 1.2 M features", "simplifying coast for
/// zoom 4", "placing labels for zoom 4". Any thread may call; calls are cheap (the display
/// decides when to print, and prints the latest stage).
public protocol StageReporter: AnyObject, Sendable {
    func stage(_ text: String)
}

/// Counts features read from a source and reports the count every `every` features.
public struct ReadingProgress {
    public let reporter: any StageReporter
    /// The layer's name, as the stage shows it.
    public let name: String
    public var every = 10_000

    public init(reporter: any StageReporter, name: String) {
        self.reporter = reporter
        self.name = name
    }

    /// Call after each feature with the number read so far.
    @inline(__always) public func read(_ count: Int) {
        if count % every == 0 { reporter.stage("reading \(name): \(ReadingProgress.count(count)) features") }
    }

    /// 8,500; 350 k; 1.2 M.
    public static func count(_ n: Int) -> String {
        if n >= 1_000_000 { return DecimalFormat.fixed(Double(n) / 1_000_000, decimals: 1) + " M" }
        if n >= 10_000 { return "\(n / 1000) k" }
        return "\(n)"
    }
}
