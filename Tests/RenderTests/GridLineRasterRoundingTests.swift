import Testing

@testable import Render

/// The raster's integer conversions (`GridLineRaster.floor` and `round`) give what Swift's own
/// conversions give: the fill's coverages, and so every line pixel, depend on them.
@Suite struct GridLineRasterRoundingTests {
    /// Values where rounding turns: integers, halves, the doubles just beside them, both signs,
    /// and the largest magnitudes a fill meets (vertices are below 1e15 in 1/256 pixel).
    static var awkward: [Double] {
        var values: [Double] = [0, -0.0, 1e15, -1e15, 0.49999999999999994, -0.49999999999999994]
        for base in [0.0, 0.5, 1, 1.5, 2, 255.5, 256, 65_535.5, 65_536, 4_194_303.5, 1e14 + 0.5, 9.9e14] {
            for v in [base, base.nextUp, base.nextDown, -base, -base.nextUp, -base.nextDown] { values.append(v) }
        }
        return values
    }

    /// Random values of every size the fill uses: sub-pixel offsets to global vertices.
    static var random: [Double] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        return (0..<200_000).map { k in
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            let unit = Double(state >> 11) / Double(1 << 53)
            let scale = [1.0, 256, 65_536, 1e9, 1e14][k % 5]
            return (unit * 2 - 1) * scale
        }
    }

    /// The strips' and shallow cells' floor (an integer part) on the values they round:
    /// 0.5...65,536.5 and beyond, where it must be the floor `floor` gives.
    @Test func floorOfPositiveIsFloor() {
        let positive = (Self.awkward + Self.random).filter { $0 >= 0 && $0 < 1e15 }
        #expect(positive.count > 90_000)
        for v in positive {
            #expect(GridLineRaster.floorOfPositive(v) == GridLineRaster.floor(v), "floorOfPositive(\(v))")
        }
    }

    @Test func floorIsSwiftsFloor() {
        for v in Self.awkward + Self.random {
            #expect(GridLineRaster.floor(v) == Int64(v.rounded(.down)), "floor(\(v))")
        }
    }

    /// The rounding the fill used before: half away from zero, as `Int64(v ± 0.5)`.
    @Test func roundIsHalfAwayFromZero() {
        for v in Self.awkward + Self.random {
            #expect(GridLineRaster.round(v) == Int64(v < 0 ? v - 0.5 : v + 0.5), "round(\(v))")
        }
    }

    /// The level table and the coverage byte give, for every coverage, what the blend worked
    /// out before.
    @Test func coverageLevelsAreTheFormula() {
        for coverage in 0...65_536 {
            let byte = UInt32((coverage * 255 + 32_768) >> 16)
            let looked = GridLineRaster.coverageLevels[GridLineRaster.coverageByte(Int64(coverage))]
            #expect(UInt32(looked) == GridCoverageLevels.level(byte))
        }
    }
}

extension GridLineRasterRoundingTests {
    /// The sprite quantizer's rounding is Swift's `rounded()` over what it rounds: sixteenths
    /// of coverage (0 to 16) and channel values (0 to 255), halves and their neighbours.
    @Test func spriteRoundingIsSwifts() {
        var values: [Double] = [0, -0.0, 0.49999999999999994, 16, 255]
        for n in 0...512 {
            let half = Double(n) / 2
            values += [half, half.nextUp, half.nextDown].filter { $0 >= 0 }
        }
        values += Self.random.map { Swift.abs($0).truncatingRemainder(dividingBy: 256) }
        for v in values {
            // Equal as numbers: -0.0 comes back as 0.0, which makes the same bytes.
            #expect(GridCoverageLevels.rounded(v) == v.rounded(), "rounded(\(v))")
        }
    }
}
