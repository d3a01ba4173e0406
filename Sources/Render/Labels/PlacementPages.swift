/// Placements kept in pages of `pageSize`, every page full but the last: a list that grows
/// never copies what it already holds, and is indexed like an array.
///
/// A contiguous array growing past its capacity holds its old and its new buffer at once,
/// and one made from parts holds the parts and itself while it is made. A whole-world view's
/// chunk lists every place, so at 300,000 places that was 30 MB held twice over (most of a
/// worker's heap peak at zoom 0 and 1). Here the placements are read, handed to the engine,
/// filtered and sorted in their pages: held once, and a page over.
struct PlacementPages: RandomAccessCollection, MutableCollection {
    private var pages: [[PlacementCandidate]] = []
    /// Placements held.
    private(set) var count = 0

    /// The most placements in one page: 2,048 of 96 bytes.
    static let pageSize = 1 << pageShift
    private static let pageShift = 11

    init() {}

    /// One list, split into pages.
    init(_ list: [PlacementCandidate]) {
        if list.count <= Self.pageSize {
            if !list.isEmpty { pages = [list] }
            count = list.count
            return
        }
        for p in list { append(p) }
    }

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    subscript(i: Int) -> PlacementCandidate {
        get { pages[i >> Self.pageShift][i & (Self.pageSize - 1)] }
        set { pages[i >> Self.pageShift][i & (Self.pageSize - 1)] = newValue }
    }

    /// The largest capacity of a page: the most one append can copy.
    var largestPageCapacity: Int { pages.reduce(0) { Swift.max($0, $1.capacity) } }

    /// The capacity of the page being filled.
    var lastPageCapacity: Int { pages.last?.capacity ?? 0 }

    /// Room for placements in all the pages.
    var capacity: Int { pages.reduce(0) { $0 + $1.capacity } }

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

    /// Appends the placements of `other`: its pages are moved over when this ends on a page
    /// boundary, otherwise its placements are copied, each of its pages given back once copied.
    mutating func append(_ other: consuming PlacementPages) {
        guard !other.isEmpty else { return }
        if pages.isEmpty {
            self = other
            return
        }
        if count % Self.pageSize == 0 {
            pages += other.pages
            count += other.count
            return
        }
        var taken = PlacementPages()
        swap(&other, &taken)
        for i in taken.pages.indices {
            for p in taken.pages[i] { append(p) }
            taken.pages[i] = []
        }
    }

    /// The placements for which `keep` is true, in their order.
    func filter(_ keep: (PlacementCandidate) -> Bool) -> PlacementPages {
        var kept = PlacementPages()
        for page in pages {
            for p in page where keep(p) { kept.append(p) }
        }
        return kept
    }

    /// Removes the placements for which `drop` is true, keeping the others' order, in place:
    /// the pages left empty at the end are given back.
    mutating func removeAll(where drop: (PlacementCandidate) -> Bool) {
        var kept = 0
        for i in 0..<count where !drop(self[i]) {
            if kept != i { self[kept] = self[i] }
            kept += 1
        }
        guard kept < count else { return }
        let pagesKept = (kept + Self.pageSize - 1) >> Self.pageShift
        pages.removeLast(pages.count - pagesKept)
        if let last = pages.indices.last { pages[last].removeLast(pages[last].count - (kept - last * Self.pageSize)) }
        count = kept
    }
}
