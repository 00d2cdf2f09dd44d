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
/// is several steps, run in order, each one a visible update). ``widen(transformEnvironment:transformState:transformInput:)``,
/// ``contramap(_:)`` and ``combine(_:)`` build dispatchers from others.
///
/// The function you give must be pure: it is called by whoever sends the input, possibly on
/// several threads at once, before the input takes its turn in the queue. Work goes in effects;
/// decisions that need the state go in actions and ``Effect/read(_:)`` steps, which run in turn.
public struct Dispatcher<Environment: Sendable, Focus: Sendable, Action: Sendable, Input>: Sendable
{
  @usableFromInline package let plan: @Sendable (Input) -> Plan<Environment, Focus, Action>

  @inlinable
  init(plan: @escaping @Sendable (Input) -> Plan<Environment, Focus, Action>) { self.plan = plan }

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
  ///   [.action(.modify { $0.loading() }), .task(id: Work.load) { env, _ in ... }]
  /// }
  /// ```
  public static func workflow(
    _ dispatch: @escaping @Sendable (Input) -> [Effect<Environment, Focus, Action>]
  ) -> Dispatcher {
    Dispatcher { .steps(dispatch($0)) }
  }

  /// A dispatcher that ignores every input.
  public static var empty: Dispatcher { Dispatcher { _ in .none } }

  /// This dispatcher for inputs of another type: each is turned into this one's input first.
  public func contramap<Other>(
    _ transform: @escaping @Sendable (Other) -> Input
  ) -> Dispatcher<Environment, Focus, Action, Other> {
    let plan = plan
    return Dispatcher<Environment, Focus, Action, Other> { plan(transform($0)) }
  }

  /// A dispatcher that hands every input to this one, then to `other`: this one's steps run
  /// first; their asynchronous work runs side by side.
  public func combine(_ other: Dispatcher) -> Dispatcher {
    let first = plan
    let second = other.plan
    return Dispatcher { input in
      switch (first(input), second(input)) {
      case (.none, let plan), (let plan, .none): return plan
      case (let a, let b): return .all([a, b])
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
  case all([Plan])
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

extension Dispatcher {
  /// This dispatcher as part of a bigger component: its environment is taken from the bigger
  /// one's, its state is a part of the bigger state, and it handles the inputs
  /// `transformInput` picks out (ignoring the others).
  ///
  /// ```swift
  /// let app = counterDispatcher.widen(
  ///   transformEnvironment: \.counter, transformState: \AppState.counter,
  ///   transformInput: { if case .counter(let input) = $0 { input } else { nil } })
  /// .combine(settingsDispatcher.widen(...))
  /// ```
  public func widen<BigEnvironment: Sendable, BigState: Sendable, BigInput>(
    transformEnvironment: @escaping @Sendable (BigEnvironment) -> Environment,
    transformState: WritableKeyPath<BigState, Focus> & Sendable,
    transformInput: @escaping @Sendable (BigInput) -> Input?
  ) -> Dispatcher<BigEnvironment, BigState, State<BigState, Void>, BigInput>
  where Action == State<Focus, Void> {
    let plan = plan
    let lift = Lift<BigEnvironment, BigState, Environment, Focus>(
      environment: transformEnvironment, state: transformState)
    return Dispatcher<BigEnvironment, BigState, State<BigState, Void>, BigInput> { input in
      guard let input = transformInput(input) else { return .none }
      return lift.plan(plan(input))
    }
  }
}

/// Lifts a part's plans into the whole's: environment, state and actions.
struct Lift<BigEnvironment: Sendable, BigState: Sendable, Environment: Sendable, S: Sendable>:
  Sendable
{
  let environment: @Sendable (BigEnvironment) -> Environment
  let state: WritableKeyPath<BigState, S> & Sendable

  typealias Small = Effect<Environment, S, State<S, Void>>
  typealias Big = Effect<BigEnvironment, BigState, State<BigState, Void>>

  func plan(_ plan: Plan<Environment, S, State<S, Void>>) -> Plan<
    BigEnvironment, BigState, State<BigState, Void>
  > {
    switch plan {
    case .none: .none
    case .action(let action): .action(self.action(action))
    case .steps(let steps): .steps(steps.map(effect))
    case .all(let plans): .all(plans.map(self.plan))
    }
  }

  func action(_ action: State<S, Void>) -> State<BigState, Void> {
    let state = state
    return .mutate { whole in action.apply(to: &whole[keyPath: state]) }
  }

  func effect(_ effect: Small) -> Big {
    let (environment, state) = (environment, state)
    switch effect.kind {
    case .action(let action):
      return .action(self.action(action))
    case .perform(let body):
      return .perform { whole, focus in body(environment(whole), focus[keyPath: state]) }
    case .task(let id, let whenRunning, let operation):
      return Big(
        .task(id, whenRunning) { whole, focus in
          self.action(await operation(environment(whole), focus[keyPath: state]))
        })
    case .stream(let id, let operation):
      return Big(
        .stream(id) { whole, focus, send in
          await operation(environment(whole), focus[keyPath: state], send.map(self.action))
        })
    case .cancel(let id):
      return Big(.cancel(id))
    case .read(let next):
      return .read { whole in next(whole[keyPath: state]).map(self.effect) }
    }
  }
}
