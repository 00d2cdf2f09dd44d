// Vendored from Kernel/Runtime/Presented.swift by Scripts/vendor-kernel. Do not edit here: edit the source,
// then run the script (CI fails while a copy differs).

/// Whether two presented children are one presentation: the same id when they are
/// `Identifiable`, else any two (a child without an id is told apart only by being there).
/// Decided once, from the type.
@usableFromInline
package func presentationIdentity<Child>(_: Child.Type) -> @Sendable (Child, Child) -> Bool {
  guard let identifiable = Child.self as? any (Identifiable & SendableMetatype).Type else {
    return { _, _ in true }
  }
  return sameID(identifiable)
}

private func sameID<Child, Identified: Identifiable & SendableMetatype>(
  _: Identified.Type
) -> @Sendable (Child, Child) -> Bool {
  // `Child` is `Identified` (the cast in `presentationIdentity` found it so): read as one, not
  // cast again, for every action that looks at the presentation.
  { first, second in
    withUnsafePointer(to: first) { first in
      withUnsafePointer(to: second) { second in
        id(of: Identified.self, at: first) == id(of: Identified.self, at: second)
      }
    }
  }
}

/// The id of the `Identified` at `child`, read where it is stored.
private func id<Child, Identified: Identifiable>(
  of _: Identified.Type, at child: UnsafePointer<Child>
) -> Identified.ID {
  UnsafeMutableRawPointer(mutating: child).assumingMemoryBound(to: Identified.self).pointee
    .idInPlace()
}

extension Identifiable {
  /// This value's `id`. Generic code that reads `id` of a value it has the address of copies
  /// the whole value first (the getter might change what is at the address); through a
  /// mutating access, which this one is only in name, it reads the value where it is.
  fileprivate mutating func idInPlace() -> ID { id }
}

/// What tells one presentation of a child from the next, as a value a runtime can file work
/// under: the child's id when it is `Identifiable`, else the same value for every child (told
/// apart only by being there). Decided once, from the type, as ``presentationIdentity(_:)``.
@usableFromInline
package func presentationKey<Child>(_: Child.Type) -> @Sendable (Child) -> PresentationKey {
  let inPlace = presentationKeyInPlace(Child.self)
  return { child in withUnsafePointer(to: child, inPlace) }
}

/// ``presentationKey(_:)`` of a child read where it is stored: a child handed over by value is
/// first copied out of the state that holds it, which retains everything the child holds.
@usableFromInline
package func presentationKeyInPlace<Child>(
  _: Child.Type
) -> @Sendable (UnsafePointer<Child>) -> PresentationKey {
  guard let identifiable = Child.self as? any (Identifiable & SendableMetatype).Type else {
    return { _ in .unidentified }
  }
  return keyOf(identifiable)
}

private func keyOf<Child, Identified: Identifiable & SendableMetatype>(
  _: Identified.Type
) -> @Sendable (UnsafePointer<Child>) -> PresentationKey {
  // As in `sameID`: `Child` is `Identified`, its memory read as one rather than cast on every
  // call. An `Int` id, the usual one, is kept as it is: made into an `AnyHashable`, it was cast
  // dynamically (about 780 instructions), and two compared through casts again (about 510).
  if Identified.ID.self == Int.self {
    return { child in
      var found = id(of: Identified.self, at: child)
      return PresentationKey(int: withUnsafeBytes(of: &found) { $0.load(as: Int.self) })
    }
  }
  return { child in PresentationKey(other: AnyHashable(id(of: Identified.self, at: child))) }
}

