/// Turns a component's inputs into the actions that select its next future: Bow Arch's
/// dispatcher.
///
/// ```swift
/// let dispatcher = StateDispatcher<Void, Int, StepperInput>.pure { input in
///   switch input {
///   case .tapDecrement: .modify { $0 - 1 }
///   case .tapIncrement: .modify { $0 + 1 }
///   }
/// }
/// ```
///
/// Three ways to build one: ``pure(_:)`` (an input is one action), ``effectful(_:)`` (an input is
/// one ``Effect``: work in the environment that ends in an action) and ``workflow(_:)`` (an input
/// is several steps, run in order, each one a visible update). ``widen(transformEnvironment:transformState:transformInput:)-(_,WritableKeyPath<BigState,Focus>Sendable,_)``,
/// ``contramap(_:)`` and ``combine(_:)`` build dispatchers from others.
///
/// The function you give must be pure: it is called by whoever sends the input, possibly on
/// several threads at once, before the input takes its turn in the queue. Work goes in effects;
/// decisions that need the state go in actions and ``Effect/read(_:)`` steps, which run in turn.
public struct Dispatcher<Environment: Sendable, Focus: Sendable, Action: Sendable, Input>: Sendable
{
  @usableFromInline package let plan: @Sendable (Input) -> Plan<Environment, Focus, Action>
  /// For dispatchers widened onto an optional part or lifted over a list: the children whose
  /// work ends when they leave (see ``Departures``).
  @usableFromInline package let departures: [Departures<Focus>]

  @inlinable
  init(
    departures: [Departures<Focus>] = [],
    plan: @escaping @Sendable (Input) -> Plan<Environment, Focus, Action>
  ) {
    self.plan = plan
    self.departures = departures
  }

  /// A dispatcher that turns each input into one action, applied at once.
  @inlinable
  public static func pure(_ dispatch: @escaping @Sendable (Input) -> Action) -> Dispatcher {
    Dispatcher { .action(dispatch($0)) }
  }

  /// A dispatcher that turns each input into one effect: an action, or work in the environment
  /// that ends in one.
  public static func effectful(
    _ dispatch: @escaping @Sendable (Input) -> Effect<Environment, Focus, Action>
  ) -> Dispatcher {
    Dispatcher { .steps([dispatch($0)]) }
  }

  /// A dispatcher that turns each input into steps run in order: each starts when the previous
  /// one's action has been applied, and each applied action is a visible update. An empty list
  /// ignores the input.
  ///
  /// ```swift
  /// .workflow { input in
  ///   [.action(.modify { $0.loading() }), .task(id: Work.load) { env in ... }]
  /// }
  /// ```
  @inlinable
  public static func workflow(
    _ dispatch: @escaping @Sendable (Input) -> [Effect<Environment, Focus, Action>]
  ) -> Dispatcher {
    Dispatcher { input in
      let steps = dispatch(input)
      // A workflow of one action is that action: applied as a pure dispatcher's is; one of no
      // steps is no plan, which a combined dispatcher passes over.
      if steps.count == 1, case .action(let action) = steps[0].kind { return .action(action) }
      return steps.isEmpty ? .none : .steps(steps)
    }
  }

  /// A dispatcher that ignores every input: Bow Arch's `empty()`.
  @inlinable
  public static func empty() -> Dispatcher { Dispatcher { _ in .none } }

  /// The steps this dispatcher makes of `input`, in order: Bow Arch's `on(_:)`.
  ///
  /// A parent runs a child's steps as part of its own workflow with it: the shell's lap runs the
  /// stopwatch's steps, then the counter's.
  @inlinable
  public func on(_ input: Input) -> [Effect<Environment, Focus, Action>] {
    plan(input).steps
  }

  /// This dispatcher for inputs of another type: each is turned into this one's input first.
  @inlinable
  public func contramap<Other>(
    _ transform: @escaping @Sendable (Other) -> Input
  ) -> Dispatcher<Environment, Focus, Action, Other> {
    let plan = plan
    return Dispatcher<Environment, Focus, Action, Other>(departures: departures) {
      plan(transform($0))
    }
  }

  /// This dispatcher, handling an input only if `condition` holds for the state when the
  /// input's turn comes in the queue; otherwise the input is ignored. What a parent uses when a
  /// child's inputs count only in some states: a stack's screens take no input while a sheet
  /// covers them.
  ///
  /// ```swift
  /// let screens = Screen.dispatcher.forEach(...).enabled(when: { $0.destination == nil })
  /// ```
  @inlinable
  public func enabled(when condition: @escaping @Sendable (Focus) -> Bool) -> Dispatcher {
    let plan = plan
    return Dispatcher(departures: departures) { input in
      let steps = plan(input).steps
      guard !steps.isEmpty else { return .none }
      return .steps([.read { condition($0) ? steps : [] }])
    }
  }

  /// A dispatcher that hands every input to this one, then to `other`, as Bow Arch did: one
  /// workflow, this one's steps first, then `other`'s, each starting when the one before it
  /// has been applied (`other`'s first step waits for this one's last task to finish).
  @inlinable
  public func combine(_ other: Dispatcher) -> Dispatcher {
    let first = plan
    let second = other.plan
    return Dispatcher(departures: departures + other.departures) { input in
      switch (first(input), second(input)) {
      case (.none, let plan), (let plan, .none): plan
      case (let a, let b): .steps(a.steps + b.steps)
      }
    }
  }
}

/// What a dispatcher makes of one input.
@usableFromInline
package enum Plan<Environment: Sendable, Focus: Sendable, Action: Sendable>: Sendable {
  case none
  case action(Action)
  case steps([Effect<Environment, Focus, Action>])

  /// The plan as a workflow.
  @inlinable var steps: [Effect<Environment, Focus, Action>] {
    switch self {
    case .none: []
    case .action(let action): [.action(action)]
    case .steps(let steps): steps
    }
  }
}

/// The dispatcher of a ``StoreComponent``: inputs become ``State`` actions.
public typealias StateDispatcher<Environment: Sendable, S: Sendable, Input> = Dispatcher<
  Environment, S, State<S, Void>, Input
>

/// The dispatcher of a ``MooreComponent``: inputs become ``Inputs`` for the machine.
public typealias InputsDispatcher<
  Environment: Sendable, Message: Sendable, Value: Sendable, Input
> =
  Dispatcher<Environment, Value, Inputs<Message, Void>, Input>
