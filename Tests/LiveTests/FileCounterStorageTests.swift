import ArchitectureSpec
import Foundation
import LiveEnvironment
import Synchronization
import Testing

/// The counter's file storage against real files in a fresh temporary directory.
@Suite struct FileCounterStorageTests {
  let directory: URL

  init() throws {
    directory = FileManager.default.temporaryDirectory
      .appending(path: "FileCounterStorageTests-\(UUID().uuidString)", directoryHint: .isDirectory)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
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

  @Test(arguments: ["abc", "", "1.5", "12 apples", "99999999999999999999999"])
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

  @Test func outOfRangeValuesAreReturnedForTheAppToReject() async throws {
    #expect(try await FileCounterStorage(url: file("a", containing: "-5")).load() == -5)
    #expect(
      try await FileCounterStorage(url: file("b", containing: "2000000000")).load() == 2_000_000_000
    )
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
  private let storage = Mutex<[FileStorageError?]>([])
  func add(_ report: FileStorageError?) { storage.withLock { $0.append(report) } }
  var entries: [FileStorageError?] { storage.withLock { $0 } }
}
