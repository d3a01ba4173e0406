/// Placements kept in pages of at most `pageSize`: a list that grows never copies what it
/// already holds. A contiguous array growing past its capacity holds its old and its new
/// buffer at once; a whole-world view's chunk lists every place, so at 300,000 places that
/// was 30 MB held twice over (most of a worker's peak at zoom 0). Here at most one page is
/// copied while it grows, and `joined` makes the one array the engine keeps with exactly the
/// room it needs, giving each page back as it is copied.
struct PlacementPages {
    private(set) var pages: [[PlacementCandidate]] = []
    /// Placements held.
    private(set) var count = 0

    /// The most placements in one page: 2,048 of 96 bytes.
    static let pageSize = 2048

    init() {}

    /// One list as a single page, or as many as it fills.
    init(_ list: [PlacementCandidate]) {
        if list.count <= Self.pageSize {
            if !list.isEmpty { pages = [list] }
        } else {
            var start = 0
            while start < list.count {
                let end = min(start + Self.pageSize, list.count)
                pages.append(Array(list[start..<end]))
                start = end
            }
        }
        count = list.count
    }

    var isEmpty: Bool { count == 0 }

    /// The largest capacity of a page: the most one append can copy.
    var largestPageCapacity: Int { pages.reduce(0) { max($0, $1.capacity) } }

    /// The capacity of the page being filled.
    var lastPageCapacity: Int { pages.last?.capacity ?? 0 }

    mutating func append(_ p: PlacementCandidate) {
        if pages.isEmpty || pages[pages.count - 1].count >= Self.pageSize {
            pages.append([])
        }
        let last = pages.count - 1
        // A page grows as an array does (small chunks of deep zooms stay small) up to its size.
        if pages[last].count == pages[last].capacity, pages[last].count * 2 > Self.pageSize {
            pages[last].reserveCapacity(Self.pageSize)
        }
        pages[last].append(p)
        count += 1
    }

    /// Moves the pages of `other` over, without copying their placements.
    mutating func append(_ other: consuming PlacementPages) {
        guard !other.isEmpty else { return }
        if pages.isEmpty {
            self = other
            return
        }
        pages += other.pages
        count += other.count
    }

    /// The placements for which `keep` is true, in their order.
    func filter(_ keep: (PlacementCandidate) -> Bool) -> PlacementPages {
        var kept = PlacementPages()
        for page in pages {
            for p in page where keep(p) { kept.append(p) }
        }
        return kept
    }

    /// Calls `body` with each placement, in order.
    func forEach(_ body: (PlacementCandidate) throws -> Void) rethrows {
        for page in pages {
            for p in page { try body(p) }
        }
    }

    /// All the placements as one array of exactly their count, in order; the pages are given
    /// back as they are copied (a single page is handed over as it is).
    consuming func joined() -> [PlacementCandidate] {
        if pages.count == 1 { return pages.removeLast() }
        var all: [PlacementCandidate] = []
        all.reserveCapacity(count)
        for i in pages.indices {
            all += pages[i]
            pages[i] = []
        }
        return all
    }
}
