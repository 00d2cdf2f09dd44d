/// The runs each child of one lift has going, by child (a ``ChildLedger`` in a lock): what a
/// dismissed child's work is, so ending it costs what that child owns, never a look at every
/// run of the store.
///
/// A child's scoped host files each run it starts here (under the key the parent's host knows
/// it by) and takes it out when the run's operation returns; a run that never began stays
/// until its child leaves (cancelling it then does nothing).
@usableFromInline
final class ChildRuns<Child: Hashable & Sendable>: Sendable {
  @usableFromInline let ledger = Lock(ChildLedger<Child, RunKey<AnyWorkID>>())

  @inlinable init() {}

  /// Notes that a run of `child` started (`isStarting`) or returned.
  @inlinable func record(_ key: RunKey<AnyWorkID>, isStarting: Bool, of child: Child) {
    ledger.withLock { ledger in
      if isStarting { ledger.begin(key, of: child) } else { ledger.end(key, of: child) }
    }
  }

  /// Takes `child`'s runs out: the keys to cancel.
  @inlinable func forget(_ child: Child) -> [RunKey<AnyWorkID>] {
    ledger.withLock { $0.forget(child) }
  }

  /// The runs of the children that are no longer in `list`, taken out: the keys to cancel.
  ///
  /// - Complexity: see ``ChildLedger/removed(from:)``.
  @inlinable func removed<Element>(from list: IdentifiedList<Child, Element>) -> [RunKey<AnyWorkID>]
  {
    ledger.withLock { $0.removed(from: list) }
  }
}
