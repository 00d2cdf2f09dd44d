/// What a store does after an action: a function of the new state and the action that may
/// dispatch more actions or start asynchronous work.
///
/// ```swift
/// let logging = Effect<Int, CounterAction> { state, action, dispatch in
///   print(action, state)
/// }
/// let store = Store(state: 0, update: updateCounter, effect: logging)
/// ```
///
/// Combine effects with ``join(effects:)-(Effect<State,Action>...)`` or the ``EffectBuilder``:
///
/// ```swift
/// let effect = Effect<Int, CounterAction> {
///   logging
///   Effect.take(.reset) { state, dispatch in dispatch(.increment) }
/// }
/// ```
public struct Effect<State: Sendable, Action: Sendable>: Sendable {
  @usableFromInline let body: (@Sendable (State, Action, Dispatch<Action>) -> Void)?

  /// An effect from a function of the new state, the action, and a ``Dispatch``.
  public init(
    _ body:
      @escaping @Sendable (_ state: State, _ action: Action, _ dispatch: Dispatch<Action>)
      -> Void
  ) {
    self.body = body
  }

  /// Builds an effect from several, run in order after each action.
  public init(@EffectBuilder<State, Action> _ build: () -> Effect) {
    self = build()
  }

  private init(empty: Void) { body = nil }

  /// An effect that does nothing: the store skips it entirely.
  public static var none: Effect { Effect(empty: ()) }
}

/// Runs `effects` one after another, in order, after each action.
///
/// Every effect sees the same action and state; actions they dispatch are queued and handled
/// after all of them have run.
@inlinable
public func join<State, Action>(effects: [Effect<State, Action>]) -> Effect<State, Action> {
  let bodies = effects.compactMap { $0.body }
  switch bodies.count {
  case 0: return .none
  case 1: return effects.first { $0.body != nil } ?? .none
  default:
    return Effect { state, action, dispatch in
      for body in bodies { body(state, action, dispatch) }
    }
  }
}

/// Runs `effects` one after another, in order, after each action.
@inlinable
public func join<State, Action>(effects: Effect<State, Action>...) -> Effect<State, Action> {
  join(effects: effects)
}

extension Effect {
  /// An effect that runs `body` for every action `extract` picks out.
  ///
  /// ```swift
  /// Effect.take({ if case .saved(let count) = $0 { count } else { nil } }) { count, _, _ in
  ///   log("count: \(count)")
  /// }
  /// ```
  public static func take<Value>(
    _ extract: @escaping @Sendable (Action) -> Value?,
    _ body:
      @escaping @Sendable (_ value: Value, _ state: State, _ dispatch: Dispatch<Action>) -> Void
  ) -> Effect {
    Effect { state, action, dispatch in
      if let value = extract(action) { body(value, state, dispatch) }
    }
  }

  /// An effect that runs `body` for every action equal to `action`.
  public static func take(
    _ action: Action,
    _ body: @escaping @Sendable (_ state: State, _ dispatch: Dispatch<Action>) -> Void
  ) -> Effect where Action: Equatable {
    Effect { state, received, dispatch in
      if received == action { body(state, dispatch) }
    }
  }

  /// An effect that, for every action `extract` picks out, runs `operation` asynchronously and
  /// cancels the run started for the previous one: the latest wins.
  ///
  /// A cancelled run's later `send` calls are dropped, even if its code ignores cancellation.
  ///
  /// - Parameters:
  ///   - extract: Picks the actions to react to, and what the operation needs from them.
  ///   - id: Identifies the runs that supersede each other; ``Dispatch/cancel(id:)`` cancels
  ///     the current one.
  ///   - operation: The work; `send` dispatches its results.
  ///   - handler: Turns an error the operation throws into actions. Cancellation is not an error.
  public static func takeLatest<Value: Sendable>(
    _ extract: @escaping @Sendable (Action) -> Value?,
    id: some Hashable & Sendable,
    operation:
      @escaping @Sendable (_ value: Value, _ state: State, _ send: Send<Action>) async throws
      -> Void,
    catch handler: (@Sendable (_ error: any Error, _ send: Send<Action>) -> Void)? = nil
  ) -> Effect {
    Effect { state, action, dispatch in
      guard let value = extract(action) else { return }
      dispatch.run(
        id: id, operation: { send in try await operation(value, state, send) }, catch: handler)
    }
  }
}

/// Composes effects: each line of the block is an effect, run in order after each action.
@resultBuilder
public enum EffectBuilder<State: Sendable, Action: Sendable> {
  /// An effect as a line of the block.
  public static func buildExpression(_ effect: Effect<State, Action>) -> Effect<State, Action> {
    effect
  }

  /// The lines of a block, joined in order.
  public static func buildBlock(_ effects: Effect<State, Action>...) -> Effect<State, Action> {
    join(effects: effects)
  }

  /// An `if` without `else`: nothing when the condition is false.
  public static func buildOptional(_ effect: Effect<State, Action>?) -> Effect<State, Action> {
    effect ?? .none
  }

  /// The `if` branch of an `if`/`else`.
  public static func buildEither(first effect: Effect<State, Action>) -> Effect<State, Action> {
    effect
  }

  /// The `else` branch of an `if`/`else`.
  public static func buildEither(second effect: Effect<State, Action>) -> Effect<State, Action> {
    effect
  }

  /// A `for` loop's effects, joined in order.
  public static func buildArray(_ effects: [Effect<State, Action>]) -> Effect<State, Action> {
    join(effects: effects)
  }
}
