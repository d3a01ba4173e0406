/// Why a sheet cannot be made, as one line a user can act on.
public enum SheetError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A paper size that is not one (`--paper B7`, `--paper 0x297mm`).
    case unknownPaper(String)
    case badOrientation(String)
    /// The margins leave nothing (or too little) of the page for the map.
    case marginsTooLarge(margins: Double, paperWidth: Double, paperHeight: Double)
    case noRoomForMap(frameWidth: Double, frameHeight: Double, paper: String)
    /// The sheet's centre cannot be drawn in a UTM zone (beyond 84°N or 80°S).
    case outsideUTM(latitude: Double)
    /// The scale puts the sheet's corners so far from the zone's central meridian that the
    /// projection no longer keeps the scale (or gives no answer at all).
    case scaleTooSmall(scale: Double, reason: String)
    case scaleOutOfRange(Double)
    /// A bbox that does not fit the map frame at the scale asked for.
    case bboxDoesNotFit(
        scale: Double, needed: (width: Double, height: Double), frame: (width: Double, height: Double), fitting: Double?
    )
    case invalid(String)

    public var description: String {
        switch self {
        case .unknownPaper(let text):
            return
                "unknown paper size '\(text)' (use A4, A3, A2, A1, A0, letter, legal, tabloid or WIDTHxHEIGHTmm such as 420x297mm)"
        case .badOrientation(let text):
            return "unknown orientation '\(text)' (use portrait or landscape)"
        case .marginsTooLarge(let margins, let w, let h):
            return
                "margins of \(Millimetres.text(margins)) mm are larger than the page (\(Millimetres.text(w)) x \(Millimetres.text(h)) mm leaves nothing inside them)"
        case .noRoomForMap(let w, let h, let paper):
            return
                "the margins and marginalia leave a map frame of only \(Millimetres.text(max(0, w))) x \(Millimetres.text(max(0, h))) mm on \(paper) (at least 20 x 20 mm is needed): use smaller margins or larger paper"
        case .outsideUTM(let latitude):
            return
                "the sheet's centre at latitude \(Millimetres.text(latitude)) is outside the UTM zones (80°S to 84°N)"
        case .scaleTooSmall(let scale, let reason):
            return "at \(ScaleText.ratio(scale)) \(reason)"
        case .scaleOutOfRange(let scale):
            return "the scale denominator \(scale) is out of range (1 to 100,000,000)"
        case .bboxDoesNotFit(let scale, let needed, let frame, let fitting):
            var text =
                "at \(ScaleText.ratio(scale)) the bbox needs a map frame of \(Millimetres.text(needed.width)) x \(Millimetres.text(needed.height)) mm but the frame is \(Millimetres.text(frame.width)) x \(Millimetres.text(frame.height)) mm"
            if let fitting { text += ": use --scale \(Int(fitting)) or more, larger paper, or --series" }
            return text
        case .invalid(let message):
            return message
        }
    }

    public static func == (a: SheetError, b: SheetError) -> Bool { a.description == b.description }
}
