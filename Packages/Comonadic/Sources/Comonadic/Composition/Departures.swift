/// The children of a dispatcher whose work ends with them: a part widened onto an optional (a
/// presented form) or the elements of a lifted list (the screens of a stack). One entry per
/// widening; the dispatcher keeps no state, so one dispatcher serves any number of components,
/// each making the watches it keeps under its lock.
@usableFromInline
package struct Departures<Focus>: Sendable {
  @usableFromInline package let makeWatch: @Sendable () -> DepartureWatch<Focus>

  @inlinable
  init(_ makeWatch: @escaping @Sendable () -> DepartureWatch<Focus>) {
    self.makeWatch = makeWatch
  }

  /// These departures for a part of a bigger state, which `part` reads (`nil` while an optional
  /// part is not there: its own departure ends its children's work); `isPart` tells the part's
  /// scope among the scopes work is filed under.
  @inlinable
  func widened<Big>(
    isPart: @escaping @Sendable (AnyWorkID) -> Bool, part: @escaping @Sendable (Big) -> Focus?
  ) -> Departures<Big> {
    let makeWatch = makeWatch
    return Departures<Big> {
      let inner = makeWatch()
      return DepartureWatch<Big>(
        started: { id, filed in
          guard isPart(filed.scope), let within = filed.inner else { return false }
          return inner.started(id, within)
        },
        departed: { whole in
          guard inner.isTracking(), let focus = part(whole) else { return [] }
          return inner.departed(focus)
        },
        isTracking: inner.isTracking)
    }
  }
}

/// What a component keeps for one kind of child, under its lock: the work each child began, and
/// which children the last action removed.
///
/// Closures around one tracker object, made where the app's types are known (the inlinable
/// widenings), so the tracker's code is specialized for them: a protocol existential would run
/// the tracker's generic code, which looks up type metadata for every dictionary it touches.
/// A class: a component looks at each of its watches after every action, and a copy of a
/// value of three closures retains each of them (an object, once).
@usableFromInline
package final class DepartureWatch<Focus>: Sendable {
  /// Notes work `id` that began, filed as `filed` from this watch's level down;
  /// returns whether enough children began work since the last look that the component should
  /// look now (so a launch that starts thousands places them in its own message).
  @usableFromInline package let started: @Sendable (AnyWorkID, ScopedWorkID) -> Bool
  /// The work of the children that the state `focus` no longer has: to cancel.
  @usableFromInline package let departed: @Sendable (Focus) -> [AnyWorkID]
  /// Whether any child has work noted.
  @usableFromInline let isTracking: @Sendable () -> Bool

  @inlinable
  init(
    started: @escaping @Sendable (AnyWorkID, ScopedWorkID) -> Bool,
    departed: @escaping @Sendable (Focus) -> [AnyWorkID],
    isTracking: @escaping @Sendable () -> Bool
  ) {
    self.started = started
    self.departed = departed
    self.isTracking = isTracking
  }
}

/// The scope of a presented part's work: the part's place, and the presentation it began in.
@usableFromInline
struct Presence: Hashable, Sendable {
  @usableFromInline let part: AnyWorkID
  /// The presented child's id (an `Identifiable` child), or the same value for every
  /// presentation of a child without one.
  @usableFromInline let key: PresentationKey

  @inlinable
  init(part: AnyWorkID, key: PresentationKey) {
    self.part = part
    self.key = key
  }
}

/// A presented part's tracker: the work begun in each presentation, ended once the part holds
/// another presentation or none.
///
/// `@unchecked Sendable`: used only under its component's lock.
@usableFromInline
final class PresenceTracker<Big, Child: Sendable>: @unchecked Sendable {
  @usableFromInline let place: PresentedPlace<Big, Child>
  /// The work of each presentation that began some: rarely more than one, so a list, kept
  /// with its room (a dictionary was made and freed for each presentation). Unchecked: only
  /// its component's lock guards it (a class's variable is otherwise checked at every access,
  /// 75 instructions each).
  @exclusivity(unchecked) @usableFromInline var work: [PresentationWork] = []

