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
    run(dispatcher.plan(input), into: &outcome)
    return outcome
  }

  private func run(
    _ plan: Plan<Environment, S, State<S, Void>>, into outcome: inout Outcome<S>
  ) {
    switch plan {
    case .none: break
    case .action(let action): outcome.apply(action)
    case .steps(let steps):
      var steps = steps[...]
      while let step = steps.popFirst() {
        switch step.kind {
        case .action(let action): outcome.apply(action)
        case .perform(let body): body(environment, outcome.state)
        case .call(let body): body(environment)
        case .task(let id, _, _):
          outcome.effects.append(.task(id?.unscoped))
          return
        case .stream(let id, _): outcome.effects.append(.stream(id?.unscoped))
        case .cancel(let id): outcome.effects.append(.cancel(id.unscoped))
        case .read(let next): steps = next(outcome.state)[...] + steps
        }
      }
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
  public func expect(
    _ input: Input, from state: S, _ update: (inout S) -> Void = { _ in },
    effects: [EffectStep] = [], fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let sourceLocation = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let outcome = run(input, from: state)
    var expected = state
    update(&expected)
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

  mutating func apply(_ action: State<S, Void>) {
    action.apply(to: &state)
    states.append(state)
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
