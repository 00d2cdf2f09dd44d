import ArchitectureApps
import Foundation

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
    guard let bytes = try StorageFile.contents(path, maximumSize: Self.maximumFileSize) else {
      return nil
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
    try StorageFile.replace(url, with: bytes)
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

  public var description: String {
    switch self {
    case .unreadable(let path, let reason): "storage: cannot read \(path): \(reason)"
    case .corrupt(let path, let reason): "storage: \(path) is not a count: \(reason)"
    case .notTodos(let path, let reason): "storage: \(path) is not a todo list: \(reason)"
    case .unwritable(let path, let reason): "storage: cannot write \(path): \(reason)"
    case .keepsUnreadable(let path):
      "storage: not saving: \(path) holds data this app could not read; it is left as it is"
    }
  }
}
