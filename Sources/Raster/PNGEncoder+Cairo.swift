import CPNGCodec

/// How the 32-bit words of the pixels the encoder reads hold their colour.
enum PixelWords {
    /// Straight RGBA bytes, as `Image` holds them (on a little-endian machine, red in the
    /// word's low byte).
    case rgba
    /// Cairo's ARGB32 words 0xAARRGGBB (native-endian) of opaque pixels, whose premultiplied
    /// colour is the colour itself.
    case cairoOpaque

    /// The colour of `word` as an RGBA word (red in the low byte, alpha in the high one).
    @inline(__always)
    func rgbaWord(_ word: UInt32) -> UInt32 {
        switch self {
        case .rgba: return word
        case .cairoOpaque: return word & 0xFF00_FF00 | (word >> 16) & 0xFF | (word & 0xFF) << 16
        }
    }
}

extension PNG {
    /// Encodes a picture held in Cairo's ARGB32 layout (native-endian words 0xAARRGGBB,
    /// colour premultiplied by alpha; rows of `width` pixels, `stride` bytes apart: `width * 4`
    /// when 0, or a metatile's row when a tile is read in place) without
    /// converting it to an `Image` first, when every pixel is opaque: the premultiplied
    /// colour is then the colour, and the palette, the indices and the RGB rows are read
    /// straight from the words. The bytes are those of `encode(Image(cairoARGB32:...))`.
    ///
    /// Nil when a pixel is not opaque, or when the options need libpng (a filter other than
    /// none or sub, zlib, RGBA throughout): the caller converts and calls `encode`. Converting
    /// every tile cost as much as a tenth of a map pyramid's instructions.
    public static func encodeOpaque(
        cairoARGB32 pixels: UnsafeRawBufferPointer, width: Int, height: Int, stride: Int = 0,
        options: PNGEncodingOptions = PNGEncodingOptions()
    ) throws(PNGError) -> [UInt8]? {
        #if _endian(little)
            let stride = stride > 0 ? stride : width * 4
            guard width > 0, height > 0, stride >= width * 4, pixels.count >= (height - 1) * stride + width * 4,
                options.colourMode == .automatic, options.palette.usesLibdeflate, options.truecolour.usesLibdeflate
            else { return nil }
            let pixelsPerMetre = try options.pixelsPerMetre()
            let whole = UnsafeRawBufferPointer(rebasing: pixels[0..<(height - 1) * stride + width * 4])
            // The census reads words as RGBA does; alpha is the high byte in both layouts, so
            // it finds the same colours in the same order, with red and blue swapped.
            let census = ColourCensus(rows: whole, width: width, height: height, stride: stride)
            guard census.opaque else { return nil }
            let result: Result<[UInt8], PNGError>
            if census.fitsPalette {
                var params = mpng_encode_params()
                params.pixels_per_metre = pixelsPerMetre
                result = encodePalette(
                    whole, width: width, height: height, words: .cairoOpaque, census: census, options: options,
                    &params)
            } else {
                let choice = options.truecolour.choice(pixels: width * height, changes: census.changes)
                result = encodeTruecolourWithLibdeflate(
                    whole, width: width, height: height, pixelStride: stride, words: .cairoOpaque, opaque: true,
                    compression: choice.compression, runs: choice.runs, pixelsPerMetre: pixelsPerMetre)
            }
            return try result.get()
        #else
            return nil
        #endif
    }
}

extension PNGEncodingOptions {
    /// `dotsPerInch` as pHYs stores it: whole pixels per metre; 0 when none is set.
    func pixelsPerMetre() throws(PNGError) -> UInt32 {
        guard let dpi = dotsPerInch else { return 0 }
        // One inch is 0.0254 m exactly.
        guard dpi.isFinite, dpi > 0, dpi / 0.0254 < Double(UInt32.max) else {
            throw PNGError(.unencodable, "resolution must be a positive number of dots per inch, not \(dpi)")
        }
        return UInt32((dpi / 0.0254).rounded())
    }
}
