/// The only place the state changes: pure functions from the current state and an event, or an
/// effect's result, to what happens next.
///
/// ```swift
/// struct CounterUpdate: Update {
///   func handle(event: CounterEvent, _ state: CounterState) -> UpdateResult<CounterState, CounterEffect> {
///     switch event {
///     case .increment:
///       let next = state.copy { $0.count += 1 }
///       return .dispatchEffect(state: next, effect: .save(next.count))
///     }
///   }
///   func handle(result: CounterEffect.Result, _ state: CounterState) -> UpdateResult<CounterState, CounterEffect> {
///     .noChange
///   }
/// }
/// ```
///
/// An update may hold dependencies (a formatter, a limit); it must not perform side effects.
/// Return effects as data instead, and let an ``EffectHandler`` run them.
public protocol Update<State, Event, Effect>: Sendable {
  /// Everything needed to render the screen; published only when it changed.
  associatedtype State: Equatable & Sendable
  /// What the user does.
  associatedtype Event: Sendable
  /// The side effects this update can ask for.
  associatedtype Effect: MUE.Effect

  /// The state a loop starts from, and the effects to start with it. By default, `state`
  /// unchanged and no effect.
  func first(state: State) -> First<State, Effect>

  /// What an event does to `currentState`.
  func handle(event: Event, _ currentState: State) -> UpdateResult<State, Effect>

  /// What an effect's result does to `currentState`: the state when the result arrives, not
  /// the one the effect started from.
  func handle(result: Effect.Result, _ currentState: State) -> UpdateResult<State, Effect>

  /// What an event does, written in place: `state` is the loop's own, changed where it is
  /// kept, and the result says whether it changed.
  ///
  /// Write this form, or ``handle(event:_:)``: each has a default made of the other. The loop
  /// calls this one; by default it applies ``handle(event:_:)``'s new state when it differs.
  /// Written in place, a change of one row of a long ``IdentifiedList`` copies nothing: the
  /// value-in, value-out form changes a copy while the loop still holds the state, so its first
  /// write copies the nodes on the row's path, and the loop frees the old ones after.
  ///
  /// ```swift
  /// func handle(event: TodosEvent, changing state: inout TodosState) -> InPlaceResult<TodosEffect> {
  ///   switch event {
  ///   case .toggle(let id):
  ///     guard state.rows.update(id: id, { $0.done.toggle() }) != nil else { return .noChange }
  ///     return .changedState(effect: .save(state.records))
  ///   }
  /// }
  /// ```
  ///
  /// The loop tells its observers after every result whose
  /// ``InPlaceResult/stateChanged`` is true; it keeps no copy to compare with (that copy is what
  /// writing in place avoids). Return ``InPlaceResult/noChange`` only when `state` was left as
  /// it was.
  func handle(event: Event, changing state: inout State) -> InPlaceResult<Effect>

  /// What an effect's result does, written in place (the state when the result arrives); see
  /// ``handle(event:changing:)``.
  func handle(result: Effect.Result, changing state: inout State) -> InPlaceResult<Effect>

  /// The children of the state whose effects end with them — a presented form, the screens of
  /// a stack — and which effects are whose; by default none. The loop cancels a child's effects
  /// in the message that removes the child (see ``Children``).
  var children: Children<State, Effect.ID> { get }
}

extension Update {
  public func first(state: State) -> First<State, Effect> { First(initialState: state) }

  public var children: Children<State, Effect.ID> { Children() }
}

/// A loop's starting point: the initial state, and the effects it starts with (loading saved
/// data, say).
public struct First<State, Effect> {
  /// The state the loop starts from.
  public var initialState: State
  /// The effects started with it, in order.
  public var initialEffects: [Effect]

  /// A start from `initialState` with no effect, or with `initialEffect`.
  ///
  /// Inlinable, as every part of a message's path: an update that makes a child's start (a
  /// pushed screen's) would otherwise call generic code that looks up this type's metadata.
  @inlinable
  public init(initialState: State, initialEffect: Effect? = nil) {
    self.initialState = initialState
    self.initialEffects = initialEffect.map { [$0] } ?? []
  }

  /// A start from `initialState` with several effects, started in order.
  @inlinable
  public init(initialState: State, initialEffects: [Effect]) {
    self.initialState = initialState
    self.initialEffects = initialEffects
  }

  /// The first effect, if any (Unison's single initial effect).
  public var initialEffect: Effect? { initialEffects.first }
}

extension First {
  /// A start from `state` with no effect (Unison's `First.initialState(state)`).
  public static func initialState(state: State) -> First { First(initialState: state) }

  /// A start from `state` with one effect (Unison's `First.initialEffect(state, effect)`).
  public static func initialEffect(state: State, effect: Effect) -> First {
    First(initialState: state, initialEffect: effect)
  }
}

extension First: Sendable where State: Sendable, Effect: Sendable {}
extension First: Equatable where State: Equatable, Effect: Equatable {}

/// What an update decided: maybe a new state, maybe effects to start, maybe effects to cancel.
///
/// Spelled like Unison's cases, and extended so one update can start several effects and cancel
/// running ones:
///
/// ```swift
/// return .noChange
/// return .newState(state: state.copy { $0.query = text })
/// return .dispatchEffect(state: next, effect: .search(term))
/// return .dispatchEffects(state: next, effects: [.save(count), .log("saved")])
/// return .newState(state: cleared).cancelling(.search)
/// ```
public struct UpdateResult<State, Effect: MUE.Effect> {
  /// The new state, or `nil` to keep the current one.
  public var state: State?
  /// Effects to start, in order. An effect with an ``Effect/id`` replaces the running effect
  /// with that id (which is cancelled, and whose late results are dropped).
  public var effects: [Effect]
  /// Ids of running effects to cancel before the new ones start.
  public var cancellations: [Effect.ID]

  /// A result with every part spelled out.
  @inlinable
  public init(state: State?, effects: [Effect] = [], cancellations: [Effect.ID] = []) {
    self.state = state
    self.effects = effects
    self.cancellations = cancellations
  }

  /// Nothing changes and nothing starts.
  @inlinable
  public static var noChange: Self { Self(state: nil) }

  /// The state becomes `state`; observers hear of it if it differs from the current one.
  @inlinable
  public static func newState(state: State) -> Self { Self(state: state) }

  /// The state becomes `state`, and `effect` starts.
  @inlinable
  public static func dispatchEffect(state: State, effect: Effect) -> Self {
    Self(state: state, effects: [effect])
  }

  /// The state becomes `state`, and `effects` start in order.
  @inlinable
  public static func dispatchEffects(state: State, effects: [Effect]) -> Self {
    Self(state: state, effects: effects)
  }

  /// The state stays, and `effects` start in order.
  @inlinable
  public static func dispatchEffects(_ effects: Effect...) -> Self {
    Self(state: nil, effects: effects)
  }

  /// The state stays, and the running effects with these ids are cancelled.
  @inlinable
  public static func cancel(_ ids: Effect.ID...) -> Self {
    Self(state: nil, cancellations: ids)
  }

  /// This result, also cancelling the running effects with these ids (first, before any effect
  /// of this result starts).
  @inlinable
  public func cancelling(_ ids: Effect.ID...) -> Self {
    var result = self
    result.cancellations += ids
    return result
  }
}

extension UpdateResult: Sendable where State: Sendable {}
extension UpdateResult: Equatable where State: Equatable, Effect: Equatable {}
