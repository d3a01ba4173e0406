import CPNGCodec
import CPrefetch

extension PNG {
    /// Encodes `image` as PNG. The colour type follows `options.colourMode` (by default: an
    /// exact palette for at most 256 colours, RGB when opaque, RGBA otherwise); the output
    /// depends only on the pixels and the options, so the same image gives the same bytes.
    public static func encode(_ image: Image, options: PNGEncodingOptions = PNGEncodingOptions()) throws(PNGError)
        -> [UInt8]
    {
        guard image.width > 0, image.height > 0 else {
            throw PNGError(.unencodable, "a \(image.width)x\(image.height) image has no pixels")
        }
        let pixelsPerMetre = try options.pixelsPerMetre()
        let result: Result<[UInt8], PNGError> = image.withUnsafeBytes { pixels in
            var params = mpng_encode_params()
            params.width = UInt32(image.width)
            params.height = UInt32(image.height)
            params.pixels_per_metre = pixelsPerMetre

            if options.colourMode == .alwaysRGBA {
                return encodeTruecolour(pixels, image: image, opaque: false, options.truecolour, runs: false, &params)
            }
            let census = ColourCensus(pixels, width: image.width)
            if census.fitsPalette {
                return encodePalette(
                    pixels, width: image.width, height: image.height, words: .rgba, census: census, options: options,
                    &params)
            }
            let choice = options.truecolour.choice(pixels: image.pixelCount, changes: census.changes)
            return encodeTruecolour(
                pixels, image: image, opaque: census.opaque, choice.compression, runs: choice.runs, &params)
        }
        return try result.get()
    }

    /// Encodes and writes atomically (temporary file, then rename) to `path`.
    public static func write(
        _ image: Image, toPath path: String,
        options: PNGEncodingOptions = PNGEncodingOptions()
    ) throws(PNGError) {
        let bytes: [UInt8]
        do {
            bytes = try encode(image, options: options)
        } catch {
            var located = error
            located.path = path
            throw located
        }
        do {
            try FileIO.writeAtomically(bytes, toPath: path)
        } catch {
            throw PNGError(.unwritable, error.reason, path: path)
        }
    }

    static func encodePalette(
        _ pixels: UnsafeRawBufferPointer, width: Int, height: Int, words: PixelWords, census: ColourCensus,
        options: PNGEncodingOptions,
        _ params: inout mpng_encode_params
    ) -> Result<[UInt8], PNGError> {
        let depth = options.packPaletteBits ? census.indexBitDepth : 8
        let rowBytes = (width * depth + 7) / 8
        var rgb = [UInt8]()
        rgb.reserveCapacity(census.colours.count * 3)
        var alpha = [UInt8]()
        for colour in census.colours {
            let straight = words.rgbaWord(colour)
            rgb.append(UInt8(truncatingIfNeeded: straight))
            rgb.append(UInt8(truncatingIfNeeded: straight >> 8))
            rgb.append(UInt8(truncatingIfNeeded: straight >> 16))
        }
        for colour in census.colours.prefix(census.translucentCount) {
            alpha.append(UInt8(truncatingIfNeeded: colour >> 24))
        }
        if options.palette.usesLibdeflate {
            let writer = PNGDeflateWriter(
                width: width, height: height, colourType: 3, bitDepth: UInt8(depth), rowBytes: rowBytes,
                palette: rgb, alpha: alpha, pixelsPerMetre: params.pixels_per_metre,
                subFilter: options.palette.filter == .sub)
            let choice = options.palette.choice(pixels: width * height, changes: census.changes)
            if depth == 8, !writer.subFilter, let rows = census.indexRows {
                return writer.encode(level: choice.compression.level, runs: choice.runs, imageData: rows)
            }
            return writer.encode(level: choice.compression.level, runs: choice.runs) { rows, stride in
                census.writeIndices(
                    of: pixels, width: width, height: height, bitDepth: depth, into: rows,
                    rowBytes: rowBytes, stride: stride)
            }
        }
        let indices = [UInt8](unsafeUninitializedCapacity: rowBytes * height) { buffer, initialized in
            census.writeIndices(
                of: pixels, width: width, height: height, bitDepth: depth,
                into: buffer.baseAddress!, rowBytes: rowBytes, stride: rowBytes)
            initialized = rowBytes * height
        }
        params.color = MPNG_COLOR_PALETTE
        params.bit_depth = Int32(depth)
        params.palette_count = Int32(census.colours.count)
        params.alpha_count = Int32(alpha.count)
        apply(options.palette, to: &params)
        return indices.withUnsafeBufferPointer { rows in
            rgb.withUnsafeBufferPointer { palette in
                alpha.withUnsafeBufferPointer { alphas in
                    params.rows = rows.baseAddress
                    params.stride = rowBytes
                    params.palette_rgb = palette.baseAddress
                    params.palette_alpha = alphas.baseAddress
                    return run(&params)
                }
            }
        }
    }

