extension Image {
    /// Converts a Cairo `CAIRO_FORMAT_ARGB32` buffer: each pixel one native-endian 32-bit word
    /// 0xAARRGGBB, colour premultiplied by alpha, rows `stride` bytes apart. Colours are
    /// un-premultiplied with rounding, `c * 255 / a` to the nearest integer (the inverse Cairo
    /// itself uses when it writes PNGs); alpha 0 gives transparent black.
    ///
    /// The renderer calls this once per metatile (2304 x 2304), so the loop avoids per-pixel
    /// division: opaque and transparent pixels take a shortcut and the rest use a 64 KiB table.
    public init(cairoARGB32 data: UnsafeRawBufferPointer, width: Int, height: Int, stride: Int) throws(RasterError) {
        guard width >= 0, height >= 0, width < Int(Int32.max), height < Int(Int32.max) else {
            throw .invalidSize(width: width, height: height)
        }
        guard stride >= width * 4, stride % 4 == 0, height == 0 || data.count >= (height - 1) * stride + width * 4
        else {
            throw .bufferTooSmall(width: width, height: height, stride: stride, byteCount: data.count)
        }
        let count = width * height
        let bytes = [UInt8](unsafeUninitializedCapacity: count * 4) { buffer, initialized in
            initialized = count * 4
            guard count > 0, let source = data.baseAddress, let target = buffer.baseAddress else { return }
            unpremultiplyTable.withUnsafeBufferPointer { table in
                // Cairo's rows start on 4-byte boundaries (its stride is a multiple of 4), so
                // both sides can be read and written as whole 32-bit words.
                let destination = UnsafeMutableRawPointer(target).assumingMemoryBound(to: UInt32.self)
                for y in 0..<height {
                    let row = (source + y * stride).assumingMemoryBound(to: UInt32.self)
                    let out = destination + y * width
                    var x = 0
                    while x < width {
                        #if _endian(little)
                            // Two opaque pixels at once as one 64-bit word (most of a map is
                            // opaque): no un-premultiplying, only red and blue swapped.
                            if x + 2 <= width {
                                let pair = UnsafeRawPointer(row + x).loadUnaligned(as: UInt64.self)
                                if pair & 0xFF00_0000_FF00_0000 == 0xFF00_0000_FF00_0000 {
                                    let swapped =
                                        (pair >> 16) & 0x0000_00FF_0000_00FF | pair & 0xFF00_FF00_FF00_FF00
                                        | (pair & 0x0000_00FF_0000_00FF) << 16
                                    UnsafeMutableRawPointer(out + x).storeBytes(of: swapped, as: UInt64.self)
                                    x += 2
                                    continue
                                }
                            }
                        #endif
                        // Native endianness on both sides: Cairo's word is native, and the
                        // output word is built in RGBA memory order then stored little-endian.
                        let p = row[x]
                        let a = p >> 24
                        let word: UInt32
                        if a == 255 {
                            word = (p >> 16) & 0xFF | (p & 0xFF00) | (p & 0xFF) << 16 | 0xFF00_0000
                        } else if a == 0 {
                            word = 0
                        } else {
                            let base = Int(a) << 8
                            let r = UInt32(table[base | Int((p >> 16) & 0xFF)])
                            let g = UInt32(table[base | Int((p >> 8) & 0xFF)])
                            let b = UInt32(table[base | Int(p & 0xFF)])
                            word = r | g << 8 | b << 16 | a << 24
                        }
                        out[x] = word.littleEndian
                        x += 1
                    }
                }
            }
        }
        self.init(trustedWidth: width, height: height, pixels: bytes)
    }
}

/// `table[a << 8 | c]` = round(c * 255 / a), clamped to 255 for the invalid c > a.
/// Row a = 0 is never read (transparent pixels take the shortcut).
private let unpremultiplyTable: [UInt8] = {
    var table = [UInt8](repeating: 0, count: 256 * 256)
    for a in 1..<256 {
        for c in 0..<256 {
            table[a << 8 | c] = UInt8(min(255, (c * 255 + a / 2) / a))
        }
    }
    return table
}()
