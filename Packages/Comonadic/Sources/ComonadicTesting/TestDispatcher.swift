import Comonadic

/// Runs a dispatcher's actions purely against a state: what an input does, without a component,
/// a queue or a task.
///
/// ```swift
/// let dispatcher = TestDispatcher(Counter.dispatcher, environment: fakes)
/// dispatcher.expect(.increment, from: Counter.State(count: 1)) {
///   $0.count = 2
/// } effects: [.task(id: Counter.Work.save)]
/// ```
///
/// The input's steps run in order: actions are applied, `perform` steps are called with the
/// environment. A task is not run: it is listed in ``Outcome/effects`` and the steps after it
/// (which would wait for its result) are not run either. Streams and cancellations are listed
/// and passed over.
public struct TestDispatcher<Environment: Sendable, S: Sendable, Input> {
  let dispatcher: StateDispatcher<Environment, S, Input>
  let environment: Environment

  /// A runner for `dispatcher`, whose `perform` steps get `environment`.
  public init(_ dispatcher: StateDispatcher<Environment, S, Input>, environment: Environment) {
    self.dispatcher = dispatcher
    self.environment = environment
  }

  /// What `input` does to `state`.
  public func run(_ input: Input, from state: S) -> Outcome<S> {
    var outcome = Outcome(states: [], state: state, effects: [])
    run(dispatcher.plan(input), into: &outcome, running: [])
    return outcome
  }

  /// What `input` does after `earlier`: from the state it left, with the tasks and streams it
  /// began still running. When the input dismisses a child — sets a presented part to `nil`,
  /// removes an element of a lifted list — ``Outcome/cancelled`` lists the work of that child
  /// the component cancels (R13).
  ///
  /// ```swift
  /// let saving = dispatcher.run(.form(.save), from: presented)
  /// let dismissed = dispatcher.run(.form(.cancel), after: saving)
  /// #expect(dismissed.cancelled == [.cancel(id: AddForm.Work.create)])
  /// ```
  public func run(_ input: Input, after earlier: Outcome<S>) -> Outcome<S> {
    var outcome = Outcome(states: [], state: earlier.state, effects: [])
    run(dispatcher.plan(input), into: &outcome, running: earlier.running)
    return outcome
  }

  private func run(
    _ plan: Plan<Environment, S, State<S, Void>>, into outcome: inout Outcome<S>,
    running: [AnyWorkID]
  ) {
    // The component's own watches, fed the work running before the input.
    let watches = dispatcher.departures.map { $0.makeWatch() }
    for watch in watches { _ = watch.departed(outcome.state) }
    outcome.running = running
    for id in running { outcome.began(id, watches) }
    func apply(_ action: State<S, Void>) {
      outcome.apply(action)
      for watch in watches {
        for id in watch.departed(outcome.state) {
          outcome.running.removeAll { $0 == id }
          outcome.cancelled.append(.cancel(id.unscoped))
        }
      }
    }
    // A workflow up to its first task (whose result the rest would wait for).
    func proceed(_ steps: ArraySlice<Effect<Environment, S, State<S, Void>>>) {
      var steps = steps
      while let step = steps.popFirst() {
        switch step.kind {
        case .action(let action): apply(action)
        case .perform(let body): body(environment, outcome.state)
        case .call(let body): body(environment)
        case .task(let id, _, _):
          outcome.effects.append(.task(id?.unscoped))
          if let id { outcome.began(id, watches) }
          return
        case .stream(let id, _):
          outcome.effects.append(.stream(id?.unscoped))
          if let id { outcome.began(id, watches) }
        case .cancel(let id):
          outcome.effects.append(.cancel(id.unscoped))
          outcome.running.removeAll { $0 == id }
        case .read(let next): steps = next(outcome.state)[...] + steps
        case .parallel(let workflows): for workflow in workflows { proceed(workflow[...]) }
        }
      }
    }
    switch plan {
    case .none: break
    case .action(let action): apply(action)
    case .steps(let steps): proceed(steps[...])
    }
  }
}

