import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reading and replacing the samples' data files: only regular files are read, never more than
/// a limit, and a file is replaced atomically (temporary file, fsync, rename, fsync of the
/// directory), so a crash leaves the old contents or the new, never a torn file.
enum StorageFile {
  /// The bytes of the regular file at `path`, or `nil` when there is no file.
  ///
  /// - Throws: ``FileStorageError/unreadable(path:reason:)`` for anything but a regular file
  ///   that could be read, ``FileStorageError/corrupt(path:reason:)`` when it is larger than
  ///   `maximumSize`.
  static func contents(_ path: String, maximumSize: Int) throws(FileStorageError) -> [UInt8]? {
    // Non-blocking, so a FIFO at the path cannot hang the app; only regular files are read.
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    if descriptor < 0 {
      let code = errno
      // No file there: nothing stored yet (a path through a plain file names no file either).
      if code == ENOENT || code == ENOTDIR { return nil }
      throw .unreadable(path: path, reason: String(cString: strerror(code)))
    }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      throw .unreadable(path: path, reason: String(cString: strerror(errno)))
    }
    guard status.st_mode & S_IFMT == S_IFREG else {
      throw .unreadable(
        path: path,
        reason: status.st_mode & S_IFMT == S_IFDIR
          ? String(cString: strerror(EISDIR)) : "not a regular file")
    }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw .unreadable(path: path, reason: String(cString: strerror(errno)))
      }
      if count == 0 { break }
      bytes += buffer[..<count]
      if bytes.count > maximumSize {
        throw .corrupt(path: path, reason: "larger than \(maximumSize) bytes")
      }
    }
    return bytes
  }

  /// Which file is at `path` (or the file a symbolic link there names) and when it last
  /// changed: equal fingerprints mean nobody wrote it in between. `nil` when there is none.
  static func fingerprint(_ path: String) -> Fingerprint? {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    return Fingerprint(
      device: UInt64(status.st_dev), inode: UInt64(status.st_ino), size: Int64(status.st_size),
      seconds: Int64(status.st_mtim.tv_sec), nanoseconds: Int64(status.st_mtim.tv_nsec))
  }

  /// What ``fingerprint(_:)`` returns.
  struct Fingerprint: Hashable, Sendable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var seconds: Int64
    var nanoseconds: Int64
  }

  /// Replaces the file at `url` (or the file a symbolic link there names) with `bytes`.
  static func replace(_ url: URL, with bytes: [UInt8]) throws(FileStorageError) {
    let path = url.path
    // A symbolic link keeps pointing at the file: the file it names is the one replaced.
    let target = url.resolvingSymlinksInPath()
    let directory = target.deletingLastPathComponent().path
    do {
      try FileManager.default.createDirectory(
        atPath: directory, withIntermediateDirectories: true)
    } catch {
      throw .unwritable(path: path, reason: "cannot create \(directory): \(describe(error))")
    }
    let temporary = "\(directory)/\(temporaryName(of: target.lastPathComponent))"
    ignoreFileSizeSignal
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      throw .unwritable(
        path: path,
        reason: "cannot create a file in \(directory): \(String(cString: strerror(errno)))")
    }
    var failure: String?
    var written = 0
    bytes.withUnsafeBytes { buffer in
      guard let base = buffer.baseAddress else { return }
      while written < buffer.count, failure == nil {
        let count = write(descriptor, base + written, buffer.count - written)
        if count < 0 {
          if errno != EINTR { failure = String(cString: strerror(errno)) }
        } else {
          written += count
        }
      }
    }
    if failure == nil, fsync(descriptor) != 0 { failure = String(cString: strerror(errno)) }
    if close(descriptor) != 0, failure == nil { failure = String(cString: strerror(errno)) }
    if failure == nil, rename(temporary, target.path) != 0 {
      failure = "cannot replace it: \(String(cString: strerror(errno)))"
    }
    if let failure {
      unlink(temporary)
      throw .unwritable(path: path, reason: failure)
    }
    // Make the rename itself durable.
    let directoryDescriptor = open(directory, O_RDONLY | O_CLOEXEC)
    if directoryDescriptor >= 0 {
      fsync(directoryDescriptor)
      close(directoryDescriptor)
    }
  }
}

