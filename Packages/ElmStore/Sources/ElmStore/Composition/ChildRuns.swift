/// The runs each child of one lift has going, by child: what a dismissed child's work is, so
/// ending it costs what that child owns, never a look at every run of the store.
///
/// A child's scoped host files each run it starts here (under the key the parent's host knows
/// it by) and takes it out when the run's operation returns; a run that never began stays
/// until its child leaves (cancelling it then does nothing).
final class ChildRuns<Child: Hashable & Sendable>: Sendable {
  struct Ledger {
    /// The keys of each child's runs, with how many runs under each key have not returned (a
    /// superseded run returns after the one that replaced it began).
    var keys: [Child: [RunKey<AnyWorkID>: Int]] = [:]
    /// For lists: which child holds each slot of the list, for the children with runs, and the
    /// layout those slots belong to; and the list's stamp when it was last looked at.
    var bySlot: [Int: Child] = [:]
    var slotOf: [Child: Int] = [:]
    var layout: UInt64 = 0
    var stamp: UInt64 = 0
    /// Children whose first run began since the last look: their slots are not noted yet.
    var unplaced: [Child] = []

    mutating func forget(_ child: Child) -> [RunKey<AnyWorkID>] {
      if let slot = slotOf.removeValue(forKey: child) { bySlot[slot] = nil }
      return keys.removeValue(forKey: child).map { Array($0.keys) } ?? []
    }
  }

  let ledger = Lock(Ledger())

  init() {}

  /// What a child's scoped host calls as its runs start (`true`) and return (`false`).
  func recorder(for child: Child) -> @Sendable (RunKey<AnyWorkID>, Bool) -> Void {
    { [weak self] key, isStarting in
      self?.ledger.withLock { ledger in
        if isStarting {
          if ledger.keys[child] == nil { ledger.unplaced.append(child) }
          ledger.keys[child, default: [:]][key, default: 0] += 1
        } else if let count = ledger.keys[child]?[key] {
          ledger.keys[child]?[key] = count > 1 ? count - 1 : nil
        }
      }
    }
  }

  /// Takes `child`'s runs out: the keys to cancel.
  func forget(_ child: Child) -> [RunKey<AnyWorkID>] {
    ledger.withLock { $0.forget(child) }
  }
}

extension ChildRuns {
  /// The children with runs that are no longer in `list`, taken out with their keys; also
  /// notes where the children with runs are, for the next look.
  ///
  /// - Complexity: O(1) when the list did not change, changed one element in place, had
  ///   elements appended, or lost one element since the last look; otherwise O(c) for c
  ///   children with runs going.
  func removed<Element>(from list: IdentifiedList<Child, Element>) -> [(Child, [RunKey<AnyWorkID>])]
  {
    ledger.withLock { ledger in
      defer { ledger.stamp = list.stamp }
      guard !ledger.keys.isEmpty else {
        ledger.unplaced.removeAll()
        return []
      }
      var gone: [Child] = []
      if ledger.layout == list.layout || ledger.stamp == list.stamp {
        switch list.change(since: ledger.stamp) {
        case .none, .slot, .added:
          gone = notePlaces(in: list, &ledger)
        case .removed(let slot):
          gone = notePlaces(in: list, &ledger)
          if let child = ledger.bySlot[slot], !list.contains(id: child) { gone.append(child) }
        case .unknown:
          gone = ledger.keys.keys.filter { !list.contains(id: $0) }
          ledger.layout = 0  // every remaining child's slot is noted again
          _ = notePlaces(in: list, &ledger)
        }
      } else {
        gone = ledger.keys.keys.filter { !list.contains(id: $0) }
        _ = notePlaces(in: list, &ledger)
      }
      return gone.map { ($0, ledger.forget($0)) }
    }
  }

  /// Notes the slots of the children whose first run began since the last look (of every
  /// child with runs, when the list was laid out again); returns those not in the list.
  private func notePlaces<Element>(
    in list: IdentifiedList<Child, Element>, _ ledger: inout Ledger
  ) -> [Child] {
    let children: [Child]
    if ledger.layout != list.layout {
      ledger.layout = list.layout
      ledger.bySlot = [:]
      ledger.slotOf = [:]
      children = Array(ledger.keys.keys)
    } else {
      guard !ledger.unplaced.isEmpty else { return [] }
      children = ledger.unplaced
    }
    ledger.unplaced.removeAll()
    var gone: [Child] = []
    for child in children where ledger.keys[child] != nil && ledger.slotOf[child] == nil {
      guard let slot = list.slots[child] else {
        gone.append(child)
        continue
      }
      ledger.slotOf[child] = slot
      ledger.bySlot[slot] = child
    }
    return gone
  }
}
