// Vendored from Kernel/Runtime/Presented.swift by Scripts/vendor-kernel. Do not edit here: edit the source,
// then run the script (CI fails while a copy differs).

/// Whether two presented children are one presentation: the same id when they are
/// `Identifiable`, else any two (a child without an id is told apart only by being there).
/// Decided once, from the type.
package func presentationIdentity<Child>(_: Child.Type) -> @Sendable (Child, Child) -> Bool {
  guard let identifiable = Child.self as? any (Identifiable & SendableMetatype).Type else {
    return { _, _ in true }
  }
  return sameID(identifiable)
}

private func sameID<Child, Identified: Identifiable & SendableMetatype>(
  _: Identified.Type
) -> @Sendable (Child, Child) -> Bool {
  { first, second in (first as! Identified).id == (second as! Identified).id }
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

  /// Keeps one ``ObservablePresentation`` up to date with the optional child at `path`.
  @MainActor
  package final class PresentationFollower<State, Child: Equatable & Sendable>: StateFollower {
    let path: KeyPath<State, Child?>
    let isSame: @Sendable (Child, Child) -> Bool
    package let presentation: ObservablePresentation<Child>

    package init(
      path: KeyPath<State, Child?>, isSame: @escaping @Sendable (Child, Child) -> Bool,
      state: State
    ) {
      self.path = path
      self.isSame = isSame
      let child = state[keyPath: path]
      presentation = ObservablePresentation(child.map(ObservablePresentedChild.init))
    }

    /// Takes the new state: a new child object for a new presentation, `nil` for a dismissal,
    /// the new value for a change inside the presented child (only if it differs).
    package func follow(_ state: State) {
      let child = state[keyPath: path]
      switch (presentation.child, child) {
      case (nil, nil):
        return
      case (let object?, let child?) where isSame(object.value, child):
        if object.value != child { object.value = child }
      default:
        presentation.child = child.map(ObservablePresentedChild.init)
      }
    }
  }
#endif
