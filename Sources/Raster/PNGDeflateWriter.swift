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
        guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max) else {
            return .failure(PNGError(.unencodable, "a \(width)x\(height) image cannot be a PNG"))
        }
        let stride = rowBytes + 1
        let (rawCount, overflow) = stride.multipliedReportingOverflow(by: height)
        guard !overflow else { return .failure(PNGError(.unencodable, "image too large for PNG")) }
        let encoded = Deflater.with(level: level) { deflater -> [UInt8]? in
            let rows = deflater.inputBuffer(count: rawCount).baseAddress!.assumingMemoryBound(to: UInt8.self)
            for y in 0..<height { rows[y &* stride] = subFilter ? 1 : 0 }  // filter type 1 sub, 0 none
            fillRows(rows + 1, stride)
            if subFilter { applySub(rows + 1, stride: stride) }
            if runs, let stream = deflater.zlibRunsOfInput(count: rawCount, row: stride, pixel: bytesPerPixel) {
                return assemble(imageData: stream)
            }
            guard let stream = deflater.zlibCompressInput(count: rawCount) else { return nil }
            return assemble(imageData: stream)
        }
        guard let encoded = encoded ?? nil else {
            return .failure(PNGError(.outOfMemory, "compressing the image data"))
        }
        return .success(encoded)
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

    private func assemble(imageData: UnsafeRawBufferPointer) -> [UInt8] {
        var png: [UInt8] = []
        let chunks = 3 + (palette.isEmpty ? 0 : 1) + (alpha.isEmpty ? 0 : 1) + (pixelsPerMetre > 0 ? 1 : 0)
        png.reserveCapacity(8 + 12 * chunks + 13 + palette.count + alpha.count + 9 + imageData.count)
        png += Self.signature
        var header: [UInt8] = []
        Self.appendBigEndian(UInt32(width), to: &header)
        Self.appendBigEndian(UInt32(height), to: &header)
        header += [bitDepth, colourType, 0, 0, 0]  // deflate, adaptive filtering method, not interlaced
        Self.appendChunk("IHDR", header, to: &png)
        if !palette.isEmpty { Self.appendChunk("PLTE", palette, to: &png) }
        if !alpha.isEmpty { Self.appendChunk("tRNS", alpha, to: &png) }
        if pixelsPerMetre > 0 {
            var phys: [UInt8] = []
            Self.appendBigEndian(pixelsPerMetre, to: &phys)
            Self.appendBigEndian(pixelsPerMetre, to: &phys)
            phys.append(1)  // unit: metre
            Self.appendChunk("pHYs", phys, to: &png)
        }
        // A chunk holds less than 2^31 bytes; a very large image's data goes in several.
        var offset = 0
        repeat {
            let end = min(imageData.count, offset + Self.maxIDAT)
            Self.appendChunk("IDAT", UnsafeRawBufferPointer(rebasing: imageData[offset..<end]), to: &png)
            offset = end
        } while offset < imageData.count
        Self.appendChunk("IEND", [], to: &png)
        return png
    }

    private static func appendChunk(_ type: StaticString, _ data: [UInt8], to png: inout [UInt8]) {
        data.withUnsafeBytes { appendChunk(type, $0, to: &png) }
    }

    /// Length, type, data, and the CRC of type and data.
    private static func appendChunk(_ type: StaticString, _ data: UnsafeRawBufferPointer, to png: inout [UInt8]) {
        precondition(type.utf8CodeUnitCount == 4 && data.count <= Int(Int32.max))
        appendBigEndian(UInt32(data.count), to: &png)
        let typeBytes = UnsafeRawBufferPointer(start: type.utf8Start, count: 4)
        png.append(contentsOf: typeBytes)
        png.append(contentsOf: data)
        appendBigEndian(Deflater.crc32(Deflater.crc32(0, typeBytes), data), to: &png)
    }

    private static func appendBigEndian(_ value: UInt32, to bytes: inout [UInt8]) {
        bytes += [
            UInt8(value >> 24), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8),
            UInt8(truncatingIfNeeded: value),
        ]
    }
}
