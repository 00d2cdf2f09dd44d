import ArchitectureSpec
import Foundation
import Kernel
import LiveEnvironment
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The counter's file storage against real files in a fresh temporary directory.
@Suite struct FileCounterStorageTests {
  /// Removed, with the files a test made, after each test.
  let temporary: TemporaryDirectory
  var directory: URL { temporary.url }

  init() throws {
    temporary = try TemporaryDirectory("FileCounterStorageTests")
  }

  func file(_ name: String = "counter.txt", containing text: String? = nil) throws -> URL {
    let url = directory.appending(path: name)
    if let text { try Data(text.utf8).write(to: url) }
    return url
  }

  func contents(of url: URL) throws -> String {
    String(decoding: try Data(contentsOf: url), as: UTF8.self)
  }

  @Test func aMissingFileIsNothingStoredYet() async throws {
    #expect(try await FileCounterStorage(url: file()).load() == nil)
  }

  @Test func aSavedCountLoadsBackAndReplacesTheOldOne() async throws {
    let storage = FileCounterStorage(url: try file(containing: "7\n"))
    #expect(try await storage.load() == 7)
    try await storage.save(12)
    #expect(try await storage.load() == 12)
    #expect(try contents(of: storage.url) == "12\n")
  }

  @Test func savingCreatesMissingDirectoriesAndLeavesNoTemporaryFile() async throws {
    let url = directory.appending(path: "a/b/counter.txt")
    try await FileCounterStorage(url: url).save(3)
    #expect(try contents(of: url) == "3\n")
    let left = try FileManager.default.contentsOfDirectory(
      atPath: url.deletingLastPathComponent().path)
    #expect(left == ["counter.txt"])
  }