/// A presentation's key (see ``presentationKey(_:)``).
///
/// An `Int` id is kept as it is and any other boxed in an object, so a key is copied with at
/// most one retain (an `AnyHashable` held inline is copied through its type's witnesses, about
/// 80 instructions, and every action that looks at a presentation copies keys).
///
/// `@unchecked Sendable`: it holds a `Sendable` child's id, a value taken out of that child.
@usableFromInline
package struct PresentationKey: Hashable, @unchecked Sendable {
  /// The `Int` id; 0 for an id of another type.
  @usableFromInline let int: Int
  /// An id of another type.
  @usableFromInline let other: OtherID?

  @inlinable
  init(int: Int) {
    self.int = int
    other = nil
  }

  @usableFromInline
  init(other: AnyHashable) {
    int = 0
    self.other = OtherID(other)
  }

  /// The key of a child without an id: every presentation's.
  @inlinable
  static var unidentified: PresentationKey { PresentationKey(int: 0) }

  /// An id that is not an `Int`, in a box.
  @usableFromInline
  final class OtherID: Hashable, @unchecked Sendable {
    @usableFromInline let id: AnyHashable

    @usableFromInline
    init(_ id: AnyHashable) { self.id = id }

    @usableFromInline
    static func == (lhs: OtherID, rhs: OtherID) -> Bool { lhs === rhs || lhs.id == rhs.id }

    @usableFromInline
    func hash(into hasher: inout Hasher) { hasher.combine(id) }
  }
}

#if canImport(Observation)
  import Observation

  /// A child that exists only while presented, as SwiftUI reads it: `child` is an object while
  /// one is presented (what `sheet(item:)` wants), `nil` otherwise. Presenting, dismissing or
  /// replacing the child changes `child`; a change inside the child changes only the child
  /// object's `value`, so a view that reads the sheet's fields is not invalidated by
  /// presentation and a view that reads only `child` is not invalidated by typing.
  @MainActor @Observable
  public final class ObservablePresentation<Child: Equatable & Sendable> {
    /// The presented child, one object per presentation; `nil` when nothing is presented.
    public fileprivate(set) var child: ObservablePresentedChild<Child>?

    init(_ child: ObservablePresentedChild<Child>?) { self.child = child }
  }

  /// One presentation of a child: identified by the object, so `sheet(item:)` shows a new sheet
  /// for a new presentation.
  @MainActor @Observable
  public final class ObservablePresentedChild<Child: Equatable & Sendable>: Identifiable {
    /// The child's state now (the last state it had, once dismissed).
    public fileprivate(set) var value: Child

    init(_ value: Child) { self.value = value }
  }

  /// Keeps one ``ObservablePresentation`` up to date with the presented child a state holds.
  @MainActor
  package final class PresentationFollower<State, Child: Equatable & Sendable>: StateFollower {
    /// The presented child in a state, with what tells its presentation from the next one.
    let read: (State) -> (child: Child, presentation: AnyHashable)?
    package let presentation: ObservablePresentation<Child>
    private var shown: AnyHashable?

    /// Follows the optional child at `path`; `isSame` tells whether two children are one
    /// presentation.
    package convenience init(
      path: KeyPath<State, Child?>, isSame: @escaping @Sendable (Child, Child) -> Bool,
      state: State?
    ) {
      // Each child that is not the same as the one before starts a new presentation.
      var current: (child: Child, number: Int)?
      var count = 0
      self.init(
        read: { state in
          guard let child = state[keyPath: path] else {
            current = nil
            return nil
          }
          if let shown = current, isSame(shown.child, child) {
            current = (child, shown.number)
          } else {
            count += 1
            current = (child, count)
          }
          return (child, AnyHashable(current!.number))
        }, state: state)
    }

    /// Follows the child `read` finds, one presentation per key it gives; `state` is the state
    /// now, if there is one yet.
    package init(
      read: @escaping (State) -> (child: Child, presentation: AnyHashable)?, state: State?
    ) {
      self.read = read
      let found = state.flatMap(read)
      shown = found?.presentation
      presentation = ObservablePresentation(found.map { ObservablePresentedChild($0.child) })
    }

    /// Takes the new state: a new child object for a new presentation, `nil` for a dismissal,
    /// the new value for a change inside the presented child (only if it differs).
    package func follow(_ state: State) {
      let found = read(state)
      guard found?.presentation == shown else {
        shown = found?.presentation
        presentation.child = found.map { ObservablePresentedChild($0.child) }
        return
      }
      if let found, let object = presentation.child, object.value != found.child {
        object.value = found.child
      }
    }
  }
#endif
