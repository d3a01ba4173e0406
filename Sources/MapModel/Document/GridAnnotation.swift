import Geodesy

/// How a grid's values are written and where each side of the map shows them, as QGIS
/// layout grids and ArcGIS Pro grids let the user choose: the document's `grid.annotation`.
///
/// The text keys (`format`, `precision`, `padding`, `hemisphere`) write latitudes and
/// longitudes, on the map and at its edges alike; UTM, MGRS and USNG values keep their
/// metres. The sides say which lines each edge of the view (a sheet's neatline) names,
/// inside or outside it, horizontal or along it. Absent, a grid labels as it always has.
public struct GridAnnotation: Sendable, Equatable {
    /// The last unit written, and the decimals it carries by default.
    public enum Format: String, CaseIterable, Sendable {
        /// Whole degrees, or decimal degrees with `precision`: `40°`, `40.7625°`.
        case D
        /// Decimal degrees: `D` with the decimals the lines need.
        case DD
        /// Degrees and minutes: `40°45′`.
        case DM
        /// Degrees and decimal minutes, two decimals unless `precision` says otherwise: `40°45.50′`.
        case DMmm = "DM.mm"
        /// Degrees, minutes and seconds: `40°45′30″`.
        case DMS

        public var unit: DMSUnit {
            switch self {
            case .D, .DD: return .degree
            case .DM, .DMmm: return .minute
            case .DMS: return .second
            }
        }

        /// The graticule's ladder that puts its lines on values this format writes exactly.
        public var ladder: LatLongLabelFormat {
            unit == .degree ? .decimalDegrees : .degreesMinutesSeconds
        }
    }

    /// Which lines a side names.
    public enum Axis: String, CaseIterable, Sendable {
        /// Parallels (and northings): the lines across the map.
        case latitude
        /// Meridians (and eastings): the lines up the map.
        case longitude
        case both
        case none

        /// Aliases read for UTM, MGRS and USNG grids.
        static let aliases: [String: Axis] = ["northing": .latitude, "easting": .longitude]
    }

    /// Inside the neatline (over the map, with a halo) or outside it in the collar.
    public enum Position: String, CaseIterable, Sendable {
        case inside, outside
    }

    /// Horizontal, or along the side: turned a quarter on the left and right to read from
    /// bottom to top, as printed maps do (along the top and bottom that is horizontal).
    public enum Direction: String, CaseIterable, Sendable {
        case horizontal, along
    }

    /// The edges of the view or the sheet's neatline.
    public enum Edge: String, CaseIterable, Sendable {
        case top, bottom, left, right
    }

    public struct Side: Sendable, Equatable {
        public var axis: Axis
        public var position: Position = .outside
        public var direction: Direction = .horizontal

        public init(axis: Axis, position: Position = .outside, direction: Direction = .horizontal) {
            self.axis = axis
            self.position = position
            self.direction = direction
        }
    }

    /// Nil: latitudes and longitudes as `labelFormat` writes them (`45°30'N`, `45.5°N`).
    /// Set when any of `format`, `precision`, `padding` or `hemisphere` is given.
    public var format: Format?
    /// Decimals on the last unit; nil: `DM.mm` two, the others as many as the lines'
    /// interval needs (the same for every label of a family, so a side's values line up).
    public var precision: Int?
    public var padding = false
    public var hemisphere: HemisphereStyle = .suffix
    /// The cartographic default: latitudes left and right, longitudes top and bottom, outside.
    public var top = Side(axis: .longitude)
    public var bottom = Side(axis: .longitude)
    public var left = Side(axis: .latitude)
    public var right = Side(axis: .latitude)

    public static let precisionRange = 0...AngleAnnotationStyle.maxDecimals
    /// The most decimals an automatic precision gives (a 10″ step in minutes would need more).
    static let automaticLimit: [DMSUnit: Int] = [.degree: 4, .minute: 2, .second: 2]

    public init() {}

    public subscript(edge: Edge) -> Side {
        get {
            switch edge {
            case .top: return top
            case .bottom: return bottom
            case .left: return left
            case .right: return right
            }
        }
        set {
            switch edge {
            case .top: top = newValue
            case .bottom: bottom = newValue
            case .left: left = newValue
            case .right: right = newValue
            }
        }
    }

    /// Whether `edge` names lines that run up the map (`longitude`) or across it.
    public func names(_ edge: Edge, linesUpTheMap: Bool) -> Bool {
        switch self[edge].axis {
        case .both: return true
        case .none: return false
        case .longitude: return linesUpTheMap
        case .latitude: return !linesUpTheMap
        }
    }

    /// Whether `edge`'s labels are turned to read along it (only the left and right turn).
    public func turned(_ edge: Edge) -> Bool {
        (edge == .left || edge == .right) && self[edge].direction == .along
    }

    /// How a latitude or longitude of a family of lines `step` degrees apart is written;
    /// nil when the annotation leaves the text to `labelFormat`.
    public func angleStyle(step: Double) -> AngleAnnotationStyle? {
        guard let format else { return nil }
        let decimals =
            precision
            ?? (format == .DMmm
                ? 2
                : AngleAnnotationStyle.decimals(
                    toWrite: step, in: format.unit, limit: GridAnnotation.automaticLimit[format.unit] ?? 2))
        return AngleAnnotationStyle(unit: format.unit, decimals: decimals, padding: padding, hemisphere: hemisphere)
    }
}
