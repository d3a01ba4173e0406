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
    /// Top-left corner of the text's logical box, in global pixels.
    let corner: PlanePoint
    /// The box that must stay clear of other labels: the text's box grown by the halo.
    let box: Rect

    /// Placement order: higher priority first, then earlier layers, then file order.
    func outranks(_ other: LabelCandidate) -> Bool {
        if priority != other.priority { return priority > other.priority }
        if id.layer != other.id.layer { return id.layer < other.id.layer }
        return id.feature < other.id.feature
    }
}
