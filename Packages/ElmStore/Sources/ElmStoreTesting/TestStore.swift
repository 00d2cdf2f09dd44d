import ElmStore

/// A store for tests that asserts every state change and every action effects dispatch back.
///
/// ```swift
/// @Test func incrementSaves() async {
///   let store = TestStore(initialState: Counter.State(), update: Counter.update,
///                         effect: Counter.effect(storage))
///   await store.send(.increment) { $0.count = 1 }
///   await store.receive(.saved(1)) { $0.lastSaved = 1 }
///   await store.finish()
/// }
/// ```
///
/// Effects run on the test store's own executor. After each `send` and before each `receive`
/// the test store waits until every effect has finished or is suspended on something outside
/// it (a clock, a service), so nothing sleeps and nothing races.
///
/// By default the test store is exhaustive: `send` and `receive` must describe the whole state
/// change, every action an effect dispatches must be received, and `finish()` fails if effects
/// are still running. With ``exhaustivity`` `.off`, only the fields a closure sets are checked,
/// unasserted received actions are skipped, and effects may outlive the test.
public final class TestStore<State: Equatable & Sendable, Action: Equatable & Sendable> {
  /// How strict assertions are.
  public enum Exhaustivity: Sendable, Hashable {
    /// Every state change, received action and running effect must be accounted for.
    case on
    /// Only what the test asserts is checked.
    case off
  }

  /// How strict assertions are; `.on` unless set.
  public var exhaustivity: Exhaustivity = .on

  private let store: Store<State, Action>
  private let executor: TestExecutor
  private let log: ProcessedLog<State, Action>
  private var received: [Processed<State, Action>] = []
  /// Every action handled so far, with the runs its effect started: whose work a dismissed
  /// child's is (``send(_:dismissing:assert:fileID:filePath:line:column:)``).
  var history: [Processed<State, Action>] = []
  private var isFinished = false

  /// The work the last dismissal ended: each run that began in an action that changed the
  /// dismissed child, described by its id and the children it is filed under
  /// (`\State.form #1 › create`).
  public internal(set) var endedByLastDismissal: [String] = []

  /// Creates a test store, which runs effects on an executor of its own.
  public init(
    initialState: State,
    update: @escaping @Sendable (inout State, Action) -> Void,
    effect: Effect<State, Action> = .none
  ) {
    let log = ProcessedLog<State, Action>()
    let executor = TestExecutor.acquire()
    self.log = log
    self.executor = executor
    store = Store(
      state: initialState, update: update, effect: effect, initialAction: nil,
      executor: executor, monitor: { log.append($0) })
  }

  deinit {
    store.stop()
    executor.release()
  }

  /// The state now.
  public var state: State { store.state }

  /// Sends `action` and asserts the state change it makes.
  ///
  /// - Parameters:
  ///   - action: The action, as the user or the app would dispatch it.
  ///   - updateExpectingResult: Sets the fields the action is expected to change, starting from
  ///     the state before it (exhaustive) or from the state after it (non-exhaustive).
  ///   - fileID: Where the failure is reported: the caller's file (default).
  ///   - filePath: The caller's file path, for XCTest (default).
  ///   - line: The caller's line (default).
  ///   - column: The caller's column (default).
  public func send(
    _ action: Action,
    assert updateExpectingResult: ((inout State) -> Void)? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) async {
    let sourceLocation = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    if exhaustivity == .on, !received.isEmpty {
      fail(
        "Must handle \(received.count) received action(s) before sending \(action):\n"
          + received.map { "  \($0.action)" }.joined(separator: "\n"),
        sourceLocation: sourceLocation)
    }
    store.dispatch(action)
    await settle()
    var records = drainLog()
    guard let index = records.firstIndex(where: { !$0.isFromEffect && $0.action == action }) else {
      fail(
        "\(action) was not handled: the store is stopped or finished.",
        sourceLocation: sourceLocation)
      return
    }
    let record = records.remove(at: index)
    received += records
    check(record, updateExpectingResult, sourceLocation: sourceLocation)
  }

