import CPROJ
import MapModel

/// One thread's PROJ context (PROJ objects must not be shared between threads). PROJ's log
/// messages are kept here instead of going to stderr, and become the text of our errors.
/// Every use of PROJ starts with a context: making the first one loads libproj.
final class ProjContext {
    let handle: OpaquePointer
    private var messages: [String] = []

    /// `purpose` says what needs PROJ (`the CRS "EPSG:2263"`) in the error when the library
    /// cannot be loaded.
    init(for purpose: String) throws(TransformFailure) {
        guard LoadedLibrary.proj.load() else { throw TransformFailure(LoadedLibrary.proj.failure(needed: purpose)) }
        guard let handle = proj.proj_context_create() else {
            throw TransformFailure("PROJ cannot start: out of memory")
        }
        self.handle = handle
        _ = proj.proj_log_level(handle, PJ_LOG_ERROR)
        proj.proj_log_func(handle, Unmanaged.passUnretained(self).toOpaque()) { data, _, message in
            guard let data, let message else { return }
            Unmanaged<ProjContext>.fromOpaque(data).takeUnretainedValue().messages.append(String(cString: message))
        }
    }

    deinit {
        _ = proj.proj_context_destroy(handle)
    }

    /// The messages logged since the last call, as one line.
    func takeError() -> String? {
        let parts = messages
        messages.removeAll()
        guard !parts.isEmpty else { return nil }
        // PROJ prefixes messages with the function that failed: users need only the reason.
        return parts.map { $0.replacingPrefix("proj_create: ", with: "") }.joined(separator: "; ")
    }

    /// Creates an object (a CRS from a definition, a transformation) owned by this context.
    func object(_ make: (OpaquePointer) -> OpaquePointer?) -> ProjObject? {
        make(handle).map { ProjObject($0, context: self) }
    }
}

/// A PROJ object (a CRS or a transformation), destroyed with its context still alive.
final class ProjObject {
    let handle: OpaquePointer
    let context: ProjContext

    init(_ handle: OpaquePointer, context: ProjContext) {
        self.handle = handle
        self.context = context
    }

    deinit {
        _ = proj.proj_destroy(handle)
    }

    /// `EPSG:2263` when the object has an identifier, else its name.
    var label: String {
        if let auth = proj.proj_get_id_auth_name(handle, 0), let code = proj.proj_get_id_code(handle, 0) {
            return "\(String(cString: auth)):\(String(cString: code))"
        }
        return proj.proj_get_name(handle).map { String(cString: $0) } ?? "unnamed CRS"
    }
}

extension String {
    func replacingPrefix(_ prefix: String, with replacement: String) -> String {
        hasPrefix(prefix) ? replacement + dropFirst(prefix.count) : self
    }
}
