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
    public static let maxSide = 5000.0

    /// The named size `name` (any letter case), or nil.
    public static func standard(named name: String) -> Paper? {
        named.first { $0.name.lowercased() == name.lowercased() }
    }

    /// A custom size in millimetres, named `420x297mm`; it keeps the orientation it is given
    /// in until `oriented` says otherwise.
    public static func custom(width: Double, height: Double) throws(SheetError) -> Paper {
        guard width.isFinite, height.isFinite, width > 0, height > 0, width <= maxSide, height <= maxSide else {
            throw .paperSizeOutOfRange(width: width, height: height, maxSide: maxSide)
        }
        return Paper(name: "\(Millimetres.text(width))x\(Millimetres.text(height))mm", width: width, height: height)
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
}
