import Geodesy

/// The order in which views come to a reader, told from their extents: a tile job draws each
/// zoom's metatiles row after row from the north, and each worker takes them in that order, so
/// the views of one size (one zoom) that a reader is asked for never move north. While they do
/// not, nothing wholly north of the southernmost view's top is asked for again until the size
/// changes (the next zoom starts again from the north).
///
/// A view of another size begins a new sweep, with nothing behind it yet (so label regions
/// read between a layer's views keep every sweep at its start). Views that go back north at
/// the same size (`serve`) end it for good: `front` is then nil, and a cache keeps what its
/// budget allows.
struct ViewSweep {
    /// The top (largest Web Mercator y) of the latest view, while views come in sweep order.
    private(set) var front: Double?
    /// The height of the views of the sweep going on.
    private var height: Double?
    /// False once views came out of sweep order.
    private(set) var holds = true

    /// Notes a view of `rect`; true when the front moved south since the last view of the
    /// same size (what lies wholly north of `front` is then behind the sweep).
    mutating func advance(to rect: Rect) -> Bool {
        guard holds else { return false }
        guard let height, let front, ViewSweep.sameSize(height, rect.height) else {
            // Another size: a new sweep begins here (what is behind it is not known yet).
            self.height = rect.height
            self.front = rect.maxY
            return false
        }
        guard rect.maxY <= front else {
            holds = false
            self.front = nil
            return false
        }
        self.front = rect.maxY
        return rect.maxY < front
    }

    /// Heights of views of one zoom, which differ in their last bits from row to row (each is
    /// the difference of two transformed edges).
    private static func sameSize(_ a: Double, _ b: Double) -> Bool {
        abs(a - b) <= 1e-9 * max(abs(a), abs(b))
    }
}
