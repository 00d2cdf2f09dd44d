/// Composition, the Mobius way: a child feature is an ``Update`` and an ``EffectHandler`` of its
/// own; a parent runs the child's update on the child's part of its state and maps what comes
/// back — the new state, the effects, the cancellations — into its own types. Nothing of the
/// child is written again in the parent.
///
/// ```swift
/// case .counter(let event):
///   return CounterUpdate().handle(
///     event: event, in: state, at: \.counter, effect: ShellEffect.counter, id: ShellEffectID.counter)
/// ```
extension UpdateResult {
  /// This child's result as its parent's: the child's new state written at `path` in `parent`,
  /// its effects embedded with `effect` and its cancellations with `id`.
  ///
  /// A result that leaves the child's state unchanged leaves the parent's unchanged.
  @inlinable
  public func lifted<Parent, ParentEffect: MUE.Effect>(
    into parent: Parent, at path: WritableKeyPath<Parent, State>,
    effect embed: (Effect) -> ParentEffect, id embedID: (Effect.ID) -> ParentEffect.ID
  ) -> UpdateResult<Parent, ParentEffect> {
    var next: Parent?
    if let state {
      var changed = parent
      changed[keyPath: path] = state
      next = changed
    }
    return UpdateResult<Parent, ParentEffect>(
      state: next, effects: effects.map(embed), cancellations: cancellations.map(embedID))
  }

  /// This result, then what `next` makes of the state it leaves, as one result: the states
  /// chained, the effects and cancellations of both in order. For a parent that turns a child's
  /// event into a change of a sibling in the same processed message.
  ///
  /// - Parameters:
  ///   - current: The state this result was computed from.
  ///   - next: What follows, given the state this result leaves.
  @inlinable
  public func then(
    from current: State, _ next: (State) -> UpdateResult<State, Effect>
  ) -> UpdateResult<State, Effect> {
    let following = next(state ?? current)
    return UpdateResult(
      state: following.state ?? state, effects: effects + following.effects,
      cancellations: cancellations + following.cancellations)
  }

  /// The state this result leaves, given the state it was computed from (Unison's `value`).
  @inlinable
  public func value(from current: State) -> State { state ?? current }
}

extension Update {
  /// Handles a child's `event` on the child's state at `path` in `parent`, and returns the
  /// result as the parent's (see ``UpdateResult/lifted(into:at:effect:id:)``).
  @inlinable
  public func handle<Parent, ParentEffect: MUE.Effect>(
    event: Event, in parent: Parent, at path: WritableKeyPath<Parent, State>,
    effect embed: (Effect) -> ParentEffect, id embedID: (Effect.ID) -> ParentEffect.ID
  ) -> UpdateResult<Parent, ParentEffect> {
    handle(event: event, parent[keyPath: path]).lifted(
      into: parent, at: path, effect: embed, id: embedID)
  }

  /// Handles the result of one of the child's effects on the child's state at `path`.
  @inlinable
  public func handle<Parent, ParentEffect: MUE.Effect>(
    result: Effect.Result, in parent: Parent, at path: WritableKeyPath<Parent, State>,
    effect embed: (Effect) -> ParentEffect, id embedID: (Effect.ID) -> ParentEffect.ID
  ) -> UpdateResult<Parent, ParentEffect> {
    handle(result: result, parent[keyPath: path]).lifted(
      into: parent, at: path, effect: embed, id: embedID)
  }

  /// The child's ``first(state:)`` on its state at `path`: the parent's starting state with the
  /// child's in place, and the child's initial effects embedded.
  @inlinable
  public func first<Parent, ParentEffect: MUE.Effect>(
    in parent: Parent, at path: WritableKeyPath<Parent, State>,
    effect embed: (Effect) -> ParentEffect
  ) -> First<Parent, ParentEffect> {
    let first = first(state: parent[keyPath: path])
    var state = parent
    state[keyPath: path] = first.initialState
    return First(initialState: state, initialEffects: first.initialEffects.map(embed))
  }

  /// Handles a child's `event` for the element `id` of the identified list at `path` (Mobius
  /// applied to each row). Returns `nil` when no element has that id: an event for a removed
  /// row changes nothing and starts nothing.
  ///
  /// - Complexity: O(1) for the lookup, plus the update; the parent's state is copied as a
  ///   value-in, value-out update requires.
  @inlinable
  public func handle<Parent, ID: Hashable & Sendable, ParentEffect: MUE.Effect>(
    event: Event, in parent: Parent,
    forEach path: WritableKeyPath<Parent, IdentifiedList<ID, State>>,
    id: ID, effect embed: (ID, Effect) -> ParentEffect,
    id embedID: (ID, Effect.ID) -> ParentEffect.ID
  ) -> UpdateResult<Parent, ParentEffect>? {
    guard let element = parent[keyPath: path][id: id] else { return nil }
    return handle(event: event, element).lifted(
      into: parent, forEach: path, id: id, effect: embed, effectID: embedID)
  }

