import TestSupport
import Testing

@testable import Raster

/// The census notes 8-bit palette indices as a PNG's image data (each row's filter byte 0,
/// then its indices), and the encoder compresses them where they lie: the layout, for packed
/// and strided pixels, and the same PNG as from the indices copied row by row.
@Suite struct CensusIndexRowsTests {
    /// Each row's filter byte 0, then each pixel's index in `colours`.
    static func expectedRows(_ image: Image, colours: [UInt32]) -> [UInt8] {
        var rows: [UInt8] = []
        image.withUnsafeBytes { bytes in
            for y in 0..<image.height {
                rows.append(0)
                for x in 0..<image.width {
                    let word = bytes.loadUnaligned(fromByteOffset: (y * image.width + x) * 4, as: UInt32.self)
                    rows.append(UInt8(colours.firstIndex(of: UInt32(littleEndian: word))!))
                }
            }
        }
        return rows
    }

    static func images() throws -> [Image] {
        var images = try PNGStridedRowsTests.images()
        var random = Xorshift(state: 41)
        let colours = (0..<40).map { RGBA(UInt8($0 * 6), UInt8(255 - $0), 30) }
        for (width, height) in [(1, 1), (1, 7), (7, 3), (8, 8), (9, 5), (31, 17), (256, 12)] {
            // Rows that repeat the row above, rows with a few changed pixels, and new rows.
            var image = Image(width: width, height: height, fill: colours[0])
            for y in 0..<height {
                switch random.next() % 3 {
                case 0 where y > 0:
                    for x in 0..<width { image[x, y] = image[x, y - 1] }
                case 1 where y > 0:
                    for x in 0..<width { image[x, y] = image[x, y - 1] }
                    image[Int(random.next() % UInt64(width)), y] = colours[Int(random.next() % 40)]
                default:
                    for x in 0..<width { image[x, y] = colours[Int(random.next() % 40)] }
                }
            }
            images.append(image)
        }
        var translucent = Image(width: 9, height: 4, fill: RGBA(10, 20, 30))
        translucent[3, 2] = RGBA(10, 20, 30, 128)
        images.append(translucent)
        return images
    }

    @Test func indexRowsAreTheImageData() throws {
        var laidOut = 0
        for (index, image) in try Self.images().enumerated() {
            try image.withUnsafeBytes { bytes in
                let census = ColourCensus(bytes, width: image.width)
                guard census.fitsPalette, census.translucentCount == 0 else {
                    #expect(census.indexRows == nil, "image \(index)")
                    return
                }
                let rows = try #require(census.indexRows, "image \(index)")
                #expect(Array(rows) == Self.expectedRows(image, colours: census.colours), "image \(index)")
                laidOut += 1
                // Read in place from a wider block, as a tile from its metatile.
                let (block, offset, stride) = PNGStridedRowsTests.embedded(image, left: 3, extra: 11, seed: 7)
                block.withUnsafeBytes { raw in
                    let strided = ColourCensus(
                        rows: UnsafeRawBufferPointer(rebasing: raw[offset...]), width: image.width,
                        height: image.height, stride: stride)
                    #expect(strided.indexRows.map(Array.init) == Array(rows), "image \(index), strided")
                }
            }
        }
        #expect(laidOut >= 10)
    }

    /// The PNG compressed from the noted rows is the PNG compressed from a copy of them, by the
    /// runs and by libdeflate.
    @Test func theNotedRowsEncodeAsTheirCopy() throws {
        for (index, image) in try Self.images().enumerated() {
            try image.withUnsafeBytes { bytes in
                let census = ColourCensus(bytes, width: image.width)
                guard let rows = census.indexRows else { return }
                let writer = PNGDeflateWriter(
                    width: image.width, height: image.height, colourType: 3, bitDepth: 8, rowBytes: image.width,
                    palette: census.colours.flatMap {
                        [UInt8($0 & 0xFF), UInt8($0 >> 8 & 0xFF), UInt8($0 >> 16 & 0xFF)]
                    })
                for (level, runs) in [(1, true), (1, false), (6, false)] {
                    let inPlace = writer.encode(level: level, runs: runs, imageData: rows)
                    let copied = writer.encode(level: level, runs: runs) { target, stride in
                        census.writeIndices(
                            of: bytes, width: image.width, height: image.height, bitDepth: 8, into: target,
                            rowBytes: image.width, stride: stride)
                    }
                    let (inPlaceBytes, copiedBytes) = (try inPlace.get(), try copied.get())
                    #expect(inPlaceBytes == copiedBytes, "image \(index), level \(level), runs \(runs)")
                }
            }
        }
    }
}
