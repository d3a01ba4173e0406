/// Why a sheet cannot be made. Each case carries the values concerned and the limits; its
/// description is one line in the library's terms, and the command line words the cases
/// about its options with its own option names.
public enum SheetError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A custom paper size that is not positive or exceeds `maxSide` millimetres.
    case paperSizeOutOfRange(width: Double, height: Double, maxSide: Double)
    /// Margins that are negative or not a number.
    case invalidMargins(Double)
    case dpiOutOfRange(Double, min: Double, max: Double)
    /// The margins leave nothing (or too little) of the page for the map.
    case marginsTooLarge(margins: Double, paperWidth: Double, paperHeight: Double)
    case noRoomForMap(frameWidth: Double, frameHeight: Double, paper: String)
    /// The sheet's centre cannot be drawn in a UTM zone (beyond 84°N or 80°S).
    case outsideUTM(latitude: Double)
    /// The scale puts the sheet's corners so far from the zone's central meridian that the
    /// projection no longer keeps the scale (or gives no answer at all); `largestScale` is
    /// the largest denominator that would do, when there is one.
    case scaleTooSmall(scale: Double, reason: String, largestScale: Int?)
    case scaleOutOfRange(Double, max: Double)
    /// A bbox that does not fit the map frame at the scale asked for.
    case bboxDoesNotFit(
        scale: Double, needed: (width: Double, height: Double), frame: (width: Double, height: Double), fitting: Double?
    )
    /// A sheet placed by its centre needs a scale (only a bbox can choose its own).
    case centreNeedsScale
    /// A series covers a bbox, at one scale given for all its sheets.
    case seriesNeedsBBox
    case seriesNeedsScale
    /// The map view of the frame cannot be made (too many pixels at the dpi).
    case frameNotDrawable(width: Int, height: Int, dpi: Double, reason: String)
    /// The notes below the map do not fit even when the map gives up room for them.
    case notesTooLong
    case invalid(String)

    public var description: String {
        switch self {
        case .paperSizeOutOfRange(let w, let h, let maxSide):
            return
                "a paper of \(Millimetres.text(w)) x \(Millimetres.text(h)) mm is not one: each side must be more than 0 and at most \(Millimetres.text(maxSide)) mm"
        case .invalidMargins(let margins):
            return "margins of \(margins) mm are not a number of millimetres, 0 or more"
        case .dpiOutOfRange(let dpi, let min, let max):
            return
                "the dpi \(ScaleText.number(dpi)) is out of range (\(ScaleText.number(min)) to \(ScaleText.number(max)))"
        case .marginsTooLarge(let margins, let w, let h):
            return
                "margins of \(Millimetres.text(margins)) mm are larger than the page (\(Millimetres.text(w)) x \(Millimetres.text(h)) mm leaves nothing inside them)"
        case .noRoomForMap(let w, let h, let paper):
            return
                "the margins and marginalia leave a map frame of only \(Millimetres.text(max(0, w))) x \(Millimetres.text(max(0, h))) mm on \(paper) (at least 20 x 20 mm is needed): use smaller margins or larger paper"
        case .outsideUTM(let latitude):
            return
                "the sheet's centre at latitude \(Millimetres.text(latitude)) is outside the UTM zones (80°S to 84°N)"
        case .scaleTooSmall(let scale, let reason, let largest):
            let hint = largest.map { " (a scale of 1:\(ScaleText.grouped(Double($0))) or larger would fit)" } ?? ""
            return "at \(ScaleText.ratio(scale)) \(reason)\(hint)"
        case .scaleOutOfRange(let scale, let max):
            return "the scale denominator \(scale) is out of range (1 to \(ScaleText.grouped(max)))"
        case .bboxDoesNotFit(let scale, let needed, let frame, let fitting):
            var text = SheetError.bboxDoesNotFitProblem(scale: scale, needed: needed, frame: frame)
            if let fitting {
                text += ": use a scale of \(ScaleText.ratio(fitting)) or smaller, larger paper, or a series of sheets"
            }
            return text
        case .centreNeedsScale:
            return "a sheet placed by its centre needs a scale (only a bbox can choose its own)"
        case .seriesNeedsBBox:
            return "a series covers a bbox: give one"
        case .seriesNeedsScale:
            return "a series needs a scale (every sheet of a series has the same scale)"
        case .frameNotDrawable(let width, let height, let dpi, let reason):
            return
                "\(SheetError.frameNotDrawableProblem(width: width, height: height, dpi: dpi, reason: reason)): lower the dpi"
        case .notesTooLong:
            return
                "the notes below the map (the grid's notes and the map's attribution) do not fit on the page: shorten the attribution or use larger paper"
        case .invalid(let message):
            return message
        }
    }

    /// The first part of `bboxDoesNotFit`'s message, before what to do about it.
    public static func bboxDoesNotFitProblem(
        scale: Double, needed: (width: Double, height: Double), frame: (width: Double, height: Double)
    ) -> String {
        "at \(ScaleText.ratio(scale)) the bbox needs a map frame of \(Millimetres.text(needed.width)) x \(Millimetres.text(needed.height)) mm but the frame is \(Millimetres.text(frame.width)) x \(Millimetres.text(frame.height)) mm"
    }

    /// The first part of `frameNotDrawable`'s message, before what to do about it.
    public static func frameNotDrawableProblem(width: Int, height: Int, dpi: Double, reason: String) -> String {
        "the map frame of \(width)x\(height) pixels at \(ScaleText.number(dpi)) dpi cannot be drawn (\(reason))"
    }

    public static func == (a: SheetError, b: SheetError) -> Bool { a.description == b.description }
}
