import Kernel

/// Todo storage whose `loadTodos` follows a script and whose saves stay pending until the
/// scenario, or the end of its step, ends them (SPEC §1 "Scenario timing").
public final class FakeTodoStorage: TodoStorage {
  /// What `loadTodos()` does.
  public enum LoadScript: Sendable, Hashable, CustomStringConvertible {
    /// Returns the records at once.
    case value([TodoRecord]?)
    /// Throws at once.
    case failure
    /// Stays pending until the scenario completes it.
    case pending

    public var description: String {
      switch self {
      case .value(let records?): describeList(records)
      case .value(nil): "nil"
      case .failure: "an error"
      case .pending: "pending"
      }
    }
  }

  private struct State {
    var holdsSaves: Bool
    var failingSaves = 0
  }

  private let script: LoadScript
  private let recorder: CallRecorder
  private let loads: PendingCalls<[TodoRecord]?>
  private let saves: PendingCalls<Void>
  private let state: Lock<State>

  public init(
    load script: LoadScript, recorder: CallRecorder, honorsCancellation: Bool = true,
    holdsSaves: Bool = false
  ) {
    self.script = script
    self.recorder = recorder
    loads = PendingCalls(recorder: recorder, honorsCancellation: honorsCancellation)
    saves = PendingCalls(recorder: recorder, honorsCancellation: honorsCancellation)
    state = Lock(State(holdsSaves: holdsSaves))
  }

  public func loadTodos() async throws -> [TodoRecord]? {
    switch script {
    case .value(let records):
      recorder.record(.loadTodos)
      return records
    case .failure:
      recorder.record(.loadTodos)
      throw FakeFailure("storage is unreadable")
    case .pending:
      return try await loads.wait(for: .loadTodos)
    }
  }

  public func saveTodos(_ todos: [TodoRecord]) async throws {
    try await saves.wait(for: .saveTodos(todos))
  }

  /// Completes the pending load with `result`.
  @discardableResult
  public func completeLoad(_ result: LoadScript) -> Bool {
    let value: Result<[TodoRecord]?, any Error> =
      switch result {
      case .value(let records): .success(records)
      case .failure, .pending: .failure(FakeFailure("storage is unreadable"))
      }
    return loads.answer(value) { _ in true } != nil
  }

  /// Makes the next save that ends on its own fail.
  public func failNextSave() { state.withLock { $0.failingSaves += 1 } }

  /// Whether saves stay pending until ``answerSave(failing:count:)`` ends them.
  public func holdSaves(_ holds: Bool) { state.withLock { $0.holdsSaves = holds } }

  /// Ends the oldest pending save (the one holding `count` records, if given).
  ///
  /// - Returns: Whether a save was pending.
  @discardableResult
  public func answerSave(failing: Bool, count: Int? = nil) -> Bool {
    let result: Result<Void, any Error> =
      failing ? .failure(FakeFailure("disk full")) : .success(())
    return saves.answer(result) { call in
      guard case .saveTodos(let records) = call else { return false }
      return count == nil || records.count == count
    } != nil
  }

  /// Unless saves are held, ends every pending save: it succeeds, or fails if a failure was
  /// asked for.
  func completeDueSaves() -> Bool {
    guard !state.withLock({ $0.holdsSaves }) else { return false }
    var completed = false
    while !saves.pending.isEmpty {
      let fails = state.withLock { state in
        guard state.failingSaves > 0 else { return false }
        state.failingSaves -= 1
        return true
      }
      if answerSave(failing: fails) { completed = true } else { break }
    }
    return completed
  }

  func abandonPendingCalls() {
    loads.abandonAll()
    saves.abandonAll()
  }
}