    private static func encodeTruecolour(
        _ pixels: UnsafeRawBufferPointer, image: Image, opaque: Bool,
        _ compression: PNGCompression, runs: Bool,
        _ params: inout mpng_encode_params
    ) -> Result<[UInt8], PNGError> {
        if compression.usesLibdeflate {
            return encodeTruecolourWithLibdeflate(
                pixels, width: image.width, height: image.height, words: .rgba, opaque: opaque,
                compression: compression, runs: runs, pixelsPerMetre: params.pixels_per_metre)
        }
        params.bit_depth = 8
        apply(compression, to: &params)
        guard opaque else {
            // RGBA rows are the image's own bytes: no copy.
            params.color = MPNG_COLOR_RGBA
            params.rows = pixels.baseAddress?.assumingMemoryBound(to: UInt8.self)
            params.stride = image.bytesPerRow
            return run(&params)
        }
        let count = image.pixelCount
        let rgb = [UInt8](unsafeUninitializedCapacity: count * 3) { buffer, initialized in
            copyRGB(from: pixels.baseAddress!, to: buffer.baseAddress!, pixels: count)
            initialized = count * 3
        }
        params.color = MPNG_COLOR_RGB
        return rgb.withUnsafeBufferPointer { rows in
            params.rows = rows.baseAddress
            params.stride = image.width * 3
            return run(&params)
        }
    }

    /// `pixels`: rows of `width` pixels, `pixelStride` bytes apart (`width * 4` when 0).
    static func encodeTruecolourWithLibdeflate(
        _ pixels: UnsafeRawBufferPointer, width: Int, height: Int, pixelStride: Int = 0, words: PixelWords,
        opaque: Bool, compression: PNGCompression, runs: Bool, pixelsPerMetre: UInt32
    ) -> Result<[UInt8], PNGError> {
        let pixelStride = pixelStride > 0 ? pixelStride : width &* 4
        let writer = PNGDeflateWriter(
            width: width, height: height, colourType: opaque ? 2 : 6, bitDepth: 8,
            rowBytes: width * (opaque ? 3 : 4), pixelsPerMetre: pixelsPerMetre, subFilter: compression.filter == .sub)
        let source = pixels.baseAddress!
        let shuffling = shufflesRGB
        return writer.encode(level: compression.level, runs: runs) { rows, stride in
            for y in 0..<height {
                let from = source + y &* pixelStride
                let to = rows + y &* stride
                switch (opaque, words) {
                case (false, _):
                    // Only straight RGBA gets here: Cairo's words are encoded directly only when opaque.
                    to.update(from: from.assumingMemoryBound(to: UInt8.self), count: width &* 4)
                case (true, .rgba): copyRGB(from: from, to: to, pixels: width, shuffling: shuffling)
                case (true, .cairoOpaque): copyRGB(fromARGB: from, to: to, pixels: width, shuffling: shuffling)
                }
            }
        }
    }

    /// How `copyRGB` takes the colour bytes out of pixels.
    enum RGBCopy: CaseIterable {
        /// Four pixels as three 32-bit words (any machine).
        case words
        /// Four pixels a 16-byte shuffle (SSSE3, `rgbrows.h`).
        case shuffle16
        /// Eight pixels a 32-byte shuffle and permute (AVX2, `rgbrows.h`).
        case shuffle32

        /// Those this processor has.
        static var available: [RGBCopy] {
            [.words] + (meridian_has_ssse3() != 0 ? [.shuffle16] : []) + (ColourCensus.hasAVX2 ? [.shuffle32] : [])
        }

        /// Copies the first pixels the shuffle can (a multiple of four, never a byte past the
        /// row's); how many.
        @inline(__always)
        func copied(from source: UnsafeRawPointer, to target: UnsafeMutableRawPointer, pixels: Int, argb: Bool) -> Int {
            switch self {
            case .words: 0
            case .shuffle16: meridian_copy_rgb_ssse3(source, target, pixels, argb ? 1 : 0)
            case .shuffle32: meridian_copy_rgb_avx2(source, target, pixels, argb ? 1 : 0)
            }
        }
    }

    /// The widest copy this processor has: asked once.
    static let shufflesRGB = RGBCopy.available.last ?? .words

