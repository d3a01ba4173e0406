import CTurboJPEG

/// JPEG encoding through libturbojpeg.
///
/// JPEG has no alpha channel: each pixel is composited over an opaque `background` (white
/// unless the caller gives the map's background) before encoding, so translucent edges blend
/// into that colour instead of turning black.
public enum JPEG {
    /// Encodes `image` at `quality` (1 worst to 100 best) with 4:2:0 chroma subsampling (the
    /// usual choice for web tiles) and the accurate DCT, which is deterministic across machines.
    public static func encode(_ image: Image, quality: Int, background: RGBA = .white) throws(ImageEncodingError)
        -> [UInt8]
    {
        func failure(_ detail: String) -> ImageEncodingError {
            ImageEncodingError(format: "JPEG", size: image.size, detail: detail)
        }
        guard image.width > 0, image.height > 0 else { throw failure("it has no pixels") }
        guard image.width <= maxSide, image.height <= maxSide else {
            throw failure("JPEG images are at most \(maxSide) pixels a side")
        }
        guard (1...100).contains(quality) else { throw failure("quality \(quality) is outside 1 to 100") }
        let rgb = compositedRGB(image, over: background)
        let compressor = try TurboJPEGCompressor(failure: failure)
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        defer { if let output { tjFree(output) } }
        let status = rgb.withUnsafeBufferPointer { pixels in
            tjCompress2(
                compressor.handle, pixels.baseAddress, Int32(image.width), Int32(image.width * 3),
                Int32(image.height), Int32(TJPF_RGB.rawValue), &output, &size, Int32(TJSAMP_420.rawValue),
                Int32(quality), TJFLAG_ACCURATEDCT)
        }
        guard status == 0, let output else { throw failure(compressor.lastError) }
        return Array(UnsafeBufferPointer(start: output, count: Int(size)))
    }

    /// JPEG's limit: 65,535 pixels a side.
    public static let maxSide = 65_535

    /// RGB rows of `image` blended over `background` (whose own alpha is ignored): each channel
    /// is `(c * a + b * (255 - a)) / 255`, rounded to nearest.
    static func compositedRGB(_ image: Image, over background: RGBA) -> [UInt8] {
        let count = image.pixelCount
        let back = [UInt32(background.r), UInt32(background.g), UInt32(background.b)]
        return image.withUnsafeBytes { raw in
            [UInt8](unsafeUninitializedCapacity: count * 3) { buffer, initialized in
                for i in 0..<count {
                    let alpha = UInt32(raw[i &* 4 &+ 3])
                    for channel in 0..<3 {
                        let value = UInt32(raw[i &* 4 &+ channel]) &* alpha &+ back[channel] &* (255 &- alpha)
                        buffer[i &* 3 &+ channel] = UInt8((value &+ 127) / 255)
                    }
                }
                initialized = count * 3
            }
        }
    }
}

/// One libturbojpeg compressor; one per encode, as a handle may not be shared between threads.
private final class TurboJPEGCompressor {
    let handle: tjhandle

    init(failure: (String) -> ImageEncodingError) throws(ImageEncodingError) {
        guard let handle = tjInitCompress() else { throw failure("libturbojpeg could not start a compressor") }
        self.handle = handle
    }

    var lastError: String { String(cString: tjGetErrorStr2(handle)) }

    deinit { tjDestroy(handle) }
}
