/// An sRGB colour with straight (non-premultiplied) alpha, components 0...1.
public struct Color: Sendable, Equatable, Hashable {
    public var red: Double
    public var green: Double
    public var blue: Double
    public var alpha: Double

    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    public init(rgb: UInt32, alpha: Double = 1) {
        self.init(
            red: Double((rgb >> 16) & 0xFF) / 255, green: Double((rgb >> 8) & 0xFF) / 255,
            blue: Double(rgb & 0xFF) / 255, alpha: alpha)
    }

    public static let black = Color(rgb: 0x000000)
    public static let white = Color(rgb: 0xFFFFFF)
    public static let transparent = Color(rgb: 0, alpha: 0)

    /// The colour with its alpha multiplied by `opacity`.
    public func withOpacity(_ opacity: Double) -> Color {
        Color(red: red, green: green, blue: blue, alpha: alpha * opacity)
    }

    /// Parses `#rgb`, `#rrggbb`, `#rrggbbaa`, a CSS colour name or `transparent`.
    /// Returns nil for anything else; callers turn that into an error with a place.
    public init?(parsing text: String) {
        let lower = text.lowercased()
        if lower.hasPrefix("#") {
            let hex = lower.dropFirst()
            guard hex.allSatisfy(\.isHexDigit), let value = UInt64(hex, radix: 16) else { return nil }
            switch hex.count {
            case 3:
                let r = (value >> 8) & 0xF
                let g = (value >> 4) & 0xF
                let b = value & 0xF
                self.init(rgb: UInt32(r * 0x11 << 16 | g * 0x11 << 8 | b * 0x11))
            case 6:
                self.init(rgb: UInt32(value))
            case 8:
                self.init(rgb: UInt32(value >> 8), alpha: Double(value & 0xFF) / 255)
            default:
                return nil
            }
            return
        }
        if lower == "transparent" {
            self = .transparent
            return
        }
        guard let rgb = cssColorNames[lower] else { return nil }
        self.init(rgb: rgb)
    }
}
