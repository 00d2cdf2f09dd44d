import ArchitectureApps
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The counter's storage in a real file: the count as decimal text.
///
/// Loading a missing file returns `nil` (nothing stored yet). A file that cannot be read, is not
/// a whole number or is larger than ``maximumFileSize`` throws, and the app treats it as C2 says:
/// count 0 and a log line. Values outside the app's range are returned as they are; the app
/// rejects them (C2).
///
/// Saving writes a temporary file next to the target, flushes it to disk and renames it over the
/// target, so a crash leaves either the old count or the new one, never half of a file. Missing
/// directories are created.
public struct FileCounterStorage: CounterStorage {
  /// The file that holds the count.
  public let url: URL

  /// Files larger than this are not a count; loading them throws.
  public static let maximumFileSize = 4096

  private let report: (@Sendable (FileStorageError?) -> Void)?

  /// Creates storage in the file at `url`.
  ///
  /// - Parameters:
  ///   - url: The file; its directory is created on the first save.
  ///   - report: Called after every load and save with its error, or `nil` when it worked, so a
  ///     user interface can say why something failed (the app itself only logs C2's and C6's
  ///     messages).
  public init(url: URL, report: (@Sendable (FileStorageError?) -> Void)? = nil) {
    self.url = url
    self.report = report
  }

  public func load() async throws -> Int? {
    do {
      let count = try readCount()
      report?(nil)
      return count
    } catch {
      report?(error)
      throw error
    }
  }

  public func save(_ count: Int) async throws {
    do {
      try replaceContents(with: Array("\(count)\n".utf8))
      report?(nil)
    } catch {
      report?(error)
      throw error
    }
  }

  private func readCount() throws(FileStorageError) -> Int? {
    let path = url.path
    // Non-blocking, so a FIFO at the path cannot hang the app; only regular files are read.
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    if descriptor < 0 {
      let code = errno
      if code == ENOENT { return nil }
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
    var buffer = [UInt8](repeating: 0, count: 1024)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw .unreadable(path: path, reason: String(cString: strerror(errno)))
      }
      if count == 0 { break }
      bytes += buffer[..<count]
      if bytes.count > Self.maximumFileSize {
        throw .corrupt(path: path, reason: "larger than \(Self.maximumFileSize) bytes")
      }
    }
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw .corrupt(path: path, reason: "not UTF-8 text")
    }
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
    guard let value = Int(trimmed) else {
      let shown = trimmed.count > 20 ? "\(trimmed.prefix(20))…" : trimmed
      throw .corrupt(path: path, reason: "'\(shown)' is not a whole number")
    }
    return value
  }

  private func replaceContents(with bytes: [UInt8]) throws(FileStorageError) {
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
    let temporary =
      "\(directory)/.\(url.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      throw .unwritable(path: path, reason: String(cString: strerror(errno)))
    }
    var failure: String?
    var written = 0
    while written < bytes.count, failure == nil {
      let count = bytes.withUnsafeBytes {
        write(descriptor, $0.baseAddress! + written, $0.count - written)
      }
      if count < 0 {
        if errno != EINTR { failure = String(cString: strerror(errno)) }
      } else {
        written += count
      }
    }
    if failure == nil, fsync(descriptor) != 0 { failure = String(cString: strerror(errno)) }
    if close(descriptor) != 0, failure == nil { failure = String(cString: strerror(errno)) }
    if failure == nil, rename(temporary, target.path) != 0 {
      failure = String(cString: strerror(errno))
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

/// Why ``FileCounterStorage`` could not load or save.
public enum FileStorageError: Error, Hashable, CustomStringConvertible {
  /// The file exists but could not be read (a directory, no permission, an I/O error).
  case unreadable(path: String, reason: String)
  /// The file was read but does not hold a count.
  case corrupt(path: String, reason: String)
  /// The count could not be written.
  case unwritable(path: String, reason: String)

  public var description: String {
    switch self {
    case .unreadable(let path, let reason): "storage: cannot read \(path): \(reason)"
    case .corrupt(let path, let reason): "storage: \(path) is not a count: \(reason)"
    case .unwritable(let path, let reason): "storage: cannot write \(path): \(reason)"
    }
  }
}

private func describe(_ error: any Error) -> String {
  if let error = error as? CocoaError, let underlying = error.underlying as? POSIXError {
    return String(cString: strerror(underlying.code.rawValue))
  }
  return (error as NSError).localizedDescription
}
