import Foundation
import Geodesy
import MapModel
import Render

/// A scale bar in round ground units: `count` segments of `segment` metres right of the
/// zero, alternately black and white, and one more to its left cut into `subdivisions`
/// for reading smaller distances, as on topographic sheets.
public struct ScaleBar: Sendable, Equatable {
    /// What a bar counts in: metres (kilometres from 1 km segments), statute miles or
    /// nautical miles, as printed sheets give all three.
    public enum Unit: Sendable, Equatable, CaseIterable {
        case metric, statuteMiles, nauticalMiles

        /// Metres in one counting unit (the international mile and nautical mile).
        var metres: Double {
            switch self {
            case .metric: return 1
            case .statuteMiles: return 1609.344
            case .nauticalMiles: return 1852
            }
        }
    }

    public let unit: Unit
    /// One segment, in metres of grid distance.
    public let segment: Double
    public let count: Int
    public let subdivisions: Int
    /// One segment's length on paper, in millimetres.
    public let segmentLength: Double

    /// The bar for `scale` that fits in `width` millimetres: the longest round segment (1, 2
    /// or 5 times a power of ten metres, or of miles) of which four fit (three and the
    /// subdivided one), then as many as fit, up to five.
    public init(scale: Double, width: Double, unit: Unit = .metric) {
        let mmPerMetre = 1000 / scale
        var segment = 0.001 * unit.metres
        for power in -3...9 {
            for m in [1.0, 2, 5] {
                let candidate = m * pow(10, Double(power)) * unit.metres
                if candidate * mmPerMetre * 4 <= width { segment = candidate }
            }
        }
        self.unit = unit
        self.segment = segment
        segmentLength = segment * mmPerMetre
        count = max(1, min(5, Int((width / segmentLength + 1e-9).rounded(.down)) - 1))
        let counted = segment / unit.metres
        let leading = (counted / pow(10, floor(log10(counted) + 1e-9))).rounded()
        switch leading {
        case 2: subdivisions = 4
        case 5: subdivisions = 5
        default: subdivisions = segmentLength / 10 >= 0.8 ? 10 : 5
        }
    }

    /// Whether the bar counts in kilometres (segments of 1 km or more) or metres.
    public var inKilometres: Bool { unit == .metric && segment >= 1000 }

    /// The name of what the labels count.
    public var unitName: String {
        switch unit {
        case .metric: return inKilometres ? "kilometres" : "metres"
        case .statuteMiles: return "statute miles"
        case .nauticalMiles: return "nautical miles"
        }
    }

    /// The whole bar's length on paper, the subdivided segment included.
    public var length: Double { Double(count + 1) * segmentLength }

    /// The label at the boundary `index` segments right of the zero (negative: left of it).
    public func label(at index: Int) -> String {
        let metres = abs(Double(index)) * segment
        // Miles are counted in whole multiples of a round step: rounding drops the ulps
        // that dividing by 1609.344 leaves.
        let counted = inKilometres ? metres / 1000 : (metres / unit.metres * 1e6).rounded() / 1e6
        return ScaleText.number(counted)
    }

    static let font = PageFont(size: 6.5)
    static let barHeight = 1.6
    static let outline = PageStroke(color: .black, width: 0.15)

    /// The bar with its zero at `zero` (the bar's top edge); labels below it, the unit's name
    /// after it (at `unitX` when given, so the names of stacked bars line up).
    func items(zeroAt zero: PlanePoint, unitX: Double? = nil) -> [PageItem] {
        var black: [PagePolyline] = []
        var all: [PagePolyline] = []
        func box(_ x0: Double, _ x1: Double) -> PagePolyline {
            PagePolyline(
                Rect(minX: x0, minY: zero.y, maxX: x1, maxY: zero.y + ScaleBar.barHeight).corners, closed: true)
        }
        for i in 0..<count {
            let b = box(zero.x + Double(i) * segmentLength, zero.x + Double(i + 1) * segmentLength)
            all.append(b)
            if i % 2 == 0 { black.append(b) }
        }
        let sub = segmentLength / Double(subdivisions)
        for j in 0..<subdivisions {
            // Counted from the zero leftwards, so the part next to the zero is black too.
            let b = box(zero.x - Double(j + 1) * sub, zero.x - Double(j) * sub)
            all.append(b)
            if j % 2 == 1 { black.append(b) }
        }
        var items: [PageItem] = [
            .path(black, stroke: nil, fill: .black), .path(all, stroke: ScaleBar.outline, fill: nil),
        ]
        let labelY = zero.y + ScaleBar.barHeight + 0.8
        for i in -1...count {
            let x = zero.x + Double(i) * segmentLength
            items.append(
                .text(
                    PageText(
                        label(at: i), font: ScaleBar.font, at: PlanePoint(x: x, y: labelY),
                        anchor: PageTextAnchor(.center, .top))))
        }
        items.append(
            .text(
                PageText(
                    unitName, font: ScaleBar.font,
                    at: PlanePoint(
                        x: unitX ?? zero.x + Double(count) * segmentLength + 3.5, y: zero.y + ScaleBar.barHeight / 2),
                    anchor: PageTextAnchor(.left, .middle))))
        return items
    }
}
