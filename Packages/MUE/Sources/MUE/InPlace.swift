// Updating in place: the second way to write an ``Update``.
//
// A value-in, value-out update (`var next = state; next.rows[id: 7]?.done = true`) changes a
// copy while the loop still holds the state it was given, so the first write copies what it
// changes (a list's nodes on the changed row's path) and the loop frees the old state after. An
// update written in place is handed the loop's own state, `inout`, and changes it directly.
// Either form may be written; each has a default made of the other, and the loop calls the
// in-place one.

extension Update {
  /// What an event does, as a change of `state` in place: the value-in, value-out
  /// ``handle(event:_:)``'s new state, written to `state` when it differs.
  @inlinable
  public func handle(event: Event, changing state: inout State) -> InPlaceResult<Effect> {
    InPlaceResult(applying: handle(event: event, state), to: &state)
  }

  /// What an effect's result does, as a change of `state` in place; see
  /// ``handle(event:changing:)``.
  @inlinable
  public func handle(result: Effect.Result, changing state: inout State) -> InPlaceResult<Effect> {
    InPlaceResult(applying: handle(result: result, state), to: &state)
  }

  /// What an event does to a copy of `currentState`: the in-place
  /// ``handle(event:changing:)`` on a copy, as a value-in, value-out result.
  @inlinable
  public func handle(event: Event, _ currentState: State) -> UpdateResult<State, Effect> {
    var next = currentState
    return handle(event: event, changing: &next).result(with: next)
  }

  /// What an effect's result does to a copy of `currentState`, as a value-in, value-out
  /// result; see ``handle(event:_:)``.
  @inlinable
  public func handle(result: Effect.Result, _ currentState: State) -> UpdateResult<State, Effect> {
    var next = currentState
    return handle(result: result, changing: &next).result(with: next)
  }
}

/// What an update written in place decided: whether it changed the state, and the effects to start
/// and cancel. Spelled like ``UpdateResult``, without the state, which it changed in place.
///
/// ```swift
/// return .noChange
/// return .changedState
/// return .changedState(effect: .save(state.records))
/// return .dispatchEffects(.log("nothing to clear"))
/// return InPlaceResult.changedState.cancelling(.search)
/// ```
public struct InPlaceResult<Effect: MUE.Effect> {
  /// Whether the update changed the state: the loop tells its observers when it did.
  public var stateChanged: Bool
  /// Effects to start, in order; an effect with an ``Effect/id`` replaces the running one with
  /// that id.
  public var effects: [Effect]
  /// Ids of running effects to cancel before the new ones start.
  public var cancellations: [Effect.ID]

  /// A result with every part spelled out.
  @inlinable
  public init(stateChanged: Bool, effects: [Effect] = [], cancellations: [Effect.ID] = []) {
    self.stateChanged = stateChanged
    self.effects = effects
    self.cancellations = cancellations
  }

  /// Nothing changed and nothing starts.
  @inlinable
  public static var noChange: Self { Self(stateChanged: false) }

  /// The state changed; nothing starts.
  @inlinable
  public static var changedState: Self { Self(stateChanged: true) }

  /// The state changed, and `effect` starts.
  @inlinable
  public static func changedState(effect: Effect) -> Self {
    Self(stateChanged: true, effects: [effect])
  }

  /// The state changed, and `effects` start in order.
  @inlinable
  public static func changedState(effects: [Effect]) -> Self {
    Self(stateChanged: true, effects: effects)
  }

  /// The state stayed, and `effects` start in order.
  @inlinable
  public static func dispatchEffects(_ effects: Effect...) -> Self {
    Self(stateChanged: false, effects: effects)
  }

  /// The state stayed, and the running effects with these ids are cancelled.
  @inlinable
  public static func cancel(_ ids: Effect.ID...) -> Self {
    Self(stateChanged: false, cancellations: ids)
  }

  /// This result, also cancelling the running effects with these ids.
  @inlinable
  public func cancelling(_ ids: Effect.ID...) -> Self {
    var result = self
    result.cancellations += ids
    return result
  }

  /// A value-in, value-out result applied to `state`: its state, when it differs, replaces
  /// `state`.
  @inlinable
  public init<State: Equatable>(applying result: UpdateResult<State, Effect>, to state: inout State)
  {
    stateChanged = false
    if let next = result.state, next != state {
      state = next
      stateChanged = true
    }
    effects = result.effects
    cancellations = result.cancellations
  }

  /// This result as a value-in, value-out one, given the state the update left.
  @inlinable
  public func result<State>(with state: State) -> UpdateResult<State, Effect> {
    UpdateResult(
      state: stateChanged ? state : nil, effects: effects, cancellations: cancellations)
  }
}

extension InPlaceResult: Sendable {}
extension InPlaceResult: Equatable where Effect: Equatable {}
