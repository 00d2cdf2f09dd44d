import Kernel

/// Strings collected from several tasks, in the order they arrived.
final class Lines: Sendable {
  private let state = Lock<[String]>([])
  func append(_ line: String) { state.withLock { $0.append(line) } }
  var all: [String] { state.withLock { $0 } }
}
