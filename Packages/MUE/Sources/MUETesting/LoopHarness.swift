import MUE

/// A loop under test: runs the real update and effect handler (with fakes injected into it) on
/// an executor of its own, and records every state it published and every effect it started.
///
/// ```swift
/// @Test func savesEachChange() async {
///   let storage = FakeStorage()
///   let harness = LoopHarness(update: CounterUpdate(),
///                             effectHandler: CounterEffects(storage: storage),
///                             state: CounterState())
///   await harness.start()
///   await harness.send(.increment)
///   harness.expect(states: [CounterState(), CounterState(count: 1)], effects: [.save(1)])
///   #expect(storage.saved == [1])
/// }
/// ```
///
/// `start`, `send` and ``settle()`` return once the loop has handled everything queued and every
/// effect handler has finished or waits on something outside the loop, so nothing sleeps.
public final class LoopHarness<U: Update, H: EffectHandler> where H.Effect == U.Effect {
  /// One message the loop handled.
  public struct Step {
    /// What arrived: `"first(state:)"`, an event or `"result …"`.
    public var input: String
    /// The state after it.
    public var state: U.State
    /// The effects it started, in order.
    public var effects: [U.Effect]
    /// The effect ids it cancelled, in order.
    public var cancellations: [U.Effect.ID]
    /// The running effects the loop cancelled because this message removed their child from
    /// the state (`Update.children`).
    public var dismissed: [U.Effect.ID]
  }

  /// The loop under test.
  public let loop: Loop<U, H>
  private let executor: TestExecutor
  private let record = Lock<
    (steps: [Step], states: [U.State], checkedSteps: Int, checkedStates: Int)
  >(
    ([], [], 0, 0))

  /// A harness around a loop of `update` and `effectHandler` starting from `state`; it
  /// observes the loop at once, so ``states`` begins with `state`.
  public init(update: U, effectHandler: H, state: U.State) {
    let executor = TestExecutor.acquire()
    let record = self.record
    self.executor = executor
    loop = Loop(
      update: update, effectHandler: effectHandler, state: state, executor: executor,
      monitor: { processed in
        let input: String =
          switch processed.input {
          case .first: "first(state:)"
          case .event(let event): "\(event)"
          case .result(let value): "result \(value)"
          }
        let step = Step(
          input: input, state: processed.after, effects: processed.effects,
          cancellations: processed.cancellations, dismissed: processed.dismissed)
        record.withLock { $0.steps.append(step) }
      })
    loop.observe { state in record.withLock { $0.states.append(state) } }
  }

  deinit {
    loop.stop()
    executor.release()
  }

  /// Starts the loop and settles.
  public func start() async {
    loop.start()
    await settle()
  }

  /// Sends `events` in order, settling after each.
  public func send(_ events: U.Event...) async {
    for event in events {
      loop.send(event)
      await settle()
    }
  }

  /// Returns when the queue is empty and every effect handler has finished or is suspended
  /// outside the loop. Call it after making a fake answer or advancing a clock.
  public func settle() async {
    await executor.quiescence()
  }

  /// Stops the loop.
  public func stop() {
    loop.stop()
  }

  /// The loop's state now.
  public var state: U.State { loop.state }

  /// Every state the loop published, the initial one first.
  public var states: [U.State] { record.withLock { $0.states } }

  /// Every message the loop handled, in order.
  public var steps: [Step] { record.withLock { $0.steps } }

  /// Every effect the loop started, in order.
  public var effects: [U.Effect] { steps.flatMap(\.effects) }
}

extension LoopHarness where U.Effect: Equatable {
  /// Checks the states published and the effects started since the last `expect` (or since
  /// the harness was made), in order, and moves past them.
  ///
  /// With `dismissed`, also checks that the loop cancelled exactly these running effects (in
  /// any order) because their child left the state — what an ``UpdateSpec`` says with
  /// `then(…, dismissed:)`, here against the running loop.
  public func expect(
    states expectedStates: [U.State], effects expectedEffects: [U.Effect],
    dismissed expectedDismissed: [U.Effect.ID]? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) {
    let sourceLocation = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let (states, steps) = takeUnchecked()
    let effects = steps.flatMap(\.effects)
    var failures: [String] = []
    let dismissed = steps.flatMap(\.dismissed)
    if let expectedDismissed,
      Set(dismissed) != Set(expectedDismissed) || dismissed.count != expectedDismissed.count
    {
      failures.append(
        "effects ended with a dismissed child differ:\n  expected: \(list(expectedDismissed))\n"
          + "  actual:   \(list(dismissed))")
    }
    if states != expectedStates {
      failures.append(
        "published states differ: (− expected, + actual)\n"
          + lineDiff(expected: expectedStates, actual: states))
    }
    if effects != expectedEffects {
      failures.append(
        "effects differ:\n  expected: \(list(expectedEffects))\n  actual:   \(list(effects))")
    }
    report(failures, after: steps, at: sourceLocation)
  }
}

extension LoopHarness where U.Effect: Equatable {
  /// Checks what a child observer would have seen since the last `expect`: the child at
  /// `path` in each published state, repeats dropped — and every effect started, in order —
  /// then moves past them, as ``expect(states:effects:dismissed:fileID:filePath:line:column:)`` does.
  public func expect<Child: Equatable>(
    child path: KeyPath<U.State, Child>, states expectedChildren: [Child],
    effects expectedEffects: [U.Effect],
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) {
    let sourceLocation = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let (states, steps) = takeUnchecked()
    var children: [Child] = []
    for state in states where children.last != state[keyPath: path] {
      children.append(state[keyPath: path])
    }
    let effects = steps.flatMap(\.effects)
    var failures: [String] = []
    if children != expectedChildren {
      failures.append(
        "published child states differ: (− expected, + actual)\n"
          + lineDiff(expected: expectedChildren, actual: children))
    }
    if effects != expectedEffects {
      failures.append(
        "effects differ:\n  expected: \(list(expectedEffects))\n  actual:   \(list(effects))")
    }
    report(failures, after: steps, at: sourceLocation)
  }
}

extension LoopHarness {
  /// The states published and the steps taken since the last `expect`; marks them checked.
  fileprivate func takeUnchecked() -> (states: [U.State], steps: [Step]) {
    record.withLock { record in
      defer {
        record.checkedStates = record.states.count
        record.checkedSteps = record.steps.count
      }
      return (
        Array(record.states[record.checkedStates...]), Array(record.steps[record.checkedSteps...])
      )
    }
  }

  /// Fails the test with `failures`, naming the inputs of `steps`.
  fileprivate func report(_ failures: [String], after steps: [Step], at site: CallSite) {
    guard !failures.isEmpty else { return }
    let inputs = steps.map(\.input).joined(separator: ", ")
    reportFailure(
      (["after \(inputs.isEmpty ? "nothing" : inputs):"] + failures).joined(separator: "\n"),
      at: site)
  }
}
