/// A child's update applied to a child that exists only while presented — a sheet, a form, an
/// alert: state at an optional (TCA's `ifLet`). A child action while nothing is presented is
/// ignored, as the list lift ignores a removed row's.
///
/// ```swift
/// static let formUpdate: Update<State, Action> = lift(
///   AddForm.update, ifLet: \.addForm, action: .form)
/// ```
///
/// Dismiss the child by setting the optional to `nil`, in any action: the lifted effect
/// (``Effect/lifted(ifLet:action:)``) ends its work.
@inlinable
public func lift<ParentState, ParentAction: Sendable, ChildState, ChildAction: Sendable>(
  _ update: @escaping Update<ChildState, ChildAction>,
  ifLet path: WritableKeyPath<ParentState, ChildState?> & Sendable,
  action: ActionPath<ParentAction, ChildAction>
) -> Update<ParentState, ParentAction> {
  let field = WritableField(path)
  return { state, parentAction in
    guard let childAction = action.extract(parentAction) else { return }
    // Looked at and changed in place, so the child is not copied to check it is there, nor
    // while it changes.
    field.modify(&state) { child in
      if child != nil { update(&child!, childAction) }
    }
  }
}

extension Effect {
  /// This child effect for a child that exists only while presented: run with the child's
  /// state for the parent actions that carry a child action while it is presented; its runs
  /// are filed under this presentation and cancelled in the action that dismisses it —
  /// whatever action set the optional to `nil` — and their late results are dropped.
  ///
  /// ```swift
  /// Effect {
  ///   AddForm.effect(service).lifted(ifLet: \.addForm, action: .form)
  /// }
  /// ```
  ///
  /// A child that is `Identifiable` is one presentation per id: replacing it with a child of
  /// another id, in one action, ends the first one's work too.
  ///
  /// - Complexity: O(1) per action, plus O(r) to cancel the r runs of a dismissed child.
  // Inlinable, as the list's: specialized with the app's types, the presentation's bookkeeping
  // costs a few hundred instructions an action, where generic code looked up type metadata.
  @inlinable
  public func lifted<ParentState: Sendable, ParentAction: Sendable>(
    ifLet path: KeyPath<ParentState, State?> & Sendable,
    action: ActionPath<ParentAction, Action>
  ) -> Effect<ParentState, ParentAction> {
    lifted(ifLet: path, action: action, isSame: presentationIdentity(State.self))
  }

  @inlinable
  func lifted<ParentState: Sendable, ParentAction: Sendable>(
    ifLet path: KeyPath<ParentState, State?> & Sendable,
    action: ActionPath<ParentAction, Action>,
    isSame: @escaping @Sendable (State, State) -> Bool
  ) -> Effect<ParentState, ParentAction> {
    guard let body else { return .none }
    let field = FieldReader(path)
    let slot = AnyWorkID(path)
    let shown = Lock(ShownPresentation<State>())
    // Made once, not per action: what the child's scope reads, and what it is told of its runs
    // (whose keys name their presentation).
    let project: @Sendable (Any) -> Any? = {
      ($0 as? ParentState).flatMap { field($0).map { $0 as Any } }
    }
    let record: @Sendable (RunKey<AnyWorkID>, Bool) -> Void = { key, isStarting in
      guard let presentation = PresentationNamespace.number(of: key) else { return }
      shown.withLock { $0.note(key, isStarting: isStarting, in: presentation) }
    }
    return Effect<ParentState, ParentAction> { state, parentAction, dispatch in
      let childAction = action.extract(parentAction)
      // Looked at where it is stored: an action that leaves the presentation as it was copies
      // no child.
      let (namespace, ended) = field.withAddress(in: state) { child in
        shown.withLock { $0.look(at: child, isSame: isSame, namespaceIn: slot) }
      }
      if !ended.isEmpty { dispatch.cancel(keys: ended) }
      guard let childAction, let namespace, let child = field(state) else { return }
      body(
        child, childAction,
        dispatch.scoped(namespace, embed: action.embed, project: project, record: record))
    }
  }
}

/// What a presented child's lift keeps between actions, under one lock: the presentation shown
/// when it last looked (its first child, for its identity), numbered in order, and that
/// presentation's runs with how many of each have not returned (one that replaced another
/// begins before the replaced one returns).
@usableFromInline
struct ShownPresentation<Child> {
  @usableFromInline var child: Child?
  @usableFromInline var number = 0
  @usableFromInline var runs: [RunKey<AnyWorkID>: Int] = [:]
  /// The namespace of the shown presentation's runs (`nil` while none is shown): made when it
  /// is presented, so each of its child's actions files work under the same one.
  @usableFromInline var namespace: AnyWorkID?

