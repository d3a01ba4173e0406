import Geodesy
import MapModel

/// A label or a marker as it would be drawn at one resolution: its placement and what to
/// draw. Whether it is placed is decided by `LabelSpace`.
struct LabelCandidate {
    enum Content {
        /// Straight text, its logical box's top-left corner at `corner` (global pixels).
        case text(TextLayout, corner: PlanePoint)
        /// Straight text measured for placement alone (`CandidateMaker.placements`): never
        /// drawn, since the placed labels are made again to be drawn.
        case measured(corner: PlanePoint)
        case curved(CurvedText)
        /// A marker centred on `centre` (global pixels).
        case marker(MarkerDrawing, centre: PlanePoint)
    }

    let placement: PlacementCandidate
    let content: Content
    let color: Color
    let halo: (color: Color, width: Double)?
    /// The text (empty for a marker), for tests and messages.
    let text: String

    var id: PlacementCandidate.ID { placement.id }
    var box: Rect { placement.bounds }

    func outranks(_ other: LabelCandidate) -> Bool { placement.outranks(other.placement) }

    var isMarker: Bool {
        if case .marker = content { return true }
        return false
    }

    /// Draws it into a context whose user space is `view`'s pixels.
    func draw(in context: CairoContext, view: View, images: ImageLibrary) {
        switch content {
        case .text(let layout, let corner):
            let p = view.transform.image(global: corner)
            layout.draw(in: context, x: p.x, y: p.y, color: color, halo: halo)
        case .measured:
            break
        case .curved(let curved):
            curved.draw(in: context, view: view, color: color, halo: halo)
        case .marker(let marker, let centre):
            let p = view.transform.image(global: centre)
            context.setEvenOddFill()
            MarkerPainter.draw(marker, x: p.x, y: p.y, into: context, images: images)
        }
    }
}
