import Kernel

/// Counter storage whose `load` follows a script and whose saves can be made to fail.
public final class FakeStorage: CounterStorage {
  /// What `load()` does.
  public enum LoadScript: Sendable, Hashable, CustomStringConvertible {
    /// Returns the value at once.
    case value(Int?)
    /// Throws at once.
    case failure
    /// Stays pending until the scenario completes it.
    case pending

    public var description: String {
      switch self {
      case .value(let value?): "\(value)"
      case .value(nil): "nil"
      case .failure: "an error"
      case .pending: "pending"
      }
    }
  }

  private let script: LoadScript
  private let recorder: CallRecorder
  private let loads: PendingCalls<Int?>
  private let failingSaves = Lock(0)

  public init(load script: LoadScript, recorder: CallRecorder, honorsCancellation: Bool = true) {
    self.script = script
    self.recorder = recorder
    self.loads = PendingCalls(recorder: recorder, honorsCancellation: honorsCancellation)
  }

  public func load() async throws -> Int? {
    switch script {
    case .value(let value):
      recorder.record(.load)
      return value
    case .failure:
      recorder.record(.load)
      throw FakeFailure("storage is unreadable")
    case .pending:
      return try await loads.wait(for: .load)
    }
  }

  public func save(_ count: Int) async throws {
    recorder.record(.save(count))
    let fails = failingSaves.withLock { failing in
      guard failing > 0 else { return false }
      failing -= 1
      return true
    }
    if fails { throw FakeFailure("disk full") }
  }

  /// Makes the next save throw.
  public func failNextSave() {
    failingSaves.withLock { $0 += 1 }
  }

  /// Completes the pending load with `result`.
  ///
  /// - Returns: Whether a load was pending.
  @discardableResult
  public func completeLoad(_ result: LoadScript) -> Bool {
    let value: Result<Int?, any Error> =
      switch result {
      case .value(let value): .success(value)
      case .failure, .pending: .failure(FakeFailure("storage is unreadable"))
      }
    return loads.answer(value) { _ in true } != nil
  }

  /// Whether a load waits for an answer.
  public var isLoadPending: Bool { !loads.pending.isEmpty }

  func abandonPendingCalls() { loads.abandonAll() }
}
