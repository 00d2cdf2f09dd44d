import ArchitectureSpec
import Foundation
import LiveEnvironment
import Testing

/// The todos' file storage against real files in a fresh temporary directory.
@Suite struct FileTodoStorageTests {
  /// Removed, with the files a test made, after each test.
  let temporary: TemporaryDirectory
  var directory: URL { temporary.url }

  init() throws {
    temporary = try TemporaryDirectory("FileTodoStorageTests")
  }

  func file(_ name: String = "todos.json", containing text: String? = nil) throws -> URL {
    let url = directory.appending(path: name)
    if let text { try Data(text.utf8).write(to: url) }
    return url
  }

  func contents(of url: URL) throws -> String {
    String(decoding: try Data(contentsOf: url), as: UTF8.self)
  }

  let list = [
    TodoRecord(id: 1, title: "Milk", done: true),
    TodoRecord(id: 4, title: "  \"quoted\" é\n", done: false),
  ]

  @Test(arguments: [nil, "", "  \n\t "])
  func aMissingOrEmptyFileIsNothingStoredYet(text: String?) async throws {
    #expect(try await FileTodoStorage(url: file(containing: text)).loadTodos() == nil)
  }

  @Test func aSavedListLoadsBackExactly() async throws {
    let storage = FileTodoStorage(url: try file())
    try await storage.saveTodos(list)
    #expect(try await FileTodoStorage(url: storage.url).loadTodos() == list)
    #expect(
      try contents(of: storage.url)
        == #"[{"done":true,"id":1,"title":"Milk"},{"done":false,"id":4,"title":"  \"quoted\" é\n"}]"#
        + "\n")
  }

  @Test func savingReplacesAtomicallyAndLeavesNoTemporaryFile() async throws {
    let url = directory.appending(path: "a/b/todos.json")
    let storage = FileTodoStorage(url: url)
    try await storage.saveTodos(list)
    try await storage.saveTodos([])
    #expect(try contents(of: url) == "[]\n")
    let left = try FileManager.default.contentsOfDirectory(
      atPath: url.deletingLastPathComponent().path)
    #expect(left == ["todos.json"])
  }

  @Test(arguments: [
    "[{\"id\": 1, \"title\": \"cut", "{}", "[{\"id\": 1}]",
    "[{\"id\": \"1\", \"title\": \"a\", \"done\": false}]",
    "[{\"id\": 0, \"title\": \"a\", \"done\": false}]",
    "[{\"id\": 1, \"title\": \"a\", \"done\": false}, {\"id\": 1, \"title\": \"b\", \"done\": true}]",
    "[{\"id\": 1, \"title\": \"  \", \"done\": false}]",
  ])
  func aDamagedListIsReportedAndKept(text: String) async throws {
    let url = try file(containing: text)
    let storage = FileTodoStorage(url: url)
    await #expect {
      try await storage.loadTodos()
    } throws: { error in
      guard case .notTodos? = error as? FileStorageError else { return false }
      return true
    }
    await #expect(throws: FileStorageError.keepsUnreadable(path: url.path)) {
      try await storage.saveTodos(list)
    }
    #expect(try contents(of: url) == text, "the file is left as it was")
  }

  @Test func aDirectoryIsUnreadable() async throws {
    let url = directory.appending(path: "folder")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    await #expect {
      try await FileTodoStorage(url: url).loadTodos()
    } throws: { error in
      guard case .unreadable? = error as? FileStorageError else { return false }
      return true
    }
  }

  /// Found by the fuzzer: a file ending in its 513th unclosed `[` made Foundation's decoder
  /// trap. It is a file that is not a list, kept as it is.
  @Test func aFileNested513DeepIsNotAList() async throws {
    let storage = FileTodoStorage(url: try file(containing: String(repeating: "[", count: 513)))
    await #expect {
      try await storage.loadTodos()
    } throws: { error in
      guard case .notTodos? = error as? FileStorageError else { return false }
      return true
    }
  }

  @Test func anUnwritablePlaceFailsTheSave() async throws {
    let blocker = try file("plain", containing: "x")
    let storage = FileTodoStorage(url: blocker.appending(path: "todos.json"))
    #expect(try await storage.loadTodos() == nil)
    await #expect {
      try await storage.saveTodos(list)
    } throws: { error in
      guard case .unwritable? = error as? FileStorageError else { return false }
      return true
    }
  }

  /// A list replaced by notes after the load is kept, and saves fail from then on (SPEC L4).
  @Test func aFileThatBecameSomethingElseIsKept() async throws {
    let storage = FileTodoStorage(
      url: try file(containing: #"[{"id":1,"title":"A","done":false}]"#))
    #expect(try await storage.loadTodos()?.count == 1)
    try await storage.saveTodos([TodoRecord(id: 1, title: "B", done: false)])
    try Data("my notes".utf8).write(to: storage.url)
    await #expect(throws: FileStorageError.keepsUnreadable(path: storage.url.path)) {
      try await storage.saveTodos([TodoRecord(id: 1, title: "C", done: false)])
    }
    #expect(String(decoding: try Data(contentsOf: storage.url), as: UTF8.self) == "my notes")
  }

  /// A list another program rewrote (still a list) is replaced as usual.
  @Test func aFileRewrittenAsAListIsReplaced() async throws {
    let storage = FileTodoStorage(url: try file())
    try await storage.saveTodos([TodoRecord(id: 1, title: "A", done: false)])
    try Data(#"[{"id":2,"title":"Z","done":true}]"#.utf8).write(to: storage.url)
    try await storage.saveTodos([TodoRecord(id: 3, title: "C", done: false)])
    #expect(try await storage.loadTodos() == [TodoRecord(id: 3, title: "C", done: false)])
  }

  @Test func aLargeListRoundTrips() async throws {
    let large = (1...100_000).map { TodoRecord(id: $0, title: "Task \($0)", done: $0 % 2 == 0) }
    let storage = FileTodoStorage(url: try file())
    try await storage.saveTodos(large)
    #expect(try await storage.loadTodos() == large)
  }
}
