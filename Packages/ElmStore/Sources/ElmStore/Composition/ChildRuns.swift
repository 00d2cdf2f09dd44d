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

  /// What a child's scoped host calls as its runs start (`true`) and return (`false`).
  @inlinable func recorder(for child: Child) -> @Sendable (RunKey<AnyWorkID>, Bool) -> Void {
    { [weak self] key, isStarting in
      self?.ledger.withLock { ledger in
        if isStarting { ledger.begin(key, of: child) } else { ledger.end(key, of: child) }
      }
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

/// The runs of the presentation a presented child's lift shows now: at most one child at a
/// time, so one table of runs, emptied when the presentation ends (no ledger of children).
///
/// A run that a presentation begins after it ended (through a dispatch an effect kept) is not
/// filed: nothing is presented under its number any more.
@usableFromInline
final class PresentationRuns: Sendable {
  @usableFromInline struct Filed: Sendable {
    /// The presentation whose runs are filed, and whether it has ended.
    @usableFromInline var number = 0
    @usableFromInline var hasEnded = false
    /// Its runs, with how many of each have not returned (one that replaced another begins
    /// before the replaced one returns).
    @usableFromInline var runs: [RunKey<AnyWorkID>: Int] = [:]

    @inlinable init() {}
  }

  @usableFromInline let filed = Lock(Filed())

  @inlinable init() {}

  /// What the scoped host of presentation `number` calls as its runs start (`true`) and
  /// return (`false`).
  @inlinable func recorder(for number: Int) -> @Sendable (RunKey<AnyWorkID>, Bool) -> Void {
    { [weak self] key, isStarting in
      self?.filed.withLock { filed in
        if number > filed.number {
          filed.number = number
          filed.hasEnded = false
          filed.runs.removeAll(keepingCapacity: true)
        }
        guard number == filed.number, !filed.hasEnded else { return }
        if isStarting {
          filed.runs[key, default: 0] += 1
        } else if let count = filed.runs[key] {
          filed.runs[key] = count > 1 ? count - 1 : nil
        }
      }
    }
  }

  /// Ends presentation `number`: its runs, to cancel.
  @inlinable func forget(_ number: Int) -> [RunKey<AnyWorkID>] {
    filed.withLock { filed in
      if number > filed.number { filed.number = number }
      guard filed.number == number else { return [] }
      filed.hasEnded = true
      guard !filed.runs.isEmpty else { return [] }
      defer { filed.runs.removeAll(keepingCapacity: true) }
      return Array(filed.runs.keys)
    }
  }
}
