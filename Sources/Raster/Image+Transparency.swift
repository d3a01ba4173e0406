extension Image {
    /// True when every pixel has alpha 0: a tile with nothing drawn on it (`--skip-empty`).
    public var isFullyTransparent: Bool {
        pixels.withUnsafeBytes { bytes in
            var index = 3
            while index < bytes.count {
                if bytes[index] != 0 { return false }
                index += 4
            }
            return true
        }
    }
}