  /// Handles the result of an element's effect; `nil` when the element is gone (its late
  /// result is dropped).
  @inlinable
  public func handle<Parent, ID: Hashable & Sendable, ParentEffect: MUE.Effect>(
    result: Effect.Result, in parent: Parent,
    forEach path: WritableKeyPath<Parent, IdentifiedList<ID, State>>, id: ID,
    effect embed: (ID, Effect) -> ParentEffect, id embedID: (ID, Effect.ID) -> ParentEffect.ID
  ) -> UpdateResult<Parent, ParentEffect>? {
    guard let element = parent[keyPath: path][id: id] else { return nil }
    return handle(result: result, element).lifted(
      into: parent, forEach: path, id: id, effect: embed, effectID: embedID)
  }
}

extension UpdateResult {
  /// An element's result as its list's parent's.
  @inlinable
  public func lifted<Parent, ID: Hashable & Sendable, ParentEffect: MUE.Effect>(
    into parent: Parent, forEach path: WritableKeyPath<Parent, IdentifiedList<ID, State>>,
    id: ID, effect embed: (ID, Effect) -> ParentEffect,
    effectID embedID: (ID, Effect.ID) -> ParentEffect.ID
  ) -> UpdateResult<Parent, ParentEffect> {
    var next: Parent?
    if let state {
      var changed = parent
      changed[keyPath: path].update(id: id) { $0 = state }
      next = changed
    }
    return UpdateResult<Parent, ParentEffect>(
      state: next, effects: effects.map { embed(id, $0) },
      cancellations: cancellations.map { embedID(id, $0) })
  }
}

extension EffectResult {
  /// The same result with each value transformed: a child's effect handler's answer as the
  /// parent's.
  // Inlinable: compiled for any `Result`, each value of a stream (a tick) looked up the
  // metadata of the types it went through.
  @inlinable
  public func map<Other: Sendable>(
    _ transform: @escaping @Sendable (Result) -> Other
  ) -> EffectResult<Other> {
    switch kind {
    case .single(let value): .single(transform(value))
    case .empty: .empty
    // Pulled by the task that runs the effect, one value at a time, through the child's
    // stream: no stream (and no cancellation handler per value) of its own.
    case .repeating(let box):
      EffectResult<Other>(
        .mapped { [values = Pull(box.stream)] in await values.next().map(transform) })
    case .mapped(let next):
      EffectResult<Other>(.mapped { await next().map(transform) })
    }
  }
}

extension Update where Effect == NoEffect {
  /// Handles an event of a child without effects for the element `id` of the identified list
  /// at `path`; `nil` when no element has that id.
  @inlinable
  public func handle<Parent, ID: Hashable & Sendable, ParentEffect: MUE.Effect>(
    event: Event, in parent: Parent,
    forEach path: WritableKeyPath<Parent, IdentifiedList<ID, State>>,
    id: ID
  ) -> UpdateResult<Parent, ParentEffect>? {
    guard let element = parent[keyPath: path][id: id] else { return nil }
    guard let state = handle(event: event, element).state else { return .noChange }
    var changed = parent
    changed[keyPath: path].update(id: id) { $0 = state }
    return .newState(state: changed)
  }
}

extension UpdateResult where Effect.ID == Never {
  /// This child's result as its parent's, for a child whose effects have no ids (nothing of it
  /// can be cancelled, so there are no ids to embed).
  @inlinable
  public func lifted<Parent, ParentEffect: MUE.Effect>(
    into parent: Parent, at path: WritableKeyPath<Parent, State>,
    effect embed: (Effect) -> ParentEffect
  ) -> UpdateResult<Parent, ParentEffect> {
    var next: Parent?
    if let state {
      var changed = parent
      changed[keyPath: path] = state
      next = changed
    }
    return UpdateResult<Parent, ParentEffect>(state: next, effects: effects.map(embed))
  }
}

extension Update where Effect.ID == Never {
  /// Handles the `event` of a child whose effects have no ids, on its state at `path`.
  @inlinable
  public func handle<Parent, ParentEffect: MUE.Effect>(
    event: Event, in parent: Parent, at path: WritableKeyPath<Parent, State>,
    effect embed: (Effect) -> ParentEffect
  ) -> UpdateResult<Parent, ParentEffect> {
    handle(event: event, parent[keyPath: path]).lifted(into: parent, at: path, effect: embed)
  }