  @inlinable
  init(_ place: PresentedPlace<Big, Child>) {
    self.place = place
  }

  @inlinable
  func started(_ id: AnyWorkID, _ filed: ScopedWorkID) -> Bool {
    guard let presence = filed.scope.value(as: Presence.self), presence.part == place.part else {
      return false
    }
    if let index = work.firstIndex(where: { $0.key == presence.key }) {
      work[index].add(id)
    } else {
      work.append(PresentationWork(key: presence.key, id: id))
    }
    return false
  }

  @inlinable
  func departed(_ whole: Big) -> [AnyWorkID] {
    guard !work.isEmpty else { return [] }
    let shown = place.shown(in: whole)
    if work.count == 1 {
      // The presentation that began work is still shown, or has left: its list is handed over.
      guard work[0].key != shown else { return [] }
      defer { work.removeAll(keepingCapacity: true) }
      return work[0].ids
    }
    var gone: [AnyWorkID] = []
    work.removeAll { presentation in
      guard presentation.key != shown else { return false }
      gone += presentation.ids
      return true
    }
    return gone
  }

  @inlinable
  func watch() -> DepartureWatch<Big> {
    DepartureWatch(
      started: { self.started($0, $1) }, departed: { self.departed($0) },
      isTracking: { !self.work.isEmpty })
  }
}

/// The work one presentation began: a list (cancelling an id twice, or one that ended, does
/// nothing), with the ids that repeat folded away whenever it has doubled, so it holds at
/// most twice the distinct ids and a start costs O(1), amortized. A presentation rarely starts
/// more than a few: a set was made, hashed into and freed for each one.
@usableFromInline
struct PresentationWork {
  @usableFromInline let key: PresentationKey
  @usableFromInline var ids: [AnyWorkID]
  /// How many ids there were when repeats were last folded away.
  @usableFromInline var folded = 1

  @inlinable
  init(key: PresentationKey, id: AnyWorkID) {
    self.key = key
    ids = [id]
  }

  @inlinable
  mutating func add(_ id: AnyWorkID) {
    guard ids.last != id else { return }
    ids.append(id)
    guard ids.count >= 2 * folded, ids.count >= 16 else { return }
    var seen = Set<AnyWorkID>(minimumCapacity: ids.count)
    ids.removeAll { !seen.insert($0).inserted }
    folded = ids.count
  }
}

/// A lifted list's tracker: the work of each element, in a ``ChildLedger``.
///
/// `@unchecked Sendable`: used only under its component's lock.
@usableFromInline
final class ElementTracker<Big, ID: Hashable & Sendable, Row: Sendable>: @unchecked Sendable {
  @usableFromInline let list: AnyWorkID
  @usableFromInline let rows: WritableField<Big, IdentifiedList<ID, Row>>
  /// Unchecked, as ``PresenceTracker/work``: only its component's lock guards it.
  @exclusivity(unchecked) @usableFromInline var ledger = ChildLedger<ID, AnyWorkID>()

  @inlinable
  init(list: AnyWorkID, rows: WritableField<Big, IdentifiedList<ID, Row>>) {
    self.list = list
    self.rows = rows
  }

  @inlinable
  func started(_ id: AnyWorkID, _ filed: ScopedWorkID) -> Bool {
    guard let element = filed.scope.value(as: Element<ID>.self), element.list == list else {
      return false
    }
    ledger.begin(id, of: element.id)
    // A few are placed at the next look; many (a launched stack) in the message that began
    // them, so the first message after it does not pay for them.
    return ledger.unplaced.count >= 64
  }

  @inlinable
  func departed(_ whole: Big) -> [AnyWorkID] {
    guard !ledger.isEmpty else { return [] }
    // The list is read where it is in the state, not copied out of it.
    return withUnsafePointer(to: whole) { root in
      guard let list = rows.address(in: root) else { return ledger.removed(from: rows(whole)) }
      return ledger.removed(at: list)
    }
  }

  @inlinable
  func watch() -> DepartureWatch<Big> {
    DepartureWatch(
      started: { self.started($0, $1) }, departed: { self.departed($0) },
      isTracking: { !self.ledger.isEmpty })
  }
}
