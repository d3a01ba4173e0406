/// Estimates of the heap bytes values hold, for caches bounded by bytes rather than by a count
/// of entries (a count lets the memory follow the data: a million points and a million
/// coastlines are very different sizes). Estimates, not measurements: what matters is that
/// they grow with what is really held, so that a budget set in them bounds the memory.
public enum MemoryCost {
    /// One heap allocation's header and malloc's own bookkeeping (Swift's array header is 32
    /// bytes, glibc adds about 16).
    public static let allocation = 48

    /// An array of `count` elements of `T` (nothing when empty: empty arrays share storage).
    public static func array<T>(_ count: Int, of _: T.Type) -> Int {
        count == 0 ? 0 : allocation + count * MemoryLayout<T>.stride
    }

    /// A string's heap bytes: none for the short strings Swift stores inline.
    public static func string(_ s: String) -> Int {
        let bytes = s.utf8.count
        return bytes <= 15 ? 0 : allocation + bytes
    }
}

extension Geometry {
    /// The heap bytes of this geometry's arrays.
    public var estimatedBytes: Int {
        MemoryCost.array(coordinates.count, of: Double.self) + MemoryCost.array(partStarts.count, of: Int.self)
            + MemoryCost.array(polygonStarts.count, of: Int.self)
    }
}

extension Feature {
    /// The heap bytes a copy of this feature keeps alive besides its own struct: geometries and
    /// attributes (counted as if not shared with another copy).
    public var estimatedBytes: Int {
        var bytes = MemoryCost.array(geometries.count, of: Geometry.self)
        for geometry in geometries { bytes += geometry.estimatedBytes }
        bytes += MemoryCost.array(properties.entries.count, of: (key: String, value: PropertyValue).self)
        for (key, value) in properties.entries {
            bytes += MemoryCost.string(key)
            if case .string(let text) = value { bytes += MemoryCost.string(text) }
        }
        return bytes
    }
}