  /// Asserts that an effect dispatched `action`, and the state change it made.
  ///
  /// Exhaustive: `action` must be the next action effects dispatched. Non-exhaustive: earlier
  /// received actions are skipped.
  public func receive(
    _ action: Action,
    assert updateExpectingResult: ((inout State) -> Void)? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) async {
    let sourceLocation = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    await settle()
    received += drainLog()
    guard !received.isEmpty else {
      fail(
        "Expected to receive \(action), but no action was received.",
        sourceLocation: sourceLocation)
      return
    }
    switch exhaustivity {
    case .on:
      let next = received.removeFirst()
      guard next.action == action else {
        fail(
          "Expected to receive \(action), but received \(next.action).\n"
            + lineDiff(expected: action, actual: next.action),
          sourceLocation: sourceLocation)
        return
      }
      check(next, updateExpectingResult, sourceLocation: sourceLocation)
    case .off:
      guard let index = received.firstIndex(where: { $0.action == action }) else {
        fail(
          "Expected to receive \(action), but received only "
            + received.map { "\($0.action)" }.joined(separator: ", ") + ".",
          sourceLocation: sourceLocation)
        return
      }
      let next = received[index]
      received.removeSubrange(...index)
      check(next, updateExpectingResult, sourceLocation: sourceLocation)
    }
  }

  /// Whether `action` was received and not asserted yet (after letting effects settle).
  func hasReceived(_ action: Action) async -> Bool {
    await settle()
    received += drainLog()
    return received.contains { $0.action == action }
  }

  /// Skips the actions received so far without asserting them.
  public func skipReceivedActions() async {
    await settle()
    received += drainLog()
    received.removeAll()
  }

  /// Ends the test: exhaustive, fails if a received action was not asserted or an effect is
  /// still running; then stops the store.
  public func finish(
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) async {
    let sourceLocation = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    await settle()
    received += drainLog()
    defer {
      isFinished = true
      store.stop()
    }
    guard exhaustivity == .on else { return }
    if !received.isEmpty {
      fail(
        "\(received.count) received action(s) were not asserted:\n"
          + received.map { "  \($0.action)" }.joined(separator: "\n"),
        sourceLocation: sourceLocation)
    }
    let running = store.runningEffectCount
    if running > 0 {
      fail(
        "\(running) effect(s) are still running. Cancel them (a stop action, say) or make "
          + "the test non-exhaustive.",
        sourceLocation: sourceLocation)
    }
  }

  /// The actions handled since the last look, kept in the history too.
  private func drainLog() -> [Processed<State, Action>] {
    let records = log.drain()
    history += records
    return records
  }

  /// Whether `run` is still going.
  func isRunning(_ run: Run<AnyWorkID>) -> Bool { store.isRunning(run) }

  /// Waits until every effect has finished or is suspended outside the store.
  func settle() async {
    await executor.quiescence()
  }

  func check(
    _ record: Processed<State, Action>, _ updateExpectingResult: ((inout State) -> Void)?,
    sourceLocation: CallSite
  ) {
    var expected = exhaustivity == .on ? record.before : record.after
    updateExpectingResult?(&expected)
    guard expected != record.after else { return }
    fail(
      "State after \(record.action) differs from the expected state (− expected, + actual):\n"
        + lineDiff(expected: expected, actual: record.after),
      sourceLocation: sourceLocation)
  }
}

/// Records a test failure with `message`.
func fail(_ message: String, sourceLocation: CallSite) {
  reportFailure(message, at: sourceLocation)
}

/// The actions a store applied, as its monitor reports them.
private final class ProcessedLog<State: Sendable, Action: Sendable>: Sendable {
  private let records = Lock<[Processed<State, Action>]>([])
  func append(_ record: Processed<State, Action>) { records.withLock { $0.append(record) } }
  func drain() -> [Processed<State, Action>] {
    records.withLock { records in
      defer { records = [] }
      return records
    }
  }
}
