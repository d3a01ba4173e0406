/// The size of label texts for placement, without a Pango layout per label and size.
///
/// Hinting is off and glyph positions are not rounded (see `TextEngine`), so a text's extents
/// are proportional to its font size. Each distinct (text, family, weight, slant) is laid out
/// once, at `referenceSize`, and scaled: a zoom's labels cost a multiplication each, and the
/// same text at every zoom one layout. Sizes are always the scaled ones, never a layout at the
/// size itself, so placement does not depend on what happens to be cached.
final class LabelTextMeasure {
    /// The size measured at, in pixels: large, so that Pango's 1/1024 px units are fine steps.
    static let referenceSize = 128.0
    /// The most texts kept; past it the cache starts again (it is only a cache).
    static let maxEntries = 200_000

    private struct Key: Hashable {
        let text: String
        let family: String
        let bold: Bool
        let italic: Bool
    }

    /// Width and height at the reference size.
    private var sizes: [Key: (width: Double, height: Double)] = [:]
    private let engine: TextEngine
    /// Layouts made so far: what the cache saves is the difference with the sizes asked for.
    private(set) var layouts = 0

    init(engine: TextEngine) {
        self.engine = engine
    }

    /// The width and height of `text`'s logical box in `font`, in pixels.
    func size(_ text: String, font: FontSpec) -> (width: Double, height: Double) {
        let key = Key(text: text, family: font.family, bold: font.bold, italic: font.italic)
        let reference: (width: Double, height: Double)
        if let known = sizes[key] {
            reference = known
        } else {
            var at = font
            at.sizePixels = LabelTextMeasure.referenceSize
            let extents = TextLayout(context: engine.context, text: text, font: at).extents
            layouts += 1
            reference = (extents.width, extents.height)
            if sizes.count >= LabelTextMeasure.maxEntries { sizes.removeAll(keepingCapacity: true) }
            sizes[key] = reference
        }
        let k = font.sizePixels / LabelTextMeasure.referenceSize
        return (reference.width * k, reference.height * k)
    }
}
