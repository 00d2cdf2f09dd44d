import MUE

/// A pure given/when/then spec for an `Update`, in the spirit of Mobius's `UpdateSpec`: given a
/// state, when events (or effect results) arrive, then the state is this and exactly these
/// effects were dispatched. Nothing runs but the update.
///
/// ```swift
/// let spec = UpdateSpec(CounterUpdate())
///
/// @Test func incrementSaves() {
///   spec.given(CounterState(count: 1))
///     .when(.increment, .increment)
///     .then(state: CounterState(count: 3), effects: [.save(2), .save(3)])
/// }
///
/// @Test func loadsFirst() {
///   spec.given(CounterState()).whenStarting().then(state: CounterState(), effects: [.load])
/// }
/// ```
///
/// A mismatch records an issue with a line diff of the states (− expected, + actual) and the
/// two effect lists.
public struct UpdateSpec<U: Update>: Sendable {
  /// The update under test.
  public let update: U

  /// A spec for `update`.
  public init(_ update: U) { self.update = update }

  /// Starts a spec from `state`.
  public func given(_ state: U.State) -> Given { Given(update: update, state: state, running: []) }

  /// Starts a spec from `state` with the effects under `running` going, as a loop would have
  /// them: the outcome says which of them a dismissal ends (``Outcome/dismissed``), by the
  /// update's `Update.children`.
  ///
  /// ```swift
  /// spec.given(stackOfTwo, running: [.screen(1, .details), .screen(2, .details)])
  ///   .when(.back)
  ///   .then(state: stackOfOne, dismissed: [.screen(2, .details)])
  /// ```
  public func given(_ state: U.State, running: [U.Effect.ID]) -> Given {
    Given(update: update, state: state, running: running)
  }

  /// What arrives at an update: an event or an effect's result.
  public enum Input {
    case event(U.Event)
    case result(U.Effect.Result)
  }

  /// A state to apply inputs to.
  public struct Given: Sendable {
    let update: U
    let state: U.State
    let running: [U.Effect.ID]

    /// Applies `events` in order.
    public func when(_ events: U.Event...) -> Outcome { when(events.map(Input.event)) }

    /// Applies effect `results` in order.
    public func when(results: U.Effect.Result...) -> Outcome { when(results.map(Input.result)) }

    /// Applies `inputs`, events and results mixed, in order.
    public func when(_ inputs: [Input]) -> Outcome {
      var outcome = Outcome(inputs: inputs.map(describe), given: state)
      var children = RunningChildren<U>(update.children, running: running, in: state)
      for input in inputs {
        let result =
          switch input {
          case .event(let event): update.handle(event: event, outcome.state)
          case .result(let value): update.handle(result: value, outcome.state)
          }
        outcome.absorb(result)
        outcome.dismissed += children.follow(result, to: outcome.state)
      }
      return outcome
    }

    /// Applies the update's `first(state:)`, as a loop's `start()` does.
    public func whenStarting() -> Outcome {
      let first = update.first(state: state)
      var outcome = Outcome(inputs: ["first(state:)"], given: state)
      outcome.absorb(UpdateResult(state: first.initialState, effects: first.initialEffects))
      return outcome
    }

    private func describe(_ input: Input) -> String {
      switch input {
      case .event(let event): "\(event)"
      case .result(let value): "result \(value)"
      }
    }
  }

  /// The state after the inputs, and everything they dispatched and cancelled, in order.
  public struct Outcome: Sendable {
    let inputs: [String]
    /// The state the inputs were given.
    public let given: U.State
    /// The state after the last input.
    public internal(set) var state: U.State
    /// Every effect the inputs dispatched, in order.
    public internal(set) var effects: [U.Effect] = []
    /// Every effect id the inputs cancelled, in order.
    public internal(set) var cancellations: [U.Effect.ID] = []
    /// The running effects a loop would cancel because the inputs removed their child from the
    /// state (`Update.children`): of those given as running, and those the inputs started.
    public internal(set) var dismissed: [U.Effect.ID] = []

    init(inputs: [String], given: U.State) {
      self.inputs = inputs
      self.given = given
      state = given
    }