  /// Handles the result of an effect of a child whose effects have no ids.
  @inlinable
  public func handle<Parent, ParentEffect: MUE.Effect>(
    result: Effect.Result, in parent: Parent, at path: WritableKeyPath<Parent, State>,
    effect embed: (Effect) -> ParentEffect
  ) -> UpdateResult<Parent, ParentEffect> {
    handle(result: result, parent[keyPath: path]).lifted(into: parent, at: path, effect: embed)
  }
}

// In place: the same composition for a parent written in place (`handle(event:changing:)`). The child's update
// runs on its part of the parent's state where the loop keeps it, so nothing of the parent is
// copied; a value-in, value-out child's new state is written there when it differs.

extension InPlaceResult {
  /// This child's result as its parent's: its effects embedded with `effect` and its
  /// cancellations with `id`.
  @inlinable
  public func lifted<ParentEffect: MUE.Effect>(
    effect embed: (Effect) -> ParentEffect, id embedID: (Effect.ID) -> ParentEffect.ID
  ) -> InPlaceResult<ParentEffect> {
    InPlaceResult<ParentEffect>(
      stateChanged: stateChanged, effects: effects.map(embed),
      cancellations: cancellations.map(embedID))
  }
}

extension InPlaceResult where Effect.ID == Never {
  /// This child's result as its parent's, for a child whose effects have no ids.
  @inlinable
  public func lifted<ParentEffect: MUE.Effect>(
    effect embed: (Effect) -> ParentEffect
  ) -> InPlaceResult<ParentEffect> {
    InPlaceResult<ParentEffect>(stateChanged: stateChanged, effects: effects.map(embed))
  }
}

extension Update {
  /// Handles a child's `event` on the child's state at `path`, changing `parent` in place;
  /// the result as the parent's.
  @inlinable
  public func handle<Parent, ParentEffect: MUE.Effect>(
    event: Event, changing parent: inout Parent, at path: WritableKeyPath<Parent, State>,
    effect embed: (Effect) -> ParentEffect, id embedID: (Effect.ID) -> ParentEffect.ID
  ) -> InPlaceResult<ParentEffect> {
    handle(event: event, changing: &parent[keyPath: path]).lifted(effect: embed, id: embedID)
  }

  /// Handles the result of one of the child's effects on its state at `path`, in place.
  @inlinable
  public func handle<Parent, ParentEffect: MUE.Effect>(
    result: Effect.Result, changing parent: inout Parent, at path: WritableKeyPath<Parent, State>,
    effect embed: (Effect) -> ParentEffect, id embedID: (Effect.ID) -> ParentEffect.ID
  ) -> InPlaceResult<ParentEffect> {
    handle(result: result, changing: &parent[keyPath: path]).lifted(effect: embed, id: embedID)
  }

  /// Handles a child's `event` for the element `id` of the identified list at `path`,
  /// changing that element in place; `nil` when no element has that id.
  ///
  /// - Complexity: O(1) plus the update, whatever the length of the list.
  @inlinable
  public func handle<Parent, ID: Hashable & Sendable, ParentEffect: MUE.Effect>(
    event: Event, changing parent: inout Parent,
    forEach path: WritableKeyPath<Parent, IdentifiedList<ID, State>>,
    id: ID, effect embed: (ID, Effect) -> ParentEffect,
    id embedID: (ID, Effect.ID) -> ParentEffect.ID
  ) -> InPlaceResult<ParentEffect>? {
    parent[keyPath: path].update(id: id) { handle(event: event, changing: &$0) }?.lifted(
      effect: { embed(id, $0) }, id: { embedID(id, $0) })
  }

  /// Handles the result of an element's effect, in place; `nil` when the element is gone (its
  /// late result is dropped).
  @inlinable
  public func handle<Parent, ID: Hashable & Sendable, ParentEffect: MUE.Effect>(
    result: Effect.Result, changing parent: inout Parent,
    forEach path: WritableKeyPath<Parent, IdentifiedList<ID, State>>, id: ID,
    effect embed: (ID, Effect) -> ParentEffect, id embedID: (ID, Effect.ID) -> ParentEffect.ID
  ) -> InPlaceResult<ParentEffect>? {
    parent[keyPath: path].update(id: id) { handle(result: result, changing: &$0) }?.lifted(
      effect: { embed(id, $0) }, id: { embedID(id, $0) })
  }
}