  @Test(arguments: [
    "abc", "1.5", "12 apples", "99999999999999999999999", "-5", "-0", "1000000001", "++1", "+",
    "1 2", "0x10", "١٢",
  ])
  func aFileThatIsNotAWholeNumberIsCorrupt(text: String) async throws {
    let storage = FileCounterStorage(url: try file(containing: text))
    await #expect {
      try await storage.load()
    } throws: { error in
      guard case .corrupt? = error as? FileStorageError else { return false }
      return true
    }
  }

  @Test func aHugeFileIsCorrupt() async throws {
    let storage = FileCounterStorage(url: try file(containing: String(repeating: "1", count: 5000)))
    await #expect(
      throws: FileStorageError.corrupt(path: storage.url.path, reason: "larger than 4096 bytes")
    ) {
      try await storage.load()
    }
  }

  @Test func aFileThatIsNotUTF8IsCorrupt() async throws {
    let url = try file()
    try Data([0x31, 0xFF, 0x32]).write(to: url)
    await #expect(throws: FileStorageError.corrupt(path: url.path, reason: "not UTF-8 text")) {
      try await FileCounterStorage(url: url).load()
    }
  }

  @Test(arguments: [
    ("7", 7), ("+7", 7), ("  007 \n", 7), ("\t42\r\n", 42), ("0", 0), ("1000000000", 1_000_000_000),
  ])
  func countsInTheirWrittenForms(text: String, count: Int) async throws {
    #expect(try await FileCounterStorage(url: file(containing: text)).load() == count)
  }

  @Test(arguments: ["", " ", "\n\n", " \t\r\n"])
  func anEmptyOrBlankFileIsNothingStored(text: String) async throws {
    let storage = FileCounterStorage(url: try file(containing: text))
    #expect(try await storage.load() == nil)
    try await storage.save(4)
    #expect(try contents(of: storage.url) == "4\n")
  }

  /// Notes, a number out of range or anything else that is not a count is never replaced: every
  /// save fails and the file keeps what it held (SPEC L4).
  @Test(arguments: ["my notes\nbuy milk\n", "-5\n", "2000000000", "1.5"])
  func whatIsNotACountIsKeptAndSavesFail(text: String) async throws {
    let reports = ReportLog()
    let storage = FileCounterStorage(url: try file(containing: text)) { reports.add($0) }
    await #expect(throws: FileStorageError.self) { try await storage.load() }
    await #expect(throws: FileStorageError.keepsUnreadable(path: storage.url.path)) {
      try await storage.save(1)
    }
    #expect(try contents(of: storage.url) == text)
    #expect(reports.entries.last == .keepsUnreadable(path: storage.url.path))
  }

  /// A file that became something else after the load is not replaced either.
  @Test func aFileChangedToNotesAfterTheLoadIsKept() async throws {
    let storage = FileCounterStorage(url: try file(containing: "3"))
    #expect(try await storage.load() == 3)
    try Data("notes".utf8).write(to: storage.url)
    await #expect(throws: FileStorageError.keepsUnreadable(path: storage.url.path)) {
      try await storage.save(4)
    }
    #expect(try contents(of: storage.url) == "notes")
  }

  @Test func aFIFOIsNeverReplaced() async throws {
    let url = directory.appending(path: "fifo")
    #expect(mkfifo(url.path, 0o644) == 0)
    let storage = FileCounterStorage(url: url)
    await #expect {
      try await storage.load()
    } throws: { error in
      guard case .unreadable(_, "not a regular file")? = error as? FileStorageError else {
        return false
      }
      return true
    }
    await #expect(throws: FileStorageError.keepsUnreadable(path: url.path)) {
      try await storage.save(1)
    }
    var status = stat()
    #expect(lstat(url.path, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
  }

  @Test func aSymbolicLinkIsFollowed() async throws {
    let target = try file("real.txt", containing: "5")
    let link = directory.appending(path: "link.txt")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
    let storage = FileCounterStorage(url: link)
    #expect(try await storage.load() == 5)
    try await storage.save(6)
    #expect(try contents(of: target) == "6\n")
    let destination = try FileManager.default.destinationOfSymbolicLink(atPath: link.path)
    #expect(destination == target.path)
  }

  // MARK: One writer per file (SPEC L5)

  @Test func aSecondLockOnTheSameFileIsRefusedByAnyName() throws {
    let url = try file(containing: "1")
    let link = directory.appending(path: "other-name.txt")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: url)
    do {
      let first = try StorageLock(for: url)
      #expect(first.path == url.path + ".lock")
      for name in [url, link, directory.appending(path: "x/../counter.txt")] {
        #expect(throws: FileStorageError.inUse(path: name.path)) { _ = try StorageLock(for: name) }
      }
      withExtendedLifetime(first) {}
    }
    // Released with its holder: the next run takes it.
    _ = try StorageLock(for: url)
  }

  @Test func theLockHolderRemovesWhatKilledRunsLeft() throws {
    let url = try file(containing: "1")
    for leftover in [".counter.txt.123.456.tmp", ".counter.txt.9.9.tmp"] {
      try Data("2".utf8).write(to: directory.appending(path: leftover))
    }
    try Data("keep".utf8).write(to: directory.appending(path: ".other.txt.1.1.tmp"))
    let lock = try StorageLock(for: url)
    let left = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    #expect(left == [".other.txt.1.1.tmp", "counter.txt", "counter.txt.lock"])
    withExtendedLifetime(lock) {}
  }

  @Test func aPathThatIsADirectoryIsUnreadable() async throws {
    let url = directory.appending(path: "folder")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    await #expect {
      try await FileCounterStorage(url: url).load()
    } throws: { error in
      guard case .unreadable(_, let reason)? = error as? FileStorageError else { return false }
      return reason == "Is a directory"
    }
  }

  @Test func anUnwritableDirectoryFailsTheSaveAndKeepsTheOldFile() async throws {
    // A regular file where a directory should be: unwritable even for root.
    let blocker = try file("blocker", containing: "x")
    let storage = FileCounterStorage(url: blocker.appending(path: "counter.txt"))
    await #expect {
      try await storage.save(1)
    } throws: { error in
      guard case .unwritable? = error as? FileStorageError else { return false }
      return true
    }
    #expect(try contents(of: blocker) == "x")
  }

  @Test func failuresAndSuccessesAreReported() async throws {
    let reports = ReportLog()
    let blocker = try file("blocker", containing: "x")
    let broken = FileCounterStorage(url: blocker.appending(path: "counter.txt")) { reports.add($0) }
    let working = FileCounterStorage(url: try file()) { reports.add($0) }
    _ = try? await broken.save(1)
    try await working.save(1)
    #expect(reports.entries.map { $0 == nil } == [false, true])
    #expect(reports.entries.first??.description.hasPrefix("storage: cannot write ") == true)
  }

  @Test func theDefaultFileFollowsXDGThenHome() {
    let folder = "swift-unidirectional-architectures/counter.txt"
    #expect(
      DataDirectory.counterFile(environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/u"])?.path
        == "/data/\(folder)")
    #if os(Linux)
      // A relative XDG_DATA_HOME is invalid by the XDG spec and ignored.
      #expect(
        DataDirectory.counterFile(environment: ["XDG_DATA_HOME": "data", "HOME": "/home/u"])?.path
          == "/home/u/.local/share/\(folder)")
    #endif
    #expect(DataDirectory.counterFile(environment: [:]) == nil)
  }
}

/// Collects what a storage reported.
final class ReportLog: Sendable {
  private let storage = Lock<[FileStorageError?]>([])
  func add(_ report: FileStorageError?) { storage.withLock { $0.append(report) } }
  var entries: [FileStorageError?] { storage.withLock { $0 } }
}
