/// The children of an update's state whose effects end with them: a presented child (a sheet,
/// a form) at an optional, the screens of a stack in an ``IdentifiedList``. The update says
/// which effects belong to which child — by their ids, which the parent already embeds — and
/// the loop cancels a child's running effects in the message that removes the child from the
/// state, whatever event or result removed it. The update never returns a cancellation for a
/// dismissed child; a late result of its effects is dropped.
///
/// ```swift
/// struct ContactsUpdate: Update {
///   var children: Children<ContactsState, ContactsEffect.ID> {
///     Children(
///       .presented(\.form, effects: { if case .form = $0 { true } else { false } }),
///       .forEach(\.stack, effects: { if case .screen(let id, _) = $0 { id } else { nil } }))
///   }
///   …
/// }
/// ```
///
/// Only effects with an id can be cancelled, so a child's cancellable work needs ids (as in
/// the forEach composition, `id: { .screen($0, $1) }`).
public struct Children<State, EffectID: Hashable & Sendable>: Sendable {
  @usableFromInline let slots: [Slot]

  /// No children: nothing ends with anything (the default of ``Update/children``).
  public init() { slots = [] }

  /// These children together.
  public init(_ children: Children...) { slots = children.flatMap(\.slots) }

  @usableFromInline init(slot: Slot) { slots = [slot] }

  /// A child that exists while the optional at `path` holds one. The effects whose ids `owns`
  /// picks, started while it is presented, are cancelled when it is dismissed — set to `nil` —
  /// or replaced by another child (for an `Identifiable` child, one with another id).
  ///
  /// `path` is a key path literal (`\.form`) or any function that reads the child: taken as a
  /// function, a key path literal is compiled to a plain read, where a stored `KeyPath` was
  /// applied at run time on every message that changed the state (two thirds of a
  /// microsecond, a generic type's metadata looked up each time).
  ///
  /// - Complexity: O(1) per message that changes the state, plus O(e) to cancel the e effects
  ///   of a dismissed child.
  @inlinable
  public static func presented<Child: Sendable>(
    _ path: @escaping @Sendable (State) -> Child?,
    effects owns: @escaping @Sendable (EffectID) -> Bool
  ) -> Children {
    let isSame = presentationIdentity(Child.self)
    return Children(
      slot: Slot {
        let tracker = PresentedTracker(path: path, owns: owns, isSame: isSame)
        return ChildTracker(
          started: { tracker.started($0, in: $1) }, endedWork: { tracker.endedWork(in: $0) })
      })
  }

  /// The elements of the identified list at `path`, each a child: the effects whose ids
  /// `owner` assigns to an element are cancelled when that element leaves the list (a popped
  /// screen, a deleted row). `path` is a key path literal (`\.stack`) or a function that reads
  /// the list, as in ``presented(_:effects:)``.
  ///
  /// - Complexity: O(1) per message to notice that one element left (or none did), plus O(e)
  ///   to cancel its e effects; when several leave at once, O(c) for the c elements that ever
  ///   started an effect and are still in the list.
  // Inlinable: the tracker is then made, and specialized, where the app's types are known (as
  // generic code it looked up type metadata for every dictionary it touched: 28,000
  // instructions a popped screen, against 2,800 for the plain-Swift baseline).
  @inlinable
  public static func forEach<ID: Hashable & Sendable, Element: Sendable>(
    _ path: @escaping @Sendable (State) -> IdentifiedList<ID, Element>,
    effects owner: @escaping @Sendable (EffectID) -> ID?
  ) -> Children {
    Children(
      slot: Slot {
        let tracker = ListTracker(path: path, owner: owner)
        return ChildTracker(
          started: { tracker.started($0, in: $1) }, endedWork: { tracker.endedWork(in: $0) })
      })
  }

  /// One kind of child: makes the tracker a loop keeps for it.
  @usableFromInline
  struct Slot: Sendable {
    @usableFromInline let makeTracker: @Sendable () -> ChildTracker<State, EffectID>

