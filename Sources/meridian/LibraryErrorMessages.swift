import Render
import Sheets
import Tiles

/// The libraries' errors in the command line's words: cases about a value the user gave
/// name the option it came from (`--zoom 7-3 is empty`); the others print the library's own
/// one-line description.
func commandLineMessage(_ error: any Error) -> String {
    switch error {
    case let error as TilesError: return error.commandLineMessage
    case let error as SheetError: return error.commandLineMessage
    default: return "\(error)"
    }
}

extension TilesError: ExitStatusProviding {
    /// 2 for an option out of range (a usage error), 1 for trouble with files or rendering,
    /// 128 + the signal for a job stopped by SIGINT or SIGTERM.
    var exitStatus: Int32 {
        switch self {
        case .stopped, .copyStopped: return StopSignals.shared.exitStatus
        default: return isInvalidParameter ? 2 : 1
        }
    }

    var commandLineMessage: String {
        switch self {
        case .zoomOutOfRange(let min, let max, let deepest):
            return "--zoom \(min)-\(max) is out of range: zoom levels go from 0 to \(deepest)"
        case .zoomReversed(let min, let max):
            return "--zoom \(min)-\(max) is empty: give the lower zoom first (\(max)-\(min))"
        case .invalidBounds(let west, let south, let east, let north, let problem):
            let given = "--bbox \(GeoBounds.text(west, south, east, north))"
            switch problem {
            case .notANumber: return "\(given) has a value that is not a number"
            case .outsideWorld: return "\(given) is outside -180,-90,180,90 (it is W,S,E,N in degrees)"
            case .empty: return "\(given) is empty: it is W,S,E,N with W < E and S < N"
            case .beyondMercator(let limit):
                return "\(given) lies beyond latitude \(GeoBounds.format(limit)), outside the Web Mercator map"
            }
        case .tooManyTiles(let zooms, let bounds, let zoom, let count, let limit):
            return
                "--zoom \(zooms) over \(bounds) has more than \(limit) tiles (zoom \(zoom) alone has \(count)): narrow the zoom range or the bbox"
        case .shardCountOutOfRange(let index, let count, let max):
            return "--shard \(index)/\(count): the number of shards must be from 1 to \(max)"
        case .shardIndexOutOfRange(let index, let count):
            return "--shard \(index)/\(count): the index must be from 0 to \(count - 1) (shards are numbered from 0)"
        case .unsupportedTileSize(let size):
            return "--tile-size \(size) is not supported: use 256 or 512"
        case .unsupportedPixelRatio(let ratio):
            return "--scale \(ratio) is not supported: use 1 or 2 (@2x tiles)"
        case .metatileSizeOutOfRange(let size, let max):
            return "--metatile \(size) is out of range: a metatile is from 1 to \(max) tiles a side"
        case .workersOutOfRange(let workers, let max):
            return "--workers \(workers) is out of range: 1 to \(max)"
        case .bufferOutOfRange(let buffer, let max):
            return "--buffer \(buffer) is out of range: 0 to \(max) pixels"
        case .noInputs:
            return "give the MBTiles files to merge: meridian merge A.mbtiles B.mbtiles -o ALL.mbtiles"
        case .notResumable(let path):
            return "\(path): is not an MBTiles file written by meridian tiles, so --resume cannot continue it"
        case .differentJob(let path, let key, let found, let expected):
            return
                "\(path): was made by a different job (\(key) is '\(found ?? "missing")', this job's is '\(expected ?? "missing")'): --resume needs the same --zoom, --bbox, --tile-size, --scale and --buffer"
        case .outputBusy(let path):
            return
                "\(path): another meridian job is writing it (it holds the lock): wait for that job to end, or stop it"
        case .stopped(let done, let total):
            return
                "stopped at \(ScaleText.grouped(Double(done))) of \(ScaleText.grouped(Double(total))) tiles; --resume continues"
        case .copyStopped(let copied):
            return "stopped after \(ScaleText.grouped(Double(copied))) tiles: the output was not made"
        case .qualityOutOfRange(let quality):
            return "--quality \(quality) is out of range: 1 (smallest) to 100 (best)"
        case .outputIsInput, .io, .sqlite, .incompatibleOutput, .hashCollision, .render, .unsupportedTileFormat,
            .missingMetadata, .tileNotStorable, .tooManyDistinctTiles:
            return description
        }
    }
}

extension SheetError: ExitStatusProviding {
    /// 2: every sheet error is about the options (paper, margins, dpi, scale, bbox, centre,
    /// series) that cannot make a sheet, never about files.
    var exitStatus: Int32 { 2 }

    var commandLineMessage: String {
        switch self {
        case .invalidMargins:
            return "--margins must be a number of millimetres, 0 or more"
        case .dpiOutOfRange(let dpi, let min, let max):
            return
                "--dpi \(ScaleText.number(dpi)) is out of range: \(ScaleText.number(min)) to \(ScaleText.number(max))"
        case .scaleTooSmall(let scale, let reason, let largest):
            let hint = largest.map { " (use --scale \($0) or less)" } ?? ""
            return "at \(ScaleText.ratio(scale)) \(reason)\(hint)"
        case .scaleOutOfRange(let scale, let max):
            return "--scale \(ScaleText.number(scale)) is out of range: 1 to \(ScaleText.grouped(max))"
        case .bboxDoesNotFit(let scale, let needed, let frame, let fitting):
            var text = SheetError.bboxDoesNotFitProblem(scale: scale, needed: needed, frame: frame)
            if let fitting { text += ": use --scale \(Int(fitting)) or more, larger paper, or --series" }
            return text
        case .centreNeedsScale:
            return "--center needs --scale DENOM (only a --bbox can choose its own scale)"
        case .seriesNeedsBBox:
            return "--series covers a --bbox: give --bbox W,S,E,N"
        case .seriesNeedsScale:
            return "--series needs --scale DENOM (every sheet of a series has the same scale)"
        case .frameNotDrawable(let width, let height, let dpi, let reason):
            return
                "\(SheetError.frameNotDrawableProblem(width: width, height: height, dpi: dpi, reason: reason)): lower --dpi"
        case .paperSizeOutOfRange, .marginsTooLarge, .noRoomForMap, .outsideUTM, .notesTooLong, .invalid:
            return description
        }
    }
}

extension RenderError: ExitStatusProviding {
    /// A view that cannot be made from the options given (an empty or inverted `--bbox`, a
    /// size or dpi out of range) is a usage error, 2, as in `tiles`; the rest 1.
    var exitStatus: Int32 {
        if case .invalidView = self { return 2 }
        return 1
    }
}
