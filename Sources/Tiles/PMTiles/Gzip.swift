import CDeflate

/// gzip through libdeflate, for PMTiles directories and metadata. The output has no file name
/// and a zero timestamp, so the same input always gives the same bytes.
final class GzipCompressor {
    private let compressor: OpaquePointer

    /// libdeflate's level 9: directories are small and written once; 10-12 cost far more time.
    init(level: Int32 = 9) {
        guard let compressor = libdeflate_alloc_compressor(level) else {
            fatalError("libdeflate could not allocate a compressor (out of memory)")
        }
        self.compressor = compressor
    }

    deinit { libdeflate_free_compressor(compressor) }

    func compress(_ bytes: [UInt8]) -> [UInt8] {
        let bound = libdeflate_gzip_compress_bound(compressor, bytes.count)
        return [UInt8](unsafeUninitializedCapacity: bound) { out, count in
            count = bytes.withUnsafeBytes { input in
                libdeflate_gzip_compress(compressor, input.baseAddress, input.count, out.baseAddress, bound)
            }
            // Within the bound libdeflate always succeeds; 0 would mean a libdeflate bug.
            precondition(count > 0, "libdeflate_gzip_compress failed within its own bound")
        }
    }
}

final class GzipDecompressor {
    private let decompressor: OpaquePointer

    init() {
        guard let decompressor = libdeflate_alloc_decompressor() else {
            fatalError("libdeflate could not allocate a decompressor (out of memory)")
        }
        self.decompressor = decompressor
    }

    deinit { libdeflate_free_decompressor(decompressor) }

    /// The data of one gzip member. Its size comes from the member's trailer (ISIZE) and must
    /// be at most `limit`, so a corrupt or hostile stream cannot make us allocate without bound.
    func decompress(_ bytes: [UInt8], limit: Int) throws(DirectoryProblem) -> [UInt8] {
        guard bytes.count >= 18 else { throw DirectoryProblem("\(bytes.count) bytes are too short for gzip") }
        let size = (0..<4).reduce(0) { $0 | Int(bytes[bytes.count - 4 + $1]) << (8 * $1) }
        guard size <= limit else {
            throw DirectoryProblem("gzip data expands to \(size) bytes, more than the \(limit) accepted")
        }
        var produced = 0
        let output = [UInt8](unsafeUninitializedCapacity: max(size, 1)) { out, count in
            let result = bytes.withUnsafeBytes { input in
                libdeflate_gzip_decompress(
                    decompressor, input.baseAddress, input.count, out.baseAddress, size, &produced)
            }
            count = result == LIBDEFLATE_SUCCESS ? produced : 0
            if result != LIBDEFLATE_SUCCESS { produced = -1 }
        }
        guard produced == size else { throw DirectoryProblem("not valid gzip data") }
        return output
    }
}
