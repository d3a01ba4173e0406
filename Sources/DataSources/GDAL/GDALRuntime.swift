import CGDAL
import Foundation

/// GDAL's process-wide set-up, done once: every driver registered, and GDAL's messages kept
/// off stderr. GDAL records the last error of each thread whatever the handler, so a failed
/// call is reported through `lastError()` as one of our errors instead.
enum GDALRuntime {
    private static let ready: Void = {
        GDALAllRegister()
        CPLSetErrorHandler(CPLQuietErrorHandler)
    }()

    static func prepare() { _ = ready }

    /// Forgets the calling thread's last error, before a call whose failure we check.
    static func resetError() { CPLErrorReset() }

    /// The calling thread's last error message as one line, or nil when the last call failed
    /// silently.
    static func lastError() -> String? {
        guard CPLGetLastErrorType() != CE_None, let text = CPLGetLastErrorMsg() else { return nil }
        let message = oneLine(String(cString: text))
        return message.isEmpty ? nil : message
    }

    /// True when a call since `resetError()` failed (warnings do not count).
    static var failed: Bool { CPLGetLastErrorType().rawValue >= CE_Failure.rawValue }

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
        text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && $0 != "^" }.joined(separator: " ")
    }
}
