import Foundation
import Synchronization

/// An exclusive lock on a job's output, held from start to end, so that a second job writing
/// the same output is refused at once instead of failing late (or worse, interleaving).
///
/// It is a `flock` on a file that the job keeps open: the in-progress file of an MBTiles or
/// PMTiles job, a lock file in a directory pyramid's staging folder. `flock` locks are
/// independent of the POSIX record locks SQLite takes on the same file, and the kernel drops
/// them when the process ends however it ends, so a killed job never leaves a stale lock.
final class OutputLock: Sendable {
    /// The locked file.
    let path: String
    /// The output the lock guards, for the message that refuses a second writer.
    let output: String
    private let descriptor: Mutex<Int32>

    /// Opens (creating if needed) and locks `path`; throws `outputBusy` when another process
    /// holds it. `output` is what the message names.
    init(path: String, output: String) throws(TilesError) {
        self.path = path
        self.output = output
        while true {
            let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o644)
            guard fd >= 0 else {
                throw .io(
                    path: path, message: "cannot open it to lock the output (\(String(cString: strerror(errno))))")
            }
            var status = stat()
            guard fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
                close(fd)
                throw .io(path: path, message: "is not a regular file")
            }
            if flock(fd, LOCK_EX | LOCK_NB) != 0 {
                let code = errno
                close(fd)
                if code == EWOULDBLOCK { throw .outputBusy(path: output) }
                throw .io(path: path, message: "cannot lock it (\(String(cString: strerror(code))))")
            }
            // The holder before us may have removed or renamed the file between our open and
            // our lock: then we hold a lock nobody else will look at. Lock the file that is
            // there now instead.
            var now = stat()
            if stat(path, &now) == 0, now.st_dev == status.st_dev, now.st_ino == status.st_ino {
                descriptor = Mutex(fd)
                return
            }
            close(fd)
        }
    }

    deinit {
        release()
    }

    /// Empties the locked file (an in-progress file a job starts over).
    func truncate() throws(TilesError) {
        let result = descriptor.withLock { $0 >= 0 ? ftruncate($0, 0) : 0 }
        guard result == 0 else {
            throw .io(path: path, message: "cannot empty it (\(String(cString: strerror(errno))))")
        }
    }

    /// Releases the lock; with `removing`, deletes the lock file first (while still holding it,
    /// so nobody locks a file that is about to vanish).
    func release(removing: Bool = false) {
        descriptor.withLock { fd in
            guard fd >= 0 else { return }
            if removing { unlink(path) }
            // Unlocked before closing: closing drops the lock only when no other descriptor
            // shares the open file, and a child another thread is starting holds a copy
            // between its fork and its exec (O_CLOEXEC closes it only then).
            flock(fd, LOCK_UN)
            close(fd)
            fd = -1
        }
    }
}