    mutating func absorb(_ result: UpdateResult<U.State, U.Effect>) {
      if let next = result.state { state = next }
      effects += result.effects
      cancellations += result.cancellations
    }
  }
}

/// The update's children as a loop tracks them, for a spec: which running effects a
/// dismissal ends.
private struct RunningChildren<U: Update> {
  var trackers: [ChildTracker<U.State, U.Effect.ID>]
  var running: Set<U.Effect.ID>

  init(_ children: MUE.Children<U.State, U.Effect.ID>, running: [U.Effect.ID], in state: U.State) {
    trackers = children.makeTrackers()
    self.running = Set(running)
    for id in running { started(id, in: state) }
  }

  mutating func started(_ id: U.Effect.ID, in state: U.State) {
    for index in trackers.indices { trackers[index].started(id, in: state) }
  }

  /// Follows one result to `state`: the running effects it dismissed, in a stable order.
  mutating func follow(_ result: UpdateResult<U.State, U.Effect>, to state: U.State)
    -> [U.Effect.ID]
  {
    var dismissed: [U.Effect.ID] = []
    if result.state != nil {
      for index in trackers.indices {
        dismissed += trackers[index].endedWork(in: state).filter { running.remove($0) != nil }
      }
    }
    for id in result.cancellations { running.remove(id) }
    for effect in result.effects {
      guard let id = effect.id else { continue }
      running.insert(id)
      started(id, in: state)
    }
    return dismissed.sorted { "\($0)" < "\($1)" }
  }
}

extension UpdateSpec.Outcome where U.Effect: Equatable {
  /// Checks the state and that exactly `effects` were dispatched, and exactly `cancellations`
  /// cancelled, in this order; and that the inputs dismissed children whose running effects
  /// are exactly `dismissed` (in any order), which the loop cancels without the update asking.
  public func then(
    state expected: U.State, effects expectedEffects: [U.Effect] = [],
    cancellations expectedCancellations: [U.Effect.ID] = [],
    dismissed expectedDismissed: [U.Effect.ID] = [],
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) {
    let sourceLocation = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    var failures: [String] = []
    if state != expected {
      failures.append(
        "state differs: (− expected, + actual)\n" + lineDiff(expected: expected, actual: state))
    }
    if effects != expectedEffects {
      failures.append(
        "effects differ:\n  expected: \(list(expectedEffects))\n  actual:   \(list(effects))")
    }
    if cancellations != expectedCancellations {
      failures.append(
        "cancellations differ:\n  expected: \(list(expectedCancellations))\n"
          + "  actual:   \(list(cancellations))")
    }
    if Set(dismissed) != Set(expectedDismissed) || dismissed.count != expectedDismissed.count {
      failures.append(
        "effects ended with a dismissed child differ:\n  expected: \(list(expectedDismissed))\n"
          + "  actual:   \(list(dismissed))")
    }
    guard !failures.isEmpty else { return }
    let header = "when \(inputs.joined(separator: ", ")):"
    reportFailure(([header] + failures).joined(separator: "\n"), at: sourceLocation)
  }

  /// Checks that the inputs changed only the child at `path` (a tab, or a row:
  /// `\.rows[id: 1]`), to `expected`, and started exactly `effects` (embedded in the parent's
  /// effect type): exhaustive, as ``then(state:effects:cancellations:dismissed:fileID:filePath:line:column:)``
  /// is, with the same messages.
  public func then<Child>(
    child path: WritableKeyPath<U.State, Child>, _ expected: Child,
    effects expectedEffects: [U.Effect] = [],
    cancellations expectedCancellations: [U.Effect.ID] = [],
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) {
    var expectedState = given
    expectedState[keyPath: path] = expected
    then(
      state: expectedState, effects: expectedEffects, cancellations: expectedCancellations,
      fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Checks that the inputs changed nothing and dispatched and cancelled nothing.
  public func thenNoChange(
    from given: U.State, fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    then(state: given, fileID: fileID, filePath: filePath, line: line, column: column)
  }
}

/// `[a, b]` with each element described, or `[]`.
func list<Element>(_ elements: [Element]) -> String {
  "[" + elements.map { "\($0)" }.joined(separator: ", ") + "]"
}
