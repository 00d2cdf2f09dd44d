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
  let slots: [Slot]

  /// No children: nothing ends with anything (the default of ``Update/children``).
  public init() { slots = [] }

  /// These children together.
  public init(_ children: Children...) { slots = children.flatMap(\.slots) }

  private init(slot: Slot) { slots = [slot] }

  /// A child that exists while the optional at `path` holds one. The effects whose ids `owns`
  /// picks, started while it is presented, are cancelled when it is dismissed — set to `nil` —
  /// or replaced by another child (for an `Identifiable` child, one with another id).
  ///
  /// - Complexity: O(1) per message that changes the state, plus O(e) to cancel the e effects
  ///   of a dismissed child.
  public static func presented<Child: Sendable>(
    _ path: KeyPath<State, Child?> & Sendable,
    effects owns: @escaping @Sendable (EffectID) -> Bool
  ) -> Children {
    let isSame = presentationIdentity(Child.self)
    return Children(
      slot: Slot {
        PresentedTracker(path: path, owns: owns, isSame: isSame)
      })
  }

  /// The elements of the identified list at `path`, each a child: the effects whose ids
  /// `owner` assigns to an element are cancelled when that element leaves the list (a popped
  /// screen, a deleted row).
  ///
  /// - Complexity: O(1) per message to notice that one element left (or none did), plus O(e)
  ///   to cancel its e effects; when several leave at once, O(c) for the c elements that ever
  ///   started an effect and are still in the list.
  public static func forEach<ID: Hashable & Sendable, Element: Sendable>(
    _ path: KeyPath<State, IdentifiedList<ID, Element>> & Sendable,
    effects owner: @escaping @Sendable (EffectID) -> ID?
  ) -> Children {
    Children(slot: Slot { ListTracker(path: path, owner: owner) })
  }

  /// One kind of child: makes the tracker a loop keeps for it.
  struct Slot: Sendable {
    let makeTracker: @Sendable () -> any ChildTracker<State, EffectID>
  }

  /// A tracker for every child, for one loop (or one spec).
  @usableFromInline
  package func makeTrackers() -> [any ChildTracker<State, EffectID>] {
    slots.map { $0.makeTracker() }
  }
}

/// What a loop keeps for one kind of child, under its lock: which effects each child started,
/// and which children the last state change removed.
@usableFromInline
package protocol ChildTracker<State, EffectID>: Sendable {
  associatedtype State
  associatedtype EffectID: Hashable & Sendable
  /// Notes an effect that started, in `state`.
  mutating func started(_ id: EffectID, in state: State)
  /// The effects of the children `state` no longer has: to cancel.
  mutating func endedWork(in state: State) -> [EffectID]
}

/// A presented child's tracker: the child shown at the last look, and its effects.
struct PresentedTracker<State, Child: Sendable, EffectID: Hashable & Sendable>: ChildTracker {
  let path: KeyPath<State, Child?> & Sendable
  let owns: @Sendable (EffectID) -> Bool
  let isSame: @Sendable (Child, Child) -> Bool
  var shown: Child?
  var effects: Set<EffectID> = []

  init(
    path: KeyPath<State, Child?> & Sendable, owns: @escaping @Sendable (EffectID) -> Bool,
    isSame: @escaping @Sendable (Child, Child) -> Bool
  ) {
    self.path = path
    self.owns = owns
    self.isSame = isSame
  }

  mutating func started(_ id: EffectID, in state: State) {
    guard owns(id) else { return }
    if shown == nil { shown = state[keyPath: path] }
    if shown != nil { effects.insert(id) }
  }

  mutating func endedWork(in state: State) -> [EffectID] {
    let child = state[keyPath: path]
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
struct ListTracker<
  State, ID: Hashable & Sendable, Element: Sendable, EffectID: Hashable & Sendable
>:
  ChildTracker
{
  let path: KeyPath<State, IdentifiedList<ID, Element>> & Sendable
  let owner: @Sendable (EffectID) -> ID?
  var ledger = ChildLedger<ID, EffectID>()

  init(
    path: KeyPath<State, IdentifiedList<ID, Element>> & Sendable,
    owner: @escaping @Sendable (EffectID) -> ID?
  ) {
    self.path = path
    self.owner = owner
  }

  mutating func started(_ id: EffectID, in state: State) {
    if let element = owner(id) { ledger.begin(id, of: element) }
  }

  mutating func endedWork(in state: State) -> [EffectID] {
    ledger.isEmpty ? [] : ledger.removed(from: state[keyPath: path])
  }
}
