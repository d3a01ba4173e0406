import Geodesy
import MapModel

/// A feature's label as it would stand at one resolution: its text, font and box in global
/// pixels. Whether it is placed is decided by `LabelSpace`.
struct LabelCandidate {
    struct ID: Hashable {
        let layer: Int
        let feature: Int
    }

    let id: ID
    let priority: Double
    let text: String
    let font: FontSpec
    let color: Color
    let halo: (color: Color, width: Double)?
    /// The feature's label point, in global pixels.
    let anchor: PlanePoint
    /// Top-left corner of the text's logical box, in global pixels.
    let corner: PlanePoint
    /// The box that must stay clear of other labels: the text's box grown by the halo.
    let box: Rect

    /// What placement decides on.
    var placement: PlacementCandidate {
        PlacementCandidate(
            owner: .label(layer: id.layer, feature: id.feature),
            rank: PlacementRank(priority: priority, layer: id.layer, feature: id.feature), anchor: anchor, boxes: [box])
    }
}
