import CWebP

/// WebP encoding through libwebp.
public enum WebP {
    /// How the pixels are stored.
    public enum Compression: Sendable, Hashable {
        /// Every pixel decodes to exactly the RGBA it had, transparent ones included.
        case lossless
        /// VP8 at `quality` (0 smallest to 100 best); the alpha channel stays lossless.
        case lossy(quality: Int)
    }

    /// The largest width or height WebP can store.
    public static let maxSide = Int(WEBP_MAX_DIMENSION)

    /// Lossless effort, libwebp's preset 0-9. Measured on 200 zoom-6 tiles of the world map
    /// (WebP.encode in one process, two runs): level 4 made 95.8 kB in about half the time
    /// of 5 and 6 (which made the same size or more); 1 was twice as fast as 4 but 14% larger,
    /// 0 four times larger. The PNG tiles were 203 kB.
    static let losslessLevel: Int32 = 4

    /// Encodes `image`. Encoding is single-threaded and deterministic: the same pixels and
    /// compression give the same bytes.
    public static func encode(_ image: Image, compression: Compression) throws(ImageEncodingError) -> [UInt8] {
        func failure(_ detail: String) -> ImageEncodingError {
            ImageEncodingError(format: "WebP", size: image.size, detail: detail)
        }
        guard image.width > 0, image.height > 0 else { throw failure("it has no pixels") }
        guard image.width <= maxSide, image.height <= maxSide else {
            throw failure("WebP images are at most \(maxSide) pixels a side")
        }
        var config = WebPConfig()
        switch compression {
        case .lossless:
            guard WebPConfigInit(&config) != 0, WebPConfigLosslessPreset(&config, losslessLevel) != 0 else {
                throw failure("libwebp rejected its own default settings (a header/library version mismatch)")
            }
            config.exact = 1  // keep the RGB of transparent pixels: lossless means every byte
        case .lossy(let quality):
            guard (0...100).contains(quality) else { throw failure("quality \(quality) is outside 0 to 100") }
            guard WebPConfigPreset(&config, WEBP_PRESET_DEFAULT, Float(quality)) != 0 else {
                throw failure("libwebp rejected its own default settings (a header/library version mismatch)")
            }
        }
        config.thread_level = 0
        var picture = WebPPicture()
        guard WebPPictureInit(&picture) != 0 else { throw failure("libwebp version mismatch") }
        defer { WebPPictureFree(&picture) }
        picture.width = Int32(image.width)
        picture.height = Int32(image.height)
        picture.use_argb = 1
        let imported = image.withUnsafeBytes { raw in
            WebPPictureImportRGBA(
                &picture, raw.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(image.bytesPerRow))
        }
        guard imported != 0 else { throw failure("out of memory importing the pixels") }

        var writer = WebPMemoryWriter()
        WebPMemoryWriterInit(&writer)
        defer { WebPMemoryWriterClear(&writer) }
        let encoded = withUnsafeMutablePointer(to: &writer) { pointer in
            picture.writer = WebPMemoryWrite
            picture.custom_ptr = UnsafeMutableRawPointer(pointer)
            return WebPEncode(&config, &picture)
        }
        guard encoded != 0, let memory = writer.mem else {
            throw failure("libwebp error \(picture.error_code.rawValue)")
        }
        return Array(UnsafeBufferPointer(start: memory, count: writer.size))
    }
}