  @inlinable init() {}

  /// Takes in the child the state holds now: the namespace of its presentation's runs (`nil`
  /// when none is shown), and the runs of the presentation that ended (dismissed or replaced),
  /// to cancel.
  @inlinable
  mutating func look(
    at new: UnsafePointer<Child?>, isSame: (Child, Child) -> Bool, namespaceIn slot: AnyWorkID
  ) -> (namespace: AnyWorkID?, ended: [RunKey<AnyWorkID>]) {
    // Compared where each is kept (a tuple of the two would copy both).
    let wasShown = child != nil
    if let new = new.pointee {
      if let old = child, isSame(old, new) { return (namespace, []) }
      child = new
      number += 1
      namespace = AnyWorkID(PresentationNamespace(slot: slot, number: number))
    } else {
      guard wasShown else { return (nil, []) }
      child = nil
      namespace = nil
    }
    guard wasShown, !runs.isEmpty else { return (namespace, []) }
    defer { runs.removeAll(keepingCapacity: true) }
    return (namespace, Array(runs.keys))
  }

  /// Notes that a run of presentation `presentation` started (`isStarting`) or returned. A run
  /// begun after its presentation ended (through a dispatch an effect kept) is not filed.
  @inlinable
  mutating func note(_ key: RunKey<AnyWorkID>, isStarting: Bool, in presentation: Int) {
    guard presentation == number, child != nil else { return }
    if isStarting {
      runs[key, default: 0] += 1
    } else if let count = runs[key] {
      runs[key] = count > 1 ? count - 1 : nil
    }
  }
}

/// The namespace of one presentation's runs.
@usableFromInline
struct PresentationNamespace: Hashable, Sendable {
  @usableFromInline let slot: AnyWorkID
  @usableFromInline let number: Int

  @inlinable
  init(slot: AnyWorkID, number: Int) {
    self.slot = slot
    self.number = number
  }

  /// The presentation a child's run was filed under, from the key its scope filed it by.
  @inlinable
  static func number(of key: RunKey<AnyWorkID>) -> Int? {
    ScopedKey.namespace(of: key)?.value(as: PresentationNamespace.self)?.number
  }
}

extension Store {
  /// A view of a presented child, or `nil` when nothing is presented at `path` (what SwiftUI's
  /// `sheet(item:)` and a test need). The scope belongs to this presentation: once the child is
  /// dismissed — or, for an `Identifiable` child, replaced by one with another id — its state
  /// is `nil` and what it dispatches is ignored, also while a later child is presented at
  /// `path`. The check is made in queue order: an action dispatched through the scope before the
  /// dismissal was handled is ignored too, if the dismissal comes first. (A child that is not
  /// `Identifiable` has no identity: any child presented at `path` is taken for this one.)
  ///
  /// ```swift
  /// if let form = store.scope(ifLet: \.addForm, action: { .form($0) }) {
  ///   form.dispatch(.intent(.save))
  /// }
  /// ```
  public func scope<Child: Sendable, ChildAction: Sendable>(
    ifLet path: KeyPath<State, Child?> & Sendable,
    action embed: @escaping @Sendable (ChildAction) -> Action
  ) -> ScopedStore<Child?, ChildAction>? {
    presentedScope(path, embed, isSame: presentationIdentity(Child.self))
  }

  private func presentedScope<Child: Sendable, ChildAction: Sendable>(
    _ path: KeyPath<State, Child?> & Sendable,
    _ embed: @escaping @Sendable (ChildAction) -> Action,
    isSame: @escaping @Sendable (Child, Child) -> Bool
  ) -> ScopedStore<Child?, ChildAction>? {
    let field = FieldReader(path)
    guard let presented = field(state) else { return nil }
    // This presentation's child, or nil once another (or none) is shown.
    let own: @Sendable (State) -> Child? = { state in
      field(state).flatMap { isSame(presented, $0) ? $0 : nil }
    }
    let runtime = self.runtime
    return ScopedStore(
      read: { own(self.state) },
      send: { runtime.dispatch(embed($0), if: { own($0) != nil }) },
      observe: { observer in self.subscribe { observer(own($0)) } })
  }
}