/// How the temporary files of `name` begin: `.NAME.`, with `NAME` cut to fit; they end in
/// `.tmp`.
///
/// A file whose name is near the file system's limit (255 bytes) can still be saved: its
/// temporary file's name keeps the first 200 bytes of `name` (whole characters), so
/// `.NAME.PID.RANDOM.tmp` is never too long.
private func temporaryPrefix(_ name: String) -> String {
  var kept = Substring(name)
  while kept.utf8.count > 200 { kept.removeLast() }
  return ".\(kept)."
}

/// A new temporary file's name beside `name`: ``temporaryPrefix(_:)``, this process, a random
/// number, `.tmp`.
private func temporaryName(of name: String) -> String {
  "\(temporaryPrefix(name))\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
}

/// Makes a write beyond the file size limit (`ulimit -f`) fail with `EFBIG`, reported like any
/// failed save, instead of killing the process with `SIGXFSZ` (which the threads the samples'
/// work runs on may or may not block). Only the default action is replaced: a handler the
/// process installed stays. Evaluated once, before the first save.
private let ignoreFileSizeSignal: Void = {
  var current = sigaction()
  guard sigaction(SIGXFSZ, nil, &current) == 0 else { return }
  #if canImport(Darwin)
    let handler = current.__sigaction_u.__sa_handler
  #else
    let handler = current.__sigaction_handler.sa_handler
  #endif
  // Handlers are C function pointers, compared by address.
  if unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_DFL, to: Int.self) {
    signal(SIGXFSZ, SIG_IGN)
  }
}()

/// The lock that makes a run the only writer of a data file (SPEC L5): an advisory lock
/// (`flock`) on `NAME.lock` beside the file, held until the value is released or the process
/// ends, however it ends. Two paths naming the same file (through a symbolic link or `..`) take
/// the same lock.
///
/// ```swift
/// let lock = try StorageLock(for: url)   // throws .inUse when another run holds it
/// ```
///
/// Holding it, the run removes what killed runs left beside the file: their temporary files.
public final class StorageLock: Sendable {
  /// The lock file.
  public let path: String
  private let descriptor: Int32

  /// Takes the lock of the file at `url`, creating its directory and lock file if needed.
  ///
  /// - Throws: ``FileStorageError/inUse(path:)`` when another process (or another lock in this
  ///   one) holds it; ``FileStorageError/unwritable(path:reason:)`` when the lock file cannot be
  ///   made.
  public init(for url: URL) throws(FileStorageError) {
    let target = url.standardizedFileURL.resolvingSymlinksInPath()
    let directory = target.deletingLastPathComponent().path
    do {
      try FileManager.default.createDirectory(
        atPath: directory, withIntermediateDirectories: true)
    } catch {
      throw .unwritable(path: url.path, reason: "cannot create \(directory): \(describe(error))")
    }
    path = "\(directory)/\(target.lastPathComponent).lock"
    let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      throw .unwritable(
        path: url.path, reason: "cannot open \(path): \(String(cString: strerror(errno)))")
    }
    guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
      let code = errno
      close(descriptor)
      if code == EWOULDBLOCK { throw .inUse(path: url.path) }
      throw .unwritable(
        path: url.path, reason: "cannot lock \(path): \(String(cString: strerror(code)))")
    }
    self.descriptor = descriptor
    Self.removeLeftovers(of: target.lastPathComponent, in: directory)
  }

  deinit {
    close(descriptor)  // releases the lock
  }

  /// Removes the temporary files killed runs left for `name` in `directory` (only the lock's
  /// holder writes them, so none of them is in use).
  private static func removeLeftovers(of name: String, in directory: String) {
    let prefix = temporaryPrefix(name)
    guard let entries = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
      return
    }
    for entry in entries where entry.hasPrefix(prefix) && entry.hasSuffix(".tmp") {
      unlink("\(directory)/\(entry)")
    }
  }
}

private func describe(_ error: any Error) -> String {
  if let error = error as? CocoaError, let underlying = error.underlying as? POSIXError {
    return String(cString: strerror(underlying.code.rawValue))
  }
  return (error as NSError).localizedDescription
}
