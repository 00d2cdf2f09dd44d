import ArchitectureApps
import Foundation
import Kernel

/// The todos' storage in a real file: a JSON array of `{"id", "title", "done"}`.
///
/// A missing file, or one that is empty or only whitespace, holds nothing yet (`nil`). A file
/// that cannot be read or is not such an array throws, and the app starts empty (T1); the file
/// is then kept as it is: every save fails with
/// ``FileStorageError/keepsUnreadable(path:)`` until the user moves it away, so the last good
/// list someone had there is never overwritten by an empty one. A file that changed since this
/// storage last read or wrote it is read again before a save, and replaced only if it is still
/// missing, empty or a list (SPEC L4); one that did not change is not read again.
///
/// Saving replaces the file atomically (temporary file, fsync, rename), so a crash leaves the
/// previous list or the new one, never a torn file.
public final class FileTodoStorage: TodoStorage {
  /// The file that holds the list.
  public let url: URL

  /// Files larger than this are not a list the app loads.
  public static let maximumFileSize = 64 * 1024 * 1024

  private let report: (@Sendable (FileStorageError?) -> Void)?
  private let isWritable = Lock(true)
  /// The file as this storage last read or wrote it.
  private let known = Lock<StorageFile.Fingerprint?>(nil)

  /// Creates storage in the file at `url`.
  ///
  /// - Parameters:
  ///   - url: The file; its directory is created on the first save.
  ///   - report: Called after every load and save with its error, or `nil` when it worked.
  public init(url: URL, report: (@Sendable (FileStorageError?) -> Void)? = nil) {
    self.url = url
    self.report = report
  }

  public func loadTodos() async throws -> [TodoRecord]? {
    do {
      let before = StorageFile.fingerprint(url.path)
      let records = try readList()
      if before == StorageFile.fingerprint(url.path) { known.withLock { $0 = before } }
      report?(nil)
      return records
    } catch {
      isWritable.withLock { $0 = false }
      report?(error)
      throw error
    }
  }

  public func saveTodos(_ todos: [TodoRecord]) async throws {
    do {
      guard isWritable.withLock({ $0 }) else {
        throw FileStorageError.keepsUnreadable(path: url.path)
      }
      let now = StorageFile.fingerprint(url.path)
      if now != nil, now != known.withLock({ $0 }) {
        // Somebody else wrote the file since: it must still be a list to be replaced.
        do {
          _ = try readList()
        } catch {
          isWritable.withLock { $0 = false }
          throw FileStorageError.keepsUnreadable(path: url.path)
        }
      }
      try StorageFile.replace(url, with: Self.bytes(of: todos))
      known.withLock { $0 = StorageFile.fingerprint(url.path) }
      report?(nil)
    } catch let error as FileStorageError {
      report?(error)
      throw error
    }
  }

  private func readList() throws(FileStorageError) -> [TodoRecord]? {
    let path = url.path
    guard let bytes = try StorageFile.contents(path, maximumSize: Self.maximumFileSize) else {
      return nil
    }
    return try Self.list(in: bytes, path: path)
  }

  /// What a save writes for `todos`: the JSON array, keys sorted, and a newline.
  static func bytes(of todos: [TodoRecord]) -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let data = (try? encoder.encode(todos)) ?? Data("[]".utf8)
    return Array(data) + [0x0A]
  }

  /// The list a file's `bytes` hold; `nil` when they are empty or only whitespace.
  ///
  /// - Throws: ``FileStorageError/notTodos(path:reason:)`` when they are not such a list.
  static func list(in bytes: [UInt8], path: String) throws(FileStorageError) -> [TodoRecord]? {
    guard bytes.contains(where: { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) })
    else { return nil }
    guard !jsonNestsTooDeep(bytes) else {
      throw .notTodos(path: path, reason: "nested 512 deep or more: not a todo list")
    }
    do {
      let records = try JSONDecoder().decode([TodoRecord].self, from: Data(bytes))
      guard TodosApp.isValid(records) else {
        throw FileStorageError.notTodos(
          path: path, reason: "ids must be above 0 and unique, titles not blank")
      }
      return records
    } catch let error as FileStorageError {
      throw error
    } catch {
      throw .notTodos(path: path, reason: "not a JSON array of {\"id\", \"title\", \"done\"}")
    }
  }
}
