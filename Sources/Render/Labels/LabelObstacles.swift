import Geodesy

/// Boxes that map labels keep clear of, in global pixels: the grid labels drawn over the map
/// when the grid's labels go first (`GridSettings.labelPriority`).
protocol LabelObstacles: AnyObject {
    /// At least every box that touches `rect`.
    func boxes(touching rect: Rect) -> [Rect]
}

/// The obstacles of one image: its grid labels, placed for that image alone.
final class ObstacleList: LabelObstacles {
    let all: [Rect]

    init(_ boxes: [Rect]) {
        all = boxes
    }

    func boxes(touching rect: Rect) -> [Rect] { all.filter { $0.intersects(rect) } }
}
