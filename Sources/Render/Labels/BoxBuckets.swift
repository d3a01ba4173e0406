import Geodesy
import MapModel

/// Items bucketed by the square cells their boxes touch, over a bounded area: "which items may
/// overlap this box?" looks only in the box's cells. Each cell lists its items in the order
/// they were given, so callers that give them in placement order can stop at the first item
/// ranked below the one they ask for. Built once (counts, then offsets), then read only.
struct BoxBuckets {
    let cellSize: Double
    private let firstColumn: Int
    private let firstRow: Int
    private let columns: Int
    private let rows: Int
    /// Where each cell's entries start in `entries` (one more than there are cells).
    private let starts: [Int32]
    private let entries: [Int32]

    /// The most cells along a side: bounds the index whatever the boxes.
    static let maxCellsPerSide = 512
    /// The most cells per item (and a few more): a sparse set of boxes over a wide area (a
    /// chunk of a deep zoom with a handful of labels) would otherwise pay for a fine grid of
    /// empty cells, kept for every level of every chunk.
    static let maxCellsPerItem = 4

    /// Buckets `items` (numbers from 0, in the order cells are to list them) whose
    /// boxes, given by `boxes`, lie in `area` (boxes past it go to its edge cells). Cells are
    /// `cellSize` wide, or wider when the area would need more than `maxCellsPerSide` a side.
    init<Boxes: Collection<Rect>>(area: Rect, cellSize: Double, items: [Int], boxes: (Int) -> Boxes) {
        let side = max(area.isEmpty ? 1 : max(area.width, area.height), 1)
        let cellsPerSide = min(
            Double(BoxBuckets.maxCellsPerSide),
            (Double(BoxBuckets.maxCellsPerItem * items.count + 16)).squareRoot().rounded(.up))
        let size = max(cellSize, side / max(cellsPerSide - 2, 1), 1)
        let finite = area.minX.isFinite && area.maxX.isFinite && area.minY.isFinite && area.maxY.isFinite
        guard !area.isEmpty, finite else {
            self.init(cellSize: size, firstColumn: 0, firstRow: 0, columns: 0, rows: 0, starts: [0], entries: [])
            return
        }
        let firstColumn = BoxBuckets.cell(area.minX / size)
        let firstRow = BoxBuckets.cell(area.minY / size)
        let columns = min(BoxBuckets.cell(area.maxX / size) &- firstColumn &+ 1, BoxBuckets.maxCellsPerSide)
        let rows = min(BoxBuckets.cell(area.maxY / size) &- firstRow &+ 1, BoxBuckets.maxCellsPerSide)
        let shape = BoxBuckets(
            cellSize: size, firstColumn: firstColumn, firstRow: firstRow, columns: columns, rows: rows, starts: [0],
            entries: [])
        let cellCount = columns * rows
        var counts = [Int32](repeating: 0, count: cellCount + 1)
        // An item with several boxes is listed once per cell.
        var lastItem = [Int32](repeating: -1, count: cellCount)
        func visit(_ item: Int, _ body: (Int) -> Void) {
            for box in boxes(item) {
                guard let r = shape.cells(box) else { continue }
                for row in r.rows {
                    for column in r.columns {
                        let cell = row * columns + column
                        if lastItem[cell] == Int32(item) { continue }
                        lastItem[cell] = Int32(item)
                        body(cell)
                    }
                }
            }
        }
        for item in items { visit(item) { counts[$0 + 1] += 1 } }
        for i in 0..<cellCount { counts[i + 1] += counts[i] }
        var fill = counts
        var entries = [Int32](repeating: 0, count: Int(counts[cellCount]))
        lastItem = [Int32](repeating: -1, count: cellCount)
        for item in items {
            visit(item) { cell in
                entries[Int(fill[cell])] = Int32(item)
                fill[cell] += 1
            }
        }
        self.init(
            cellSize: size, firstColumn: firstColumn, firstRow: firstRow, columns: columns, rows: rows,
            starts: counts, entries: entries)
    }

    private init(
        cellSize: Double, firstColumn: Int, firstRow: Int, columns: Int, rows: Int, starts: [Int32], entries: [Int32]
    ) {
        self.cellSize = cellSize
        self.firstColumn = firstColumn
        self.firstRow = firstRow
        self.columns = columns
        self.rows = rows
        self.starts = starts
        self.entries = entries
    }

    /// Estimated heap bytes of the index.
    var estimatedBytes: Int {
        MemoryCost.array(starts.count, of: Int32.self) + MemoryCost.array(entries.count, of: Int32.self)
    }

    /// The cells (columns and rows counted from the index's first) that `rect` touches, or
    /// nil when it misses the index.
    func cells(_ rect: Rect) -> (columns: ClosedRange<Int>, rows: ClosedRange<Int>)? {
        guard columns > 0, rows > 0, !rect.isEmpty else { return nil }
        let x0 = max(0, BoxBuckets.cell(rect.minX / cellSize) &- firstColumn)
        let x1 = min(columns - 1, BoxBuckets.cell(rect.maxX / cellSize) &- firstColumn)
        let y0 = max(0, BoxBuckets.cell(rect.minY / cellSize) &- firstRow)
        let y1 = min(rows - 1, BoxBuckets.cell(rect.maxY / cellSize) &- firstRow)
        guard x0 <= x1, y0 <= y1 else { return nil }
        return (x0...x1, y0...y1)
    }

    /// The items of one cell, in the order they were given.
    func items(column: Int, row: Int) -> ArraySlice<Int32> {
        let cell = row * columns + column
        return entries[Int(starts[cell])..<Int(starts[cell + 1])]
    }

    /// Calls `body` with every item whose cell `rect` touches, cell by cell, until it returns
    /// false. An item in several of those cells comes once per cell.
    @discardableResult
    func forEach(touching rect: Rect, _ body: (Int) -> Bool) -> Bool {
        guard let r = cells(rect) else { return true }
        for row in r.rows {
            for column in r.columns {
                for item in items(column: column, row: row) where !body(Int(item)) { return false }
            }
        }
        return true
    }

    /// The cell number of a coordinate in cells: rounded down, pinned well inside Int's range
    /// (so that differences cannot overflow), 0 for NaN.
    private static func cell(_ value: Double) -> Int {
        let down = value.rounded(.down)
        guard !down.isNaN else { return 0 }
        return Int(min(max(down, -4e18), 4e18))
    }
}
