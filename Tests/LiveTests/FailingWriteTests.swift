import ArchitectureApps
import Foundation
import LiveEnvironment
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Saves that fail for real — a read-only directory, a file that may not be replaced — leave
/// the previous file byte-identical and nothing beside it, report the failure, and the next save
/// after the cause is gone works (SPEC C6, T7, L4). The failures that need the whole process (a
/// file size limit) or a file system of their own (no inode left, a full disk) are made by
/// `Scripts/failing-writes.sh`, around `arch run`.
///
/// Root writes anywhere, so as root the directory or the file is made immutable (`chattr +i`);
/// otherwise the directory's write permission is taken away.
@Suite struct FailingWriteTests {
  let temporary: TemporaryDirectory
  var directory: URL { temporary.url }

  init() throws {
    temporary = try TemporaryDirectory("FailingWriteTests")
  }

  static let isRoot = geteuid() == 0
  static let list = [
    TodoRecord(id: 1, title: "Milk", done: true), TodoRecord(id: 2, title: "Eggs", done: false),
  ]

  /// The bytes of `url` and the names beside it, to compare before and after a failed save.
  func snapshot(_ url: URL) throws -> (bytes: Data, names: [String]) {
    let names = try FileManager.default.contentsOfDirectory(
      atPath: url.deletingLastPathComponent().path)
    return (try Data(contentsOf: url), names.sorted())
  }

  /// Makes new entries in `directory` impossible, runs `body`, then allows them again.
  func readOnly(_ directory: URL, _ body: () async throws -> Void) async throws {
    if Self.isRoot {
      try chattr("+i", directory)
    } else {
      try FileManager.default.setAttributes(
        [.posixPermissions: 0o555], ofItemAtPath: directory.path)
    }
    do {
      try await body()
    } catch {
      try restore(directory)
      throw error
    }
    try restore(directory)
  }

  func restore(_ directory: URL) throws {
    if Self.isRoot {
      try chattr("-i", directory)
    } else {
      try FileManager.default.setAttributes(
        [.posixPermissions: 0o755], ofItemAtPath: directory.path)
    }
  }

  /// Sets or clears the immutable attribute of `url` with the system's `chattr`.
  func chattr(_ flag: String, _ url: URL) throws {
    let process = Process()
    process.executableURL = URL(filePath: "/usr/bin/chattr")
    process.arguments = [flag, url.path]
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "chattr \(flag) \(url.path)")
  }

  func isUnwritable(_ error: any Error, reason: String) -> Bool {
    guard case .unwritable(_, let found)? = error as? FileStorageError else { return false }
    return found.hasPrefix(reason)
  }

  @Test func aCountInAReadOnlyDirectoryIsKeptAndTheNextSaveWorks() async throws {
    let storage = FileCounterStorage(url: directory.appending(path: "count.txt"))
    try await storage.save(41)
    let before = try snapshot(storage.url)
    try await readOnly(directory) {
      await #expect {
        try await storage.save(42)
      } throws: {
        isUnwritable($0, reason: "cannot create a file in \(directory.path): ")
      }
      // The next change tries again, and fails again while the cause lasts.
      await #expect(throws: FileStorageError.self) { try await storage.save(43) }
    }
    #expect(try snapshot(storage.url) == before)
    try await storage.save(44)
    #expect(try Data(contentsOf: storage.url) == Data("44\n".utf8))
  }

  @Test func aListInAReadOnlyDirectoryIsKeptAndTheNextSaveWorks() async throws {
    let storage = FileTodoStorage(url: directory.appending(path: "todos.json"))
    try await storage.saveTodos(Self.list)
    let before = try snapshot(storage.url)
    try await readOnly(directory) {
      await #expect {
        try await storage.saveTodos([])
      } throws: {
        isUnwritable($0, reason: "cannot create a file in \(directory.path): ")
      }
    }
    #expect(try snapshot(storage.url) == before)
    try await storage.saveTodos(Array(Self.list.prefix(1)))
    #expect(try await storage.loadTodos() == Array(Self.list.prefix(1)))
  }

  /// The temporary file is written and flushed, but may not take the file's place: it is
  /// removed, and the file keeps its bytes.
  @Test(.enabled(if: isRoot, "only root sets the immutable attribute"))
  func aCountThatMayNotBeReplacedIsKeptAndTheNextSaveWorks() async throws {
    let storage = FileCounterStorage(url: directory.appending(path: "count.txt"))
    try await storage.save(7)
    let before = try snapshot(storage.url)
    try chattr("+i", storage.url)
    await #expect {
      try await storage.save(8)
    } throws: {
      isUnwritable($0, reason: "cannot replace it: ")
    }
    try chattr("-i", storage.url)
    #expect(try snapshot(storage.url) == before)
    try await storage.save(9)
    #expect(try Data(contentsOf: storage.url) == Data("9\n".utf8))
  }

  @Test(.enabled(if: isRoot, "only root sets the immutable attribute"))
  func aListThatMayNotBeReplacedIsKeptAndTheNextSaveWorks() async throws {
    let storage = FileTodoStorage(url: directory.appending(path: "todos.json"))
    try await storage.saveTodos(Self.list)
    let before = try snapshot(storage.url)
    try chattr("+i", storage.url)
    await #expect {
      try await storage.saveTodos([])
    } throws: {
      isUnwritable($0, reason: "cannot replace it: ")
    }
    try chattr("-i", storage.url)
    #expect(try snapshot(storage.url) == before)
    try await storage.saveTodos([])
    #expect(try await storage.loadTodos() == [])
  }

  /// A name near the file system's limit of 255 bytes: the temporary file's name is cut to fit,
  /// so such a file saves like any other.
  @Test func aFileWithTheLongestNameSaves() async throws {
    let name = String(repeating: "é", count: 120) + ".txt"  // 244 bytes
    let storage = FileCounterStorage(url: directory.appending(path: name))
    try await storage.save(5)
    #expect(try await storage.load() == 5)
    #expect(try snapshot(storage.url).names == [name])
  }
}
