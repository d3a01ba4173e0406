import Foundation

/// A sheet of paper: a named size in millimetres, portrait (width ≤ height) as named.
public struct Paper: Sendable, Equatable {
    /// As the user would write it: `A3`, `letter`, `420x297mm`.
    public var name: String
    public var width: Double
    public var height: Double

    public init(name: String, width: Double, height: Double) {
        self.name = name
        self.width = width
        self.height = height
    }

    /// ISO 216 A sizes and the North American sizes, portrait, in millimetres.
    public static let named: [Paper] = [
        Paper(name: "A4", width: 210, height: 297),
        Paper(name: "A3", width: 297, height: 420),
        Paper(name: "A2", width: 420, height: 594),
        Paper(name: "A1", width: 594, height: 841),
        Paper(name: "A0", width: 841, height: 1189),
        Paper(name: "letter", width: 215.9, height: 279.4),
        Paper(name: "legal", width: 215.9, height: 355.6),
        Paper(name: "tabloid", width: 279.4, height: 431.8),
    ]

    /// Whether this is one of the named sizes (whose orientation the user did not fix).
    public var isNamed: Bool { Paper.named.contains { $0.name == name } }

    /// The largest custom paper accepted: 5 m a side covers every printer and plotter.
    static let maxSide = 5000.0

    /// A named size (any letter case) or `WIDTHxHEIGHTmm` (the `mm` may be left out).
    /// A custom size keeps the orientation it is written in unless `--orientation` says otherwise.
    public static func parse(_ text: String) throws(SheetError) -> Paper {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let paper = named.first(where: { $0.name.lowercased() == trimmed.lowercased() }) { return paper }
        var body = Substring(trimmed.lowercased())
        if body.hasSuffix("mm") { body = body.dropLast(2) }
        let parts = body.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]),
            w.isFinite, h.isFinite, w > 0, h > 0, w <= maxSide, h <= maxSide
        else {
            throw .unknownPaper(text)
        }
        return Paper(name: "\(Millimetres.text(w))x\(Millimetres.text(h))mm", width: w, height: h)
    }

    public func oriented(_ orientation: Orientation?) -> Paper {
        switch orientation {
        case nil: return self
        case .portrait?: return Paper(name: name, width: min(width, height), height: max(width, height))
        case .landscape?: return Paper(name: name, width: max(width, height), height: min(width, height))
        }
    }

    /// How the paper is described on messages: `A3 landscape (420 x 297 mm)`.
    public var description: String {
        let orientation = width > height ? " landscape" : (width < height ? " portrait" : "")
        return "\(name)\(orientation) (\(Millimetres.text(width)) x \(Millimetres.text(height)) mm)"
    }
}

public enum Orientation: String, Sendable, CaseIterable {
    case portrait, landscape

    public static func parse(_ text: String) throws(SheetError) -> Orientation {
        guard let o = Orientation(rawValue: text.lowercased()) else { throw .badOrientation(text) }
        return o
    }
}
