/// How a grid marks its lines: whole lines, crosses where lines meet, or ticks at the edge of
/// the view or frame; and on a sheet, the border the frame wears. Sizes are in points, like
/// every grid size, and keep their size on screen.
public struct GridMarkStyle: Sendable, Equatable {
    public enum Kind: String, CaseIterable, Sendable {
        /// Whole lines across the map (the default).
        case lines
        /// A cross where an easting (meridian) meets a northing (parallel), arms along the lines.
        case crosses
        /// Only ticks where lines meet the edge of the view or the sheet's neatline.
        case ticks
    }

    /// Which way edge ticks point from the edge.
    public enum TickPosition: String, CaseIterable, Sendable {
        /// Into the map.
        case inside
        /// Away from the map, into a sheet's collar (an image has no outside: its ticks go in).
        case outside
    }

    /// The border of a sheet's frame, just inside its neatline.
    public enum Frame: String, CaseIterable, Sendable {
        case none
        /// Bars alternately black and white between the lines, as on nautical and topographic sheets.
        case zebra
        /// A band bounded by a second line inside the neatline.
        case line
    }

    public var kind: Kind = .lines
    /// The length of a cross's arms, end to end, in points.
    public var crossLength: Double = 8
    /// The length of an edge tick, in points (sub-ticks are half as long).
    public var tickLength: Double = 6
    public var tickPosition: TickPosition = .inside
    /// Short ticks along the edges between two neighbouring lines, dividing their interval
    /// into `subTicks + 1` equal parts; 0 for none.
    public var subTicks: Int = 0
    public var frame: Frame = .none
    /// The depth of the frame's border, in points.
    public var frameWidth: Double = 3

    public static let subTickRange = 0...9
    public static let lengthRange = 0.5...100.0
    public static let frameWidthRange = 0.5...20.0

    public init() {}
}
