import CGDAL
import Foundation

/// GDAL's process-wide set-up, done once: every driver registered, and GDAL's messages kept
/// off stderr by a handler that records them per thread, so that a failed call is reported
/// through `lastError()` as one of our errors instead.
enum GDALRuntime {
    private static let ready: Void = {
        GDALAllRegister()
        CPLSetErrorHandler { type, _, message in
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

    static func prepare() { _ = ready }

    /// Forgets the calling thread's errors, before a call whose failure we check.
    static func resetError() {
        CPLErrorReset()
        Thread.current.threadDictionary.removeObject(forKey: firstErrorKey)
    }

    /// The first error message of the calling thread since `resetError()` as one line, or nil.
    static func lastError() -> String? {
        let first = Thread.current.threadDictionary[firstErrorKey] as? String
        guard let text = first ?? CPLGetLastErrorMsg().map({ String(cString: $0) }) else { return nil }
        let message = oneLine(text)
        return message.isEmpty ? nil : message
    }

    /// True when a call since `resetError()` failed (warnings do not count).
    static var failed: Bool {
        Thread.current.threadDictionary[firstErrorKey] != nil || CPLGetLastErrorType().rawValue >= CE_Failure.rawValue
    }

    /// The short names of the drivers that read vector data, as GDAL tries them.
    static func vectorDrivers() -> [String] {
        prepare()
        return (0..<GDALGetDriverCount()).compactMap { i in
            guard let driver = GDALGetDriver(i), GDALGetMetadataItem(driver, GDAL_DCAP_VECTOR, nil) != nil,
                let name = GDALGetDriverShortName(driver)
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