extension TestDispatcher where S: Equatable {
  /// Asserts what `input` does to `state`: the state after it, and the effects it starts.
  ///
  /// - Parameters:
  ///   - input: The input.
  ///   - state: The state it is handled in.
  ///   - update: Sets what the input is expected to change, starting from `state`.
  ///   - effects: The tasks, streams and cancellations expected, in order.
  ///   - fileID: Where the failure is reported: the caller's file (default).
  ///   - filePath: The caller's file path, for XCTest (default).
  ///   - line: The caller's line (default).
  ///   - column: The caller's column (default).
  @discardableResult
  public func expect(
    _ input: Input, from state: S, _ update: (inout S) -> Void = { _ in },
    effects: [EffectStep] = [], fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> Outcome<S> {
    let outcome = run(input, from: state)
    var expected = state
    update(&expected)
    check(
      outcome, of: input, expected: expected, effects: effects, cancelled: nil,
      at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
    return outcome
  }

  /// Asserts what `input` does after `earlier` (see ``run(_:after:)``): the state after it, the
  /// effects it starts, and the work of dismissed children the component cancels. A dismissal
  /// whose child's work is not cancelled fails here, as does a cancellation not expected.
  ///
  /// ```swift
  /// let saving = dispatcher.expect(.form(.save), from: presented) {
  ///   $0.form?.isSaving = true
  /// } effects: [.task(id: AddForm.Work.create)]
  /// dispatcher.expect(.form(.cancel), after: saving, { $0.form = nil },
  ///   cancelled: [.cancel(id: AddForm.Work.create)])
  /// ```
  ///
  /// - Parameters:
  ///   - input: The input.
  ///   - earlier: What an earlier input did: its state, and the work it left running.
  ///   - update: Sets what the input is expected to change, starting from `earlier`'s state.
  ///   - effects: The tasks, streams and cancellations expected, in order.
  ///   - cancelled: The dismissed children's work expected to be cancelled, in order.
  ///   - fileID: Where the failure is reported: the caller's file (default).
  ///   - filePath: The caller's file path, for XCTest (default).
  ///   - line: The caller's line (default).
  ///   - column: The caller's column (default).
  @discardableResult
  public func expect(
    _ input: Input, after earlier: Outcome<S>, _ update: (inout S) -> Void = { _ in },
    effects: [EffectStep] = [], cancelled: [EffectStep] = [], fileID: StaticString = #fileID,
    filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) -> Outcome<S> {
    let outcome = run(input, after: earlier)
    var expected = earlier.state
    update(&expected)
    check(
      outcome, of: input, expected: expected, effects: effects, cancelled: cancelled,
      at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
    return outcome
  }

  private func check(
    _ outcome: Outcome<S>, of input: Input, expected: S, effects: [EffectStep],
    cancelled: [EffectStep]?, at sourceLocation: CallSite
  ) {
    if expected != outcome.state {
      reportFailure(
        "State after \(input) differs from the expected state (− expected, + actual):\n"
          + lineDiff(expected: expected, actual: outcome.state), at: sourceLocation)
    }
    if effects != outcome.effects {
      reportFailure(
        "Effects of \(input) differ (− expected, + actual):\n"
          + lineDiff(
            expected: effects.map(\.description), actual: outcome.effects.map(\.description)),
        at: sourceLocation)
    }
    if let cancelled, cancelled != outcome.cancelled {
      reportFailure(
        "Work cancelled with the children \(input) dismissed differs (− expected, + actual):\n"
          + lineDiff(
            expected: cancelled.map(\.description),
            actual: outcome.cancelled.map(\.description)),
        at: sourceLocation)
    }
  }
}

extension TestDispatcher where S: Equatable {
  /// Asserts what `input` does to the child at `path` of `state`, exhaustively: the child
  /// changes as `update` says and nothing else of `state` changes. For a dispatcher built with
  /// `Dispatcher.widen(transformEnvironment:transformState:transformInput:)`,
  /// `input` is the parent's input that carries the child's; effects are listed by the child's
  /// own ids.
  public func expect<Child>(
    _ input: Input, from state: S, child path: WritableKeyPath<S, Child>,
    _ update: (inout Child) -> Void, effects: [EffectStep] = [],
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) {
    expect(
      input, from: state, { update(&$0[keyPath: path]) }, effects: effects, fileID: fileID,
      filePath: filePath, line: line, column: column)
  }

  /// Asserts what `input` does to the element `id` of the list at `path`, exhaustively: the
  /// element changes as `update` says and nothing else of `state` changes (no other row, no
  /// other part). For a dispatcher built with
  /// `Dispatcher.forEach(transformEnvironment:transformState:transformInput:)`.
  public func expect<ID: Hashable & Sendable, Element>(
    _ input: Input, from state: S, forEach path: WritableKeyPath<S, IdentifiedList<ID, Element>>,
    id: ID, _ update: (inout Element) -> Void, effects: [EffectStep] = [],
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) {
    expect(
      input, from: state, { $0[keyPath: path].update(id: id, update) }, effects: effects,
      fileID: fileID, filePath: filePath, line: line, column: column)
  }
}

/// What one input did, run purely: see ``TestDispatcher``.
public struct Outcome<S> {
  /// The state after each action, in order: one entry per visible update.
  public var states: [S]
  /// The state after the last action.
  public var state: S
  /// The tasks, streams and cancellations the input started, in order.
  public var effects: [EffectStep]
  /// The work of dismissed children the component cancels, as each child names it, in order:
  /// with ``TestDispatcher/run(_:after:)``, the work begun before the input included.
  public var cancelled: [EffectStep] = []
  /// The tasks and streams running after the input, as the component files them.
  var running: [AnyWorkID] = []

  init(states: [S], state: S, effects: [EffectStep]) {
    self.states = states
    self.state = state
    self.effects = effects
  }

  mutating func apply(_ action: State<S, Void>) {
    action.apply(to: &state)
    states.append(state)
  }

  /// Notes work that began, for the children it is filed under.
  mutating func began(_ id: AnyWorkID, _ watches: [DepartureWatch<S>]) {
    running.append(id)
    guard let filed = ScopedWorkID.filed(id) else { return }
    for watch in watches { _ = watch.started(id, filed) }
  }
}

/// An effect step a ``TestDispatcher`` did not run: which kind, and its id.
public enum EffectStep: Hashable, CustomStringConvertible {
  /// A task, with its id if it has one.
  case task(AnyHashable?)
  /// A stream, with its id.
  case stream(AnyHashable?)
  /// A cancellation of the runs under an id.
  case cancel(AnyHashable)

  /// A task under `id`.
  public static func task(id: some Hashable & Sendable) -> EffectStep { .task(AnyHashable(id)) }
  /// A stream under `id`.
  public static func stream(id: some Hashable & Sendable) -> EffectStep {
    .stream(AnyHashable(id))
  }
  /// A cancellation of `id`.
  public static func cancel(id: some Hashable & Sendable) -> EffectStep {
    .cancel(AnyHashable(id))
  }
  /// A task without an id.
  public static var task: EffectStep { .task(nil) }

  /// How a failure message names the step: `task(id: save)`.
  public var description: String {
    switch self {
    case .task(let id?): "task(id: \(id.base))"
    case .task(nil): "task"
    case .stream(let id?): "stream(id: \(id.base))"
    case .stream(nil): "stream"
    case .cancel(let id): "cancel(id: \(id.base))"
    }
  }
}