extension Update where Effect.ID == Never {
  /// Handles the `event` of a child whose effects have no ids, on its state at `path`, in
  /// place.
  @inlinable
  public func handle<Parent, ParentEffect: MUE.Effect>(
    event: Event, changing parent: inout Parent, at path: WritableKeyPath<Parent, State>,
    effect embed: (Effect) -> ParentEffect
  ) -> InPlaceResult<ParentEffect> {
    handle(event: event, changing: &parent[keyPath: path]).lifted(effect: embed)
  }

  /// Handles the result of an effect of a child whose effects have no ids, in place.
  @inlinable
  public func handle<Parent, ParentEffect: MUE.Effect>(
    result: Effect.Result, changing parent: inout Parent, at path: WritableKeyPath<Parent, State>,
    effect embed: (Effect) -> ParentEffect
  ) -> InPlaceResult<ParentEffect> {
    handle(result: result, changing: &parent[keyPath: path]).lifted(effect: embed)
  }
}

extension Update where Effect == NoEffect {
  /// Handles an event of a child without effects for the element `id` of the identified list
  /// at `path`, changing that element in place; `nil` when no element has that id.
  ///
  /// - Complexity: O(1) plus the update, whatever the length of the list.
  @inlinable
  public func handle<Parent, ID: Hashable & Sendable, ParentEffect: MUE.Effect>(
    event: Event, changing parent: inout Parent,
    forEach path: WritableKeyPath<Parent, IdentifiedList<ID, State>>,
    id: ID
  ) -> InPlaceResult<ParentEffect>? {
    parent[keyPath: path].update(id: id) { handle(event: event, changing: &$0).stateChanged }.map {
      InPlaceResult<ParentEffect>(stateChanged: $0)
    }
  }
}

// Presented children: a child that exists only while presented (a sheet, a form) is an optional
// in the parent's state. Its events and results are handled while it is there and ignored
// otherwise; ``Children/presented(_:effects:)`` ends its effects when it goes.

extension Update {
  /// Handles the `event` of the child presented at `path`, changing it in place; `nil` when
  /// nothing is presented (an event for a dismissed child changes nothing and starts nothing).
  @inlinable
  public func handle<Parent, ParentEffect: MUE.Effect>(
    event: Event, changing parent: inout Parent, presented path: WritableKeyPath<Parent, State?>,
    effect embed: (Effect) -> ParentEffect, id embedID: (Effect.ID) -> ParentEffect.ID
  ) -> InPlaceResult<ParentEffect>? {
    handlePresented(changing: &parent, at: path, effect: embed, id: embedID) {
      handle(event: event, changing: &$0)
    }
  }

  /// Handles the result of an effect of the child presented at `path`, in place; `nil` when
  /// nothing is presented (the result is dropped).
  @inlinable
  public func handle<Parent, ParentEffect: MUE.Effect>(
    result: Effect.Result, changing parent: inout Parent,
    presented path: WritableKeyPath<Parent, State?>,
    effect embed: (Effect) -> ParentEffect, id embedID: (Effect.ID) -> ParentEffect.ID
  ) -> InPlaceResult<ParentEffect>? {
    handlePresented(changing: &parent, at: path, effect: embed, id: embedID) {
      handle(result: result, changing: &$0)
    }
  }

  /// What both in-place handlers of a presented child do: nothing when nothing is presented,
  /// else `handleChild` on the child where it is, its effects lifted into the parent's.
  @inlinable
  func handlePresented<Parent, ParentEffect: MUE.Effect>(
    changing parent: inout Parent, at path: WritableKeyPath<Parent, State?>,
    effect embed: (Effect) -> ParentEffect, id embedID: (Effect.ID) -> ParentEffect.ID,
    _ handleChild: (inout State) -> InPlaceResult<Effect>
  ) -> InPlaceResult<ParentEffect>? {
    guard parent[keyPath: path] != nil else { return nil }
    return handleChild(&parent[keyPath: path]!).lifted(effect: embed, id: embedID)
  }

  /// Handles the `event` of the child presented at `path` in `parent`, value in, value out;
  /// `nil` when nothing is presented.
  @inlinable
  public func handle<Parent, ParentEffect: MUE.Effect>(
    event: Event, in parent: Parent, presented path: WritableKeyPath<Parent, State?>,
    effect embed: (Effect) -> ParentEffect, id embedID: (Effect.ID) -> ParentEffect.ID
  ) -> UpdateResult<Parent, ParentEffect>? {
    guard let child = parent[keyPath: path] else { return nil }
    let result = handle(event: event, child)
    var next: Parent?
    if let state = result.state {
      var changed = parent
      changed[keyPath: path] = state
      next = changed
    }
    return UpdateResult(
      state: next, effects: result.effects.map(embed),
      cancellations: result.cancellations.map(embedID))
  }
}
