import Foundation
import Raster
import Testing

/// Image decoders independent of our code: Debian's `dwebp` (webp) and `djpeg`
/// (libjpeg-turbo-progs). They write Netpbm, which is parsed here.
public enum ReferenceImageDecoder {
    /// Decodes WebP bytes with `dwebp -pam` (RGBA).
    public static func dwebp(_ bytes: [UInt8]) throws -> Image {
        try decode(bytes, suffix: "webp") { input, output in ("dwebp", [input, "-pam", "-o", output]) }
    }

    /// Decodes JPEG bytes with `djpeg -pnm` (RGB, returned with alpha 255).
    public static func djpeg(_ bytes: [UInt8]) throws -> Image {
        try decode(bytes, suffix: "jpg") { input, output in ("djpeg", ["-pnm", "-outfile", output, input]) }
    }

    private static func decode(
        _ bytes: [UInt8], suffix: String, command: (String, String) -> (String, [String])
    ) throws -> Image {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let input = folder.path + "/image." + suffix
        let output = folder.path + "/image.pnm"
        try FileIO.writeAtomically(bytes, toPath: input)
        let (program, arguments) = command(input, output)
        _ = try Tool.run(program, arguments).succeeded()
        return try parseNetpbm(FileIO.readBytes(atPath: output))
    }

    /// P6 (binary RGB, maxval 255) or P7 (PAM) with 3 or 4 channels of depth 255.
    public static func parseNetpbm(_ bytes: [UInt8]) throws -> Image {
        var offset = 0
        func token() -> String {
            while offset < bytes.count {
                if bytes[offset] == UInt8(ascii: "#") {
                    while offset < bytes.count, bytes[offset] != 10 { offset += 1 }
                } else if bytes[offset] == 32 || bytes[offset] == 10 || bytes[offset] == 9 || bytes[offset] == 13 {
                    offset += 1
                } else {
                    break
                }
            }
            let start = offset
            while offset < bytes.count, ![32, 10, 9, 13].contains(bytes[offset]) { offset += 1 }
            return String(decoding: bytes[start..<offset], as: UTF8.self)
        }
        var width = 0
        var height = 0
        var channels = 0
        var maxval = 0
        switch token() {
        case "P6":
            width = Int(token()) ?? 0
            height = Int(token()) ?? 0
            maxval = Int(token()) ?? 0
            channels = 3
        case "P7":
            while case let key = token(), key != "ENDHDR", !key.isEmpty {
                switch key {
                case "WIDTH": width = Int(token()) ?? 0
                case "HEIGHT": height = Int(token()) ?? 0
                case "DEPTH": channels = Int(token()) ?? 0
                case "MAXVAL": maxval = Int(token()) ?? 0
                default: _ = token()
                }
            }
        default:
            throw ToolFailure(netpbm: "not a P6 or P7 Netpbm file")
        }
        offset += 1  // the single whitespace byte that ends the header
        guard maxval == 255, channels == 3 || channels == 4, width > 0, height > 0,
            bytes.count - offset == width * height * channels
        else {
            throw ToolFailure(
                netpbm: "unexpected Netpbm: \(width)x\(height), \(channels) channels, maxval \(maxval)")
        }
        if channels == 4 { return try Image(width: width, height: height, pixels: Array(bytes[offset...])) }
        var rgba = [UInt8](repeating: 255, count: width * height * 4)
        for i in 0..<width * height {
            rgba[i * 4] = bytes[offset + i * 3]
            rgba[i * 4 + 1] = bytes[offset + i * 3 + 1]
            rgba[i * 4 + 2] = bytes[offset + i * 3 + 2]
        }
        return try Image(width: width, height: height, pixels: rgba)
    }
}

extension ToolFailure {
    init(netpbm problem: String) {
        description = "Netpbm output: " + problem
    }
}

/// Decodes PNG files with pypng (Fixtures/png/reference-decode.py), the independent
/// reference: one process for all files. Images come back in the order of `paths`.
public func referenceDecode(_ paths: [String]) throws -> [Image] {
    let run = try Tool.run("/usr/bin/python3", [Repository.fixture("png/reference-decode.py")] + paths).succeeded()
    let bytes = run.output
    var images: [Image] = []
    var offset = 0
    while offset < bytes.count {
        guard let newline = bytes[offset...].firstIndex(of: 10) else { break }
        let words = String(decoding: bytes[offset..<newline], as: UTF8.self).split(separator: " ")
        guard words.count == 2, let width = Int(words[0]), let height = Int(words[1]) else {
            throw ToolFailure(run, unusable: "wrote a bad header")
        }
        let start = newline + 1
        let end = start + width * height * 4
        guard end <= bytes.count else { throw ToolFailure(run, unusable: "stopped short") }
        images.append(try Image(width: width, height: height, pixels: Array(bytes[start..<end])))
        offset = end
    }
    guard images.count == paths.count else {
        throw ToolFailure(run, unusable: "returned \(images.count) images for \(paths.count) files")
    }
    return images
}

/// Decodes PNG bytes with the reference decoder through a temporary file.
public func referenceDecode(bytes: [UInt8]) throws -> Image {
    let folder = try TemporaryFolder.create()
    defer { TemporaryFolder.remove(folder) }
    let path = folder.appendingPathComponent("image.png").path
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return try referenceDecode([path])[0]
}

/// Decodes several PNGs' bytes with the reference decoder, through temporary files and one
/// process; images come back in the order of `pngs`.
public func referenceDecode(pngs: [[UInt8]]) throws -> [Image] {
    let folder = try TemporaryFolder.create()
    defer { TemporaryFolder.remove(folder) }
    var paths: [String] = []
    for (index, png) in pngs.enumerated() {
        let path = folder.appendingPathComponent("\(index).png").path
        try Data(png).write(to: URL(fileURLWithPath: path))
        paths.append(path)
    }
    return try referenceDecode(paths)
}
