/// A child's update as a parent's: applied to the child's part of the state, for the parent
/// actions that carry a child action (Elm's nested `update`, TCA's `Scope`).
///
/// ```swift
/// static let update: Update<Shell, ShellAction> = combine(
///   lift(ElmCounter.update, state: \.counter, action: .counter),
///   lift(ElmStopwatch.update, state: \.stopwatch, action: .stopwatch))
/// ```
@inlinable
public func lift<ParentState, ParentAction: Sendable, ChildState, ChildAction: Sendable>(
  _ update: @escaping Update<ChildState, ChildAction>,
  state path: WritableKeyPath<ParentState, ChildState> & Sendable,
  action: ActionPath<ParentAction, ChildAction>
) -> Update<ParentState, ParentAction> {
  let field = WritableField(path)
  return { state, parentAction in
    guard let childAction = action.extract(parentAction) else { return }
    field.modify(&state) { update(&$0, childAction) }
  }
}

/// A child's update applied to one element of an identified list, for the parent actions that
/// carry an element's id and action (TCA's `forEach`). Actions for an id not in the list are
/// ignored.
///
/// - Complexity: O(1) per action, whatever the length of the list.
@inlinable
public func lift<
  ParentState, ParentAction: Sendable, ID: Hashable & Sendable, ChildState: Sendable,
  ChildAction: Sendable
>(
  _ update: @escaping Update<ChildState, ChildAction>,
  forEach path: WritableKeyPath<ParentState, IdentifiedList<ID, ChildState>> & Sendable,
  action: ActionPath<ParentAction, (id: ID, action: ChildAction)>
) -> Update<ParentState, ParentAction> {
  let field = WritableField(path)
  return { state, parentAction in
    guard let (id, childAction) = action.extract(parentAction) else { return }
    // Changed in place, so the element is not copied while it changes.
    field.modify(&state) { $0.update(id: id) { update(&$0, childAction) } }
  }
}

/// Updates run one after another on the same action, in order.
@inlinable
public func combine<State, Action>(_ updates: Update<State, Action>...) -> Update<State, Action> {
  { state, action in for update in updates { update(&state, action) } }
}

extension Effect {
  /// This child effect as a parent's: run with the child's state for the parent actions that
  /// carry a child action; what it dispatches is embedded into parent actions, and its runs are
  /// filed under the child, so two children's ids never collide (Elm's `Cmd.map`).
  @inlinable
  public func lifted<ParentState: Sendable, ParentAction: Sendable>(
    state path: KeyPath<ParentState, State> & Sendable,
    action: ActionPath<ParentAction, Action>
  ) -> Effect<ParentState, ParentAction> {
    guard let body else { return .none }
    let namespace = AnyWorkID(path)
    let field = FieldReader(path)
    return Effect<ParentState, ParentAction> { state, parentAction, dispatch in
      guard let childAction = action.extract(parentAction) else { return }
      body(
        field(state), childAction,
        dispatch.scoped(
          namespace, embed: action.embed,
          project: { ($0 as? ParentState).map { field($0) as Any } }))
    }
  }

  /// This child effect for each element of an identified list: run with the element's state
  /// for the parent actions that carry its id; its runs are filed under the element and
  /// cancelled when the element leaves the list, whatever action removed it (their late
  /// results are dropped). A stack of screens is such a list: popping one ends its work.
  ///
  /// - Complexity: O(1) per action to notice a removal when one element left (or none), plus
  ///   O(r) to cancel the r runs the removed element had; when several left at once, O(c) for
  ///   the c elements with runs going.
  // Inlinable: specialized with the app's types, a message costs a few hundred instructions
  // here, where generic code looked up type metadata for each list, dictionary and optional.
  @inlinable
  public func lifted<ParentState: Sendable, ParentAction: Sendable, ID: Hashable & Sendable>(
    forEach path: KeyPath<ParentState, IdentifiedList<ID, State>> & Sendable,
    action: ActionPath<ParentAction, (id: ID, action: Action)>
  ) -> Effect<ParentState, ParentAction> {
    guard let body else { return .none }
    let list = AnyWorkID(path)
    let field = FieldReader(path)
    // The runs of each element, so a removed element's are cancelled whatever removed it.
    let runs = ChildRuns<ID>()
    // One recorder for every element, made with the lift: a run's key names its element.
    let record: @Sendable (RunKey<AnyWorkID>, Bool) -> Void = { key, isStarting in
      guard let element = ScopedKey.namespace(of: key)?.value(as: ElementNamespace<ID>.self)
      else { return }
      runs.record(key, isStarting: isStarting, of: element.id)
    }
    return Effect<ParentState, ParentAction> { state, parentAction, dispatch in
      let rows = field(state)
      if let (id, childAction) = action.extract(parentAction), let child = rows[id: id] {
        body(
          child, childAction,
          dispatch.scoped(
            AnyWorkID(ElementNamespace(list: list, id: id)), embed: { action.embed((id, $0)) },
            project: { ($0 as? ParentState).flatMap { field($0)[id: id].map { $0 as Any } } },
            record: record))
      }
      let gone = runs.removed(from: rows)
      if !gone.isEmpty { dispatch.cancel(keys: gone) }
    }
  }

  /// This effect with its actions embedded into a parent's, on the same state (`Cmd.map`).
  @inlinable
  public func map<ParentAction: Sendable>(
    _ action: ActionPath<ParentAction, Action>
  ) -> Effect<State, ParentAction> {
    guard let body else { return .none }
    return Effect<State, ParentAction> { state, parentAction, dispatch in
      guard let childAction = action.extract(parentAction) else { return }
      body(state, childAction, dispatch.map(action.embed))
    }
  }

  /// Runs this effect as if `action` had been processed: how a parent turns one child's action
  /// into a sibling's change in the same message (the shell's lap that counts, SPEC H4).
  public func run(state: State, action: Action, dispatch: Dispatch<Action>) {
    body?(state, action, dispatch)
  }
}

/// The namespace of one element's runs.
@usableFromInline
struct ElementNamespace<ID: Hashable & Sendable>: Hashable, Sendable, CustomStringConvertible {
  @usableFromInline let list: AnyWorkID
  @usableFromInline let id: ID

  @inlinable
  init(list: AnyWorkID, id: ID) {
    self.list = list
    self.id = id
  }

  @usableFromInline var description: String { "\(list)[\(id)]" }
}