    /// Copies the red, green and blue bytes of `pixels` RGBA pixels, dropping alpha: with one
    /// byte shuffle per four or eight pixels where the processor has one (`rgbrows.h`: some 4
    /// instructions per four pixels instead of 25, ~95 M over the ~310 RGB tiles of the New
    /// York pyramids), otherwise and for the last few four pixels at a time as three 32-bit
    /// words rather than byte by byte (the copy is a sizeable part of an RGB tile's encoding
    /// once libdeflate runs at level 1).
    ///
    /// `shuffling` picks the copy (tests: every way, one answer).
    @inline(__always)
    static func copyRGB(
        from source: UnsafeRawPointer, to target: UnsafeMutableRawPointer, pixels: Int,
        shuffling: RGBCopy = shufflesRGB
    ) {
        // Little-endian words: byte 0 of a pixel is red, byte 3 alpha.
        let done = shuffling.copied(from: source, to: target, pixels: pixels, argb: false)
        copyRGB(from: source, to: target, pixels: pixels, startingAt: done) { $0 }
    }

    /// The same from Cairo's native-endian words 0xAARRGGBB of opaque pixels (blue first in
    /// memory): the byte swap puts red in byte 0, as in an RGBA word.
    @inline(__always)
    static func copyRGB(
        fromARGB source: UnsafeRawPointer, to target: UnsafeMutableRawPointer, pixels: Int,
        shuffling: RGBCopy = shufflesRGB
    ) {
        let done = shuffling.copied(from: source, to: target, pixels: pixels, argb: true)
        copyRGB(from: source, to: target, pixels: pixels, startingAt: done) { $0.byteSwapped >> 8 }
    }

    /// `rgb` turns a pixel's word, as loaded, into red in its low byte, then green and blue.
    /// Pixels before `start` are already copied.
    @inline(__always)
    private static func copyRGB(
        from source: UnsafeRawPointer, to target: UnsafeMutableRawPointer, pixels: Int, startingAt start: Int,
        _ rgb: (UInt32) -> UInt32
    ) {
        var i = start
        while i &+ 4 <= pixels {
            let p0 = rgb(UInt32(littleEndian: source.loadUnaligned(fromByteOffset: i &* 4, as: UInt32.self)))
            let p1 = rgb(UInt32(littleEndian: source.loadUnaligned(fromByteOffset: i &* 4 &+ 4, as: UInt32.self)))
            let p2 = rgb(UInt32(littleEndian: source.loadUnaligned(fromByteOffset: i &* 4 &+ 8, as: UInt32.self)))
            let p3 = rgb(UInt32(littleEndian: source.loadUnaligned(fromByteOffset: i &* 4 &+ 12, as: UInt32.self)))
            let out = target + i &* 3
            out.storeBytes(of: (p0 & 0x00FF_FFFF | p1 << 24).littleEndian, as: UInt32.self)
            out.storeBytes(of: (p1 >> 8 & 0xFFFF | p2 << 16).littleEndian, toByteOffset: 4, as: UInt32.self)
            out.storeBytes(of: (p2 >> 16 & 0xFF | p3 << 8).littleEndian, toByteOffset: 8, as: UInt32.self)
            i &+= 4
        }
        while i < pixels {
            let p = rgb(UInt32(littleEndian: source.loadUnaligned(fromByteOffset: i &* 4, as: UInt32.self)))
            target.storeBytes(of: UInt8(truncatingIfNeeded: p), toByteOffset: i &* 3, as: UInt8.self)
            target.storeBytes(of: UInt8(truncatingIfNeeded: p >> 8), toByteOffset: i &* 3 &+ 1, as: UInt8.self)
            target.storeBytes(of: UInt8(truncatingIfNeeded: p >> 16), toByteOffset: i &* 3 &+ 2, as: UInt8.self)
            i &+= 1
        }
    }

    private static func apply(_ compression: PNGCompression, to params: inout mpng_encode_params) {
        switch compression.filter {
        case .none: params.filter = MPNG_FILTER_NONE
        case .sub: params.filter = MPNG_FILTER_SUB
        case .up: params.filter = MPNG_FILTER_UP
        case .average: params.filter = MPNG_FILTER_AVERAGE
        case .paeth: params.filter = MPNG_FILTER_PAETH
        case .adaptive: params.filter = MPNG_FILTER_ADAPTIVE
        }
        switch compression.strategy {
        case .default: params.strategy = MPNG_STRATEGY_DEFAULT
        case .filtered: params.strategy = MPNG_STRATEGY_FILTERED
        case .rle: params.strategy = MPNG_STRATEGY_RLE
        case .huffmanOnly: params.strategy = MPNG_STRATEGY_HUFFMAN_ONLY
        }
        params.zlib_level = Int32(min(9, max(0, compression.level)))
    }

    private static func run(_ params: inout mpng_encode_params) -> Result<[UInt8], PNGError> {
        var buffer = mpng_buffer()
        defer { mpng_buffer_free(&buffer) }
        let status = mpng_encode(&params, &buffer)
        guard status == MPNG_OK else {
            let message = withUnsafeBytes(of: buffer.message) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            return .failure(PNGError(status == MPNG_NO_MEMORY ? .outOfMemory : .unencodable, message))
        }
        return .success(Array(UnsafeBufferPointer(start: buffer.data, count: buffer.size)))
    }
}
