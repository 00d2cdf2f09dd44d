import Foundation

/// A directory of its own under the system's temporary directory, for one test: removed with
/// everything in it when the test's suite value is released, so test runs leave nothing behind.
final class TemporaryDirectory: Sendable {
  let url: URL

  /// A new directory's place, named after `prefix`, not made yet: for code that makes it.
  init(notMade prefix: String) {
    url = FileManager.default.temporaryDirectory
      .appending(path: "\(prefix)-\(UUID().uuidString)", directoryHint: .isDirectory)
  }

  /// A new directory named after `prefix`, made now.
  convenience init(_ prefix: String) throws {
    self.init(notMade: prefix)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: url) }
}
