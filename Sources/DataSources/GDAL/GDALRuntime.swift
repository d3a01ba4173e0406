import CGDAL
import Foundation

/// GDAL's process-wide set-up, done once when a source first needs GDAL: every driver
/// registered, and GDAL's messages kept off stderr by a handler that records them per thread,
/// so that a failed call is reported through `lastError()` as one of our errors instead.
enum GDALRuntime {
    private static let ready: Void = {
        gdal.GDALAllRegister()
        _ = gdal.CPLSetErrorHandler { type, _, message in
            // Keep the first failure of the thread since `resetError()`: the one that explains.
            // Later ones are often consequences (a cursor closed after a failed query).
            guard type.rawValue >= CE_Failure.rawValue, let message else { return }
            let thread = Thread.current.threadDictionary
            if thread[GDALRuntime.firstErrorKey] == nil {
                thread[GDALRuntime.firstErrorKey] = String(cString: message)
            }
        }
    }()

    private static let firstErrorKey = "meridian.gdal.firstError"

    /// Loads libgdal (on first use: it is not linked) and sets GDAL up. `purpose` says what
    /// needs it (`reading roads.shp`) in the error when the library cannot be loaded; `key` is
    /// the layer's key the error is reported on.
    static func prepare(for purpose: String, key: String) throws(SourceProblem) {
        guard LoadedLibrary.gdal.load() else {
            throw SourceProblem(key, LoadedLibrary.gdal.failure(needed: purpose))
        }
        _ = ready
    }

    /// Forgets the calling thread's errors, before a call whose failure we check.
    static func resetError() {
        gdal.CPLErrorReset()
        Thread.current.threadDictionary.removeObject(forKey: firstErrorKey)
    }

    /// The first error message of the calling thread since `resetError()` as one line, or nil.
    static func lastError() -> String? {
        let first = Thread.current.threadDictionary[firstErrorKey] as? String
        guard let text = first ?? gdal.CPLGetLastErrorMsg().map({ String(cString: $0) }) else { return nil }
        let message = oneLine(text)
        return message.isEmpty ? nil : message
    }

    /// True when a call since `resetError()` failed (warnings do not count).
    static var failed: Bool {
        Thread.current.threadDictionary[firstErrorKey] != nil
            || gdal.CPLGetLastErrorType().rawValue >= CE_Failure.rawValue
    }

    /// The short names of the drivers that read vector data, as GDAL tries them.
    static func vectorDrivers() -> [String] {
        // Called after a failed open: GDAL is loaded and set up.
        return (0..<gdal.GDALGetDriverCount()).compactMap { i in
            guard let driver = gdal.GDALGetDriver(i), gdal.GDALGetMetadataItem(driver, GDAL_DCAP_VECTOR, nil) != nil,
                let name = gdal.GDALGetDriverShortName(driver)
            else { return nil }
            return String(cString: name)
        }
    }

    /// Database messages run over several lines (the error, the statement, a caret); ours
    /// are one line.
    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: { $0.isNewline || $0 == " " || $0 == "\t" }).filter { $0 != "^" }
            .joined(separator: " ")
    }
}
