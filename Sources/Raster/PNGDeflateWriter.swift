/// A PNG assembled here around image data that libdeflate compresses: the signature, IHDR,
/// PLTE and tRNS (palette images), pHYs (when a resolution is set), one IDAT and IEND, the
/// chunks libpng writes for the same image. Every row has the same filter: none (the
/// measured choice for map tiles) or sub (for imagery, `PNGEncodingOptions.imagery`); other
/// filters go through libpng (`PNGCompression.usesLibdeflate`).
struct PNGDeflateWriter {
    var width: Int
    var height: Int
    /// PNG colour type: 2 RGB, 3 palette, 6 RGBA.
    var colourType: UInt8
    var bitDepth: UInt8
    /// Bytes of one row's samples, without the filter byte.
    var rowBytes: Int
    /// RGB triplets (palette images).
    var palette: [UInt8] = []
    /// Alphas of the first palette entries (tRNS); empty when every entry is opaque.
    var alpha: [UInt8] = []
    /// pHYs for both axes; 0 writes no pHYs chunk.
    var pixelsPerMetre: UInt32 = 0
    /// Sub (each byte minus the byte of the pixel to its left) instead of none on every row.
    var subFilter = false

    private static let maxIDAT = 1 << 30
    private static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Encodes at libdeflate `level`, or by `RunDeflate` when `runs` unless it gives up.
    /// `fillRows(first, stride)` writes each row's `rowBytes` sample bytes, row y at
    /// `first + y * stride`.
    func encode(level: Int, runs: Bool = false, fillRows: (UnsafeMutablePointer<UInt8>, Int) -> Void) -> Result<
        [UInt8], PNGError
    > {
        let rawCount: Int
        switch imageDataCount() {
        case .success(let count): rawCount = count
        case .failure(let error): return .failure(error)
        }
        let stride = rowBytes + 1
        let encoded = Deflater.with(level: level) { deflater -> [UInt8]? in
            let input = deflater.inputBuffer(count: rawCount)
            let rows = input.baseAddress!.assumingMemoryBound(to: UInt8.self)
            for y in 0..<height { rows[y &* stride] = subFilter ? 1 : 0 }  // filter type 1 sub, 0 none
            fillRows(rows + 1, stride)
            if subFilter { applySub(rows + 1, stride: stride) }
            return compress(UnsafeRawBufferPointer(input), with: deflater, runs: runs)
        }
        guard let encoded = encoded ?? nil else {
            return .failure(PNGError(.outOfMemory, "compressing the image data"))
        }
        return .success(encoded)
    }

    /// Encodes image data already laid out and filtered (`height` rows of a filter byte and
    /// `rowBytes` bytes, as `ColourCensus.indexRows` holds 8-bit palette indices): compressed
    /// where it lies, not copied.
    func encode(level: Int, runs: Bool = false, imageData: UnsafeRawBufferPointer) -> Result<[UInt8], PNGError> {
        switch imageDataCount() {
        case .success(let count): precondition(imageData.count == count, "image data of another size")
        case .failure(let error): return .failure(error)
        }
        let encoded = Deflater.with(level: level) { compress(imageData, with: $0, runs: runs) }
        guard let encoded = encoded ?? nil else {
            return .failure(PNGError(.outOfMemory, "compressing the image data"))
        }
        return .success(encoded)
    }

