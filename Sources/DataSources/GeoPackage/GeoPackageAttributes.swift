import Geodesy
import MapModel
import SQLite

extension GeoPackageTable.Column {
    /// The value of column `c` of the current row, as `OGRAttributes` gives OGR's: NULL is
    /// `.null`.
    func value(_ query: SQLiteStatement, _ c: Int32) -> PropertyValue {
        if query.isNull(c) { return .null }
        switch self {
        case .integer(let boolean):
            let n = query.int32(c)
            return boolean ? .bool(n != 0) : .number(Double(n))
        case .integer64: return .number(Double(query.int(c)))
        case .real: return .number(query.double(c))
        case .text: return .string(query.text(c) ?? "")
        }
    }

    /// The length in Unicode scalars of `PropertyValue.labelText` of `value(query, c)`; nil
    /// for NULL. Plain ASCII text (most names) is counted in SQLite's buffer, without a
    /// `String`.
    func labelLength(_ query: SQLiteStatement, _ c: Int32) -> Int? {
        if case .text = self, let ascii = query.asciiTextLength(c) { return ascii }
        return value(query, c).labelText?.unicodeScalars.count
    }
}

extension GeoPackageTable {
    /// The length (in Unicode scalars) of the longest text `text` makes for any row, as
    /// `LabelText.resolve` makes it of the attributes this reader (and OGR's) gives: a label
    /// with a NULL or missing attribute is empty. One pass over the label's columns alone, in
    /// SQLite: reading every feature through OGR cost the 300,000 places of `make bench-large`
    /// 0.53 G instructions at every load.
    func longestLabel(_ text: LabelText) throws(SQLiteError) -> Int {
        var literal = 0
        var wanted: [(name: String, kind: Column)] = []
        for piece in text.pieces {
            switch piece {
            case .literal(let s): literal += s.unicodeScalars.count
            case .attribute(let name):
                // A missing attribute leaves every label empty, as `Properties` finds no value.
                guard let column = columns.first(where: { $0.name == name }) else { return 0 }
                wanted.append(column)
            }
        }
        guard !wanted.isEmpty else { return literal }
        let connection = try SQLiteDatabase(path: path, mode: .readOnly)
        let selected = wanted.map { GeoPackageTable.quoted($0.name) }.joined(separator: ", ")
        let query = try connection.prepare("SELECT \(selected) FROM \(GeoPackageTable.quoted(table))")
        var longest = 0
        rows: while try query.step() {
            var length = literal
            for (i, column) in wanted.enumerated() {
                guard let n = column.kind.labelLength(query, Int32(i)) else { continue rows }
                length += n
            }
            longest = max(longest, length)
        }
        return longest
    }
}