    @inlinable
    init(makeTracker: @escaping @Sendable () -> ChildTracker<State, EffectID>) {
      self.makeTracker = makeTracker
    }
  }

  /// A tracker for every child, for one loop (or one spec).
  @usableFromInline
  package func makeTrackers() -> [ChildTracker<State, EffectID>] {
    slots.map { $0.makeTracker() }
  }
}

/// What a loop keeps for one kind of child, used under its lock: which effects each child
/// started, and which children the last state change removed.
///
/// Two closures around one tracker object, made where the app's types are known (``Children``'
/// inlinable factories), so the tracker's code is specialized for them; a protocol existential
/// would call the tracker's generic code, which looks up type metadata for every dictionary it
/// touches.
@usableFromInline
package struct ChildTracker<State, EffectID: Hashable & Sendable>: Sendable {
  @usableFromInline let onStart: @Sendable (EffectID, State) -> Void
  @usableFromInline let onChange: @Sendable (State) -> [EffectID]

  @inlinable
  init(
    started: @escaping @Sendable (EffectID, State) -> Void,
    endedWork: @escaping @Sendable (State) -> [EffectID]
  ) {
    onStart = started
    onChange = endedWork
  }

  /// Notes an effect that started, in `state`.
  @inlinable
  package func started(_ id: EffectID, in state: State) { onStart(id, state) }

  /// The effects of the children `state` no longer has: to cancel.
  @inlinable
  package func endedWork(in state: State) -> [EffectID] { onChange(state) }
}

/// A presented child's tracker: the child shown at the last look, and its effects.
///
/// `@unchecked Sendable`: used only under its loop's lock.
@usableFromInline
final class PresentedTracker<State, Child: Sendable, EffectID: Hashable & Sendable>:
  @unchecked Sendable
{
  @usableFromInline let path: @Sendable (State) -> Child?
  @usableFromInline let owns: @Sendable (EffectID) -> Bool
  @usableFromInline let isSame: @Sendable (Child, Child) -> Bool
  @usableFromInline var shown: Child?
  @usableFromInline var effects: Set<EffectID> = []

  @inlinable
  init(
    path: @escaping @Sendable (State) -> Child?, owns: @escaping @Sendable (EffectID) -> Bool,
    isSame: @escaping @Sendable (Child, Child) -> Bool
  ) {
    self.path = path
    self.owns = owns
    self.isSame = isSame
  }

  @inlinable
  func started(_ id: EffectID, in state: State) {
    guard owns(id) else { return }
    if shown == nil { shown = path(state) }
    if shown != nil { effects.insert(id) }
  }

  @inlinable
  func endedWork(in state: State) -> [EffectID] {
    let child = path(state)
    switch (shown, child) {
    case (nil, _):
      shown = child
      return []
    case (let old?, let new?) where isSame(old, new):
      shown = new
      return []
    default:
      shown = child
      defer { effects = [] }
      return Array(effects)
    }
  }
}

/// A list's tracker: the effects of each element, in a ``ChildLedger``.
///
/// `@unchecked Sendable`: used only under its loop's lock.
@usableFromInline
final class ListTracker<
  State, ID: Hashable & Sendable, Element: Sendable, EffectID: Hashable & Sendable
>: @unchecked Sendable {
  @usableFromInline let path: @Sendable (State) -> IdentifiedList<ID, Element>
  @usableFromInline let owner: @Sendable (EffectID) -> ID?
  @usableFromInline var ledger = ChildLedger<ID, EffectID>()

  @inlinable
  init(
    path: @escaping @Sendable (State) -> IdentifiedList<ID, Element>,
    owner: @escaping @Sendable (EffectID) -> ID?
  ) {
    self.path = path
    self.owner = owner
  }

  @inlinable
  func started(_ id: EffectID, in state: State) {
    if let element = owner(id) { ledger.begin(id, of: element) }
  }

  @inlinable
  func endedWork(in state: State) -> [EffectID] {
    ledger.isEmpty ? [] : ledger.removed(from: path(state))
  }
}
