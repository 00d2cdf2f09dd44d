import Kernel

/// Counter storage whose `load` follows a script and whose saves can be made to fail, or held
/// pending until the scenario ends them (C5: a change made while a save is held waits for it).
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
  private let saves: PendingCalls<Void>
  private let state: Lock<SaveState>

  private struct SaveState {
    var failing = 0
    var holds = false
  }

  public init(
    load script: LoadScript, recorder: CallRecorder, honorsCancellation: Bool = true,
    holdsSaves: Bool = false
  ) {
    self.script = script
    self.recorder = recorder
    loads = PendingCalls(recorder: recorder, honorsCancellation: honorsCancellation)
    saves = PendingCalls(recorder: recorder, honorsCancellation: honorsCancellation)
    state = Lock(SaveState(holds: holdsSaves))
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

  /// Ends at once (failing if a failure was asked for), or, while saves are held, stays
  /// pending until ``answerSave(failing:)`` ends it.
  public func save(_ count: Int) async throws {
    if state.withLock({ $0.holds }) {
      return try await saves.wait(for: .save(count))
    }
    recorder.record(.save(count))
    if takeFailure() { throw FakeFailure("disk full") }
  }

  private func takeFailure() -> Bool {
    state.withLock { state in
      guard state.failing > 0 else { return false }
      state.failing -= 1
      return true
    }
  }

  /// Makes the next save that ends on its own throw.
  public func failNextSave() {
    state.withLock { $0.failing += 1 }
  }

  /// Whether saves stay pending until ``answerSave(failing:)`` ends them.
  public func holdSaves(_ holds: Bool) { state.withLock { $0.holds = holds } }

  /// Ends the oldest pending save.
  ///
  /// - Returns: Whether a save was pending.
  @discardableResult
  public func answerSave(failing: Bool) -> Bool {
    saves.answer(failing ? .failure(FakeFailure("disk full")) : .success(())) { _ in true } != nil
  }

  /// Saves that are pending, oldest first.
  public var pendingSaves: [EnvironmentCall] { saves.pending }

  /// Unless saves are held, ends every pending save (held before, then let go): it succeeds,
  /// or fails if a failure was asked for.
  func completeDueSaves() -> Bool {
    guard !state.withLock({ $0.holds }) else { return false }
    var completed = false
    while !saves.pending.isEmpty, answerSave(failing: takeFailure()) { completed = true }
    return completed
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

  func abandonPendingCalls() {
    loads.abandonAll()
    saves.abandonAll()
  }
}