    /// The bytes of the image data: `height` rows of a filter byte and `rowBytes` bytes.
    private func imageDataCount() -> Result<Int, PNGError> {
        guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max) else {
            return .failure(PNGError(.unencodable, "a \(width)x\(height) image cannot be a PNG"))
        }
        let (count, overflow) = (rowBytes + 1).multipliedReportingOverflow(by: height)
        guard !overflow else { return .failure(PNGError(.unencodable, "image too large for PNG")) }
        return .success(count)
    }

    /// The PNG of image data `rows`, compressed by `RunDeflate` when `runs` unless it gives
    /// up, else by `deflater`; nil when out of memory.
    private func compress(_ rows: UnsafeRawBufferPointer, with deflater: Deflater, runs: Bool) -> [UInt8]? {
        if runs, let stream = deflater.zlibRuns(of: rows, row: rowBytes + 1, pixel: bytesPerPixel) {
            return assemble(imageData: stream)
        }
        guard let stream = deflater.zlibCompress(rows) else { return nil }
        return assemble(imageData: stream)
    }

    /// Replaces each row's bytes by the sub filter's differences, from the right so that
    /// every byte is taken from the row as filled (PNG's "bpp": whole bytes per pixel, at
    /// least 1).
    private func applySub(_ first: UnsafeMutablePointer<UInt8>, stride: Int) {
        let bpp = bytesPerPixel
        guard rowBytes > bpp else { return }
        for y in 0..<height {
            let row = first + y &* stride
            var i = rowBytes &- 1
            while i >= bpp {
                row[i] &-= row[i &- bpp]
                i &-= 1
            }
        }
    }

    /// PNG's "bpp": whole bytes per pixel, at least 1 (palette indices packed below 8 bits
    /// count as one byte).
    private var bytesPerPixel: Int {
        let channels: Int
        switch colourType {
        case 2: channels = 3
        case 6: channels = 4
        case 4: channels = 2
        default: channels = 1
        }
        return max(1, channels * Int(bitDepth) / 8)
    }

    /// The PNG around `imageData`, written into one array of its exact size: appending
    /// chunk by chunk to arrays (with a small array for every big-endian number) cost some
    /// 9,000 instructions a tile, about as much as a flat tile's CRCs and copies.
    private func assemble(imageData: UnsafeRawBufferPointer) -> [UInt8] {
        let idatCount = max(1, (imageData.count + Self.maxIDAT - 1) / Self.maxIDAT)
        let total =
            Self.signature.count + (12 + 13) + (palette.isEmpty ? 0 : 12 + palette.count)
            + (alpha.isEmpty ? 0 : 12 + alpha.count) + (pixelsPerMetre > 0 ? 12 + 9 : 0) + 12 * idatCount
            + imageData.count + 12
        return [UInt8](unsafeUninitializedCapacity: total) { buffer, initialized in
            var out = ChunkWriter(start: UnsafeMutableRawPointer(buffer.baseAddress!))
            Self.signature.withUnsafeBytes { out.append($0) }
            out.chunk("IHDR") { out in
                out.appendBigEndian(UInt32(width))
                out.appendBigEndian(UInt32(height))
                out.append(byte: bitDepth)
                out.append(byte: colourType)
                // Deflate, adaptive filtering method, not interlaced.
                for _ in 0..<3 { out.append(byte: 0) }
            }
            if !palette.isEmpty { out.chunk("PLTE") { out in palette.withUnsafeBytes { out.append($0) } } }
            if !alpha.isEmpty { out.chunk("tRNS") { out in alpha.withUnsafeBytes { out.append($0) } } }
            if pixelsPerMetre > 0 {
                out.chunk("pHYs") { out in
                    out.appendBigEndian(pixelsPerMetre)
                    out.appendBigEndian(pixelsPerMetre)
                    out.append(byte: 1)  // unit: metre
                }
            }
            // A chunk holds less than 2^31 bytes; a very large image's data goes in several.
            var offset = 0
            repeat {
                let end = min(imageData.count, offset + Self.maxIDAT)
                out.chunk("IDAT") { out in out.append(UnsafeRawBufferPointer(rebasing: imageData[offset..<end])) }
                offset = end
            } while offset < imageData.count
            out.chunk("IEND") { _ in }
            precondition(out.count == total, "the PNG's size was worked out wrong")
            initialized = total
        }
    }

    /// Writes bytes one after the other into memory known to be large enough.
    private struct ChunkWriter {
        let start: UnsafeMutableRawPointer
        var count = 0

        mutating func append(_ bytes: UnsafeRawBufferPointer) {
            guard let source = bytes.baseAddress, bytes.count > 0 else { return }
            (start + count).copyMemory(from: source, byteCount: bytes.count)
            count += bytes.count
        }

        mutating func append(byte: UInt8) {
            start.storeBytes(of: byte, toByteOffset: count, as: UInt8.self)
            count += 1
        }

        mutating func appendBigEndian(_ value: UInt32) {
            start.storeBytes(of: value.bigEndian, toByteOffset: count, as: UInt32.self)
            count += 4
        }

        /// Length, type, data (what `body` appends), and the CRC of type and data, which lie
        /// one after the other here.
        mutating func chunk(_ type: StaticString, _ body: (inout ChunkWriter) -> Void) {
            precondition(type.utf8CodeUnitCount == 4)
            let lengthAt = count
            count += 4
            append(UnsafeRawBufferPointer(start: type.utf8Start, count: 4))
            body(&self)
            let length = count - lengthAt - 8
            precondition(length <= Int(Int32.max))
            start.storeBytes(of: UInt32(length).bigEndian, toByteOffset: lengthAt, as: UInt32.self)
            appendBigEndian(Deflater.crc32(0, UnsafeRawBufferPointer(start: start + lengthAt + 4, count: length + 4)))
        }
    }
}
