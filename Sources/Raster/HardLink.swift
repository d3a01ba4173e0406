#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension OpenFolder {
    /// What `link(_:as:)` did.
    public enum LinkResult: Sendable {
        /// `name` is now a second name of the file.
        case linked
        /// Something already has the name; it is left alone.
        case exists
        /// The filesystem has no hard links (or refuses them here): write files instead.
        case unsupported
        /// This link could not be made (the file has as many links as the filesystem allows,
        /// or is gone); another may.
        case failed
    }

    /// Gives the file at `existing` a second name, `name` in this folder (a hard link): the
    /// name appears at once with the whole file behind it, as a file created whole would.
    public func link(_ existing: String, as name: String) -> LinkResult {
        if linkat(AT_FDCWD, existing, descriptor, name, 0) == 0 { return .linked }
        switch errno {
        case EEXIST: return .exists
        case EPERM, EOPNOTSUPP, ENOSYS, EXDEV: return .unsupported
        default: return .failed
        }
    }
}
