import ArchitectureApps
import Foundation

/// The counter's storage in a real file: the count as decimal text (SPEC L4).
///
/// A count file holds a whole number in 0…1,000,000,000 in ASCII digits (leading zeros, a
/// leading `+` and whitespace around it allowed), at most ``maximumFileSize`` bytes. Loading a
/// missing file, or one that is empty or only whitespace, returns `nil` (nothing stored yet).
/// Anything else — a file that cannot be read, is not a regular file, or does not hold such a
/// count (a negative or larger number included) — throws, and is then left as it is: every
/// save fails with ``FileStorageError/keepsUnreadable(path:)``, so notes, a FIFO or a count
/// another program wrote are never replaced by this app's count. Before each save the file is
/// read again, and it is replaced only if it is still missing, empty or a count.
///
/// Saving writes a temporary file next to the target, flushes it to disk and renames it over the
/// target, so a crash leaves either the old count or the new one, never half of a file. Missing
/// directories are created. A symbolic link is followed: the file it names is the one read and
/// replaced.
public final class FileCounterStorage: CounterStorage {
  /// The file that holds the count.
  public let url: URL

  /// Files larger than this are not a count; loading them throws.
  public static let maximumFileSize = 4096

  /// The largest count a file may hold.
  public static let maximumCount = 1_000_000_000

  private let report: (@Sendable (FileStorageError?) -> Void)?
  private let isWritable = LockedValue(true)

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
      isWritable.withLock { $0 = false }
      report?(error)
      throw error
    }
  }

  public func save(_ count: Int) async throws {
    do {
      guard isWritable.withLock({ $0 }) else {
        throw FileStorageError.keepsUnreadable(path: url.path)
      }
      // What is there now must still be a count (or nothing) to be replaced.
      do {
        _ = try readCount()
      } catch {
        isWritable.withLock { $0 = false }
        throw FileStorageError.keepsUnreadable(path: url.path)
      }
      try StorageFile.replace(url, with: Array("\(count)\n".utf8))
      report?(nil)
    } catch let error as FileStorageError {
      report?(error)
      throw error
    }
  }

  private func readCount() throws(FileStorageError) -> Int? {
    let path = url.path
    guard let bytes = try StorageFile.contents(path, maximumSize: Self.maximumFileSize) else {
      return nil
    }
    return try Self.count(in: bytes, path: path)
  }

  /// The count `bytes` hold; `nil` when they are empty or only whitespace.
  static func count(in bytes: [UInt8], path: String) throws(FileStorageError) -> Int? {
    func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
    var text = bytes[...]
    while let first = text.first, isSpace(first) { text.removeFirst() }
    while let last = text.last, isSpace(last) { text.removeLast() }
    if text.isEmpty { return nil }
    guard String(validating: text, as: UTF8.self) != nil else {
      throw .corrupt(path: path, reason: "not UTF-8 text")
    }
    let shown = {
      let decoded = String(decoding: text.prefix(20), as: UTF8.self)
      return text.count > 20 ? decoded + "…" : decoded
    }
    if text.first == UInt8(ascii: "+") { text.removeFirst() }
    guard !text.isEmpty, text.allSatisfy({ (0x30...0x39).contains($0) }) else {
      throw .corrupt(path: path, reason: "'\(shown())' is not a whole number")
    }
    var value = 0
    for digit in text {
      value = value * 10 + Int(digit - 0x30)
      guard value <= maximumCount else {
        throw .corrupt(path: path, reason: "'\(shown())' is larger than \(maximumCount)")
      }
    }
    return value
  }
}

/// Why ``FileCounterStorage`` or ``FileTodoStorage`` could not load or save.
public enum FileStorageError: Error, Hashable, CustomStringConvertible {
  /// The file exists but could not be read (a directory, no permission, an I/O error).
  case unreadable(path: String, reason: String)
  /// The file was read but does not hold a count.
  case corrupt(path: String, reason: String)
  /// The file was read but does not hold a todo list.
  case notTodos(path: String, reason: String)
  /// The data could not be written.
  case unwritable(path: String, reason: String)
  /// Saving is refused: the file holds something the app could not read, which it keeps.
  case keepsUnreadable(path: String)
  /// Another process holds the file's lock: one writer per file (SPEC L5).
  case inUse(path: String)

  public var description: String {
    switch self {
    case .unreadable(let path, let reason): "storage: cannot read \(path): \(reason)"
    case .corrupt(let path, let reason): "storage: \(path) is not a count: \(reason)"
    case .notTodos(let path, let reason): "storage: \(path) is not a todo list: \(reason)"
    case .unwritable(let path, let reason): "storage: cannot write \(path): \(reason)"
    case .keepsUnreadable(let path):
      "storage: not saving: \(path) holds data this app could not read; it is left as it is"
    case .inUse(let path): "storage: \(path) is in use by another process"
    }
  }
}
