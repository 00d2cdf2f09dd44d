/// The work each child of a parent has going, by child — a presented form's `create`, each
/// screen's load — so a dismissed child's work is known without looking at anyone else's
/// (SPEC R13: dismissing one child costs what that child owns).
///
/// Kept inside its owner's lock. A runtime notes each piece of work as it begins (and, if it
/// can tell, as it ends); when a child leaves, ``forget(_:)`` hands back its work to cancel.
/// For children kept in an ``IdentifiedList``, ``removed(from:)`` finds the children that left
/// since the last look: O(1) when the list did not change, changed one element in place, had
/// elements appended or lost one element; otherwise it looks at the children with work going.
///
/// Inlinable: a runtime's generic composition calls it with the app's types, and specialized
/// there its dictionaries cost a hash each, where generic code looked up type metadata for every
/// dictionary and optional it touched (15,000 instructions a look in ElmStore's stack).
@usableFromInline
package struct ChildLedger<Child: Hashable & Sendable, Work: Hashable & Sendable>: Sendable {
  /// What the ledger keeps for one child with work.
  @usableFromInline
  struct Entry: Sendable {
    /// Its work, with how many runs of each have not ended (one that replaced another begins
    /// before the replaced one ends).
    @usableFromInline var work: [Work: Int]
    /// The slot of the list it holds, under `layout`; `nil` until noted.
    @usableFromInline var slot: Int?

    @inlinable init(work: [Work: Int]) {
      self.work = work
      slot = nil
    }
  }

  /// The children with work, one entry each: a child's work and slot are found with one hash.
  @usableFromInline var children: [Child: Entry] = [:]
  /// Which child holds each noted slot of the list.
  @usableFromInline var bySlot: [Int: Child] = [:]
  @usableFromInline var layout: UInt64 = 0
  /// The list's stamp at the last look.
  @usableFromInline var stamp: UInt64 = 0
  /// Children whose first work began since the last look: their slots are not noted yet.
  @usableFromInline var unplaced: [Child] = []

  @inlinable package init() {}

  /// Whether no child has work going.
  @inlinable package var isEmpty: Bool { children.isEmpty }

  /// Notes that `child` began `item`.
  @inlinable package mutating func begin(_ item: Work, of child: Child) {
    // Changed where it is kept, found by one hash (a lookup, then a change by key, took two).
    guard let index = children.index(forKey: child) else {
      children[child] = Entry(work: [item: 1])
      unplaced.append(child)
      return
    }
    children.values[index].work[item, default: 0] += 1
  }

  /// Notes that one run of `item` of `child` ended.
  @inlinable package mutating func end(_ item: Work, of child: Child) {
    guard let index = children.index(forKey: child),
      let runs = children.values[index].work.index(forKey: item)
    else { return }
    if children.values[index].work.values[runs] > 1 {
      children.values[index].work.values[runs] -= 1
    } else {
      children.values[index].work.remove(at: runs)
    }
  }

  /// Takes `child` out: the work it had going, to cancel.
  @inlinable package mutating func forget(_ child: Child) -> [Work] {
    guard let entry = children.removeValue(forKey: child) else { return [] }
    if let slot = entry.slot { bySlot[slot] = nil }
    return Array(entry.work.keys)
  }

  /// Takes every child out (their list was emptied: a stack popped to its root), and returns
  /// their work: one pass, no lookup per child.
  @inlinable mutating func forgetAll() -> [Work] {
    var all: [Work] = []
    all.reserveCapacity(children.count)
    for entry in children.values { all.append(contentsOf: entry.work.keys) }
    children = [:]
    bySlot = [:]
    unplaced.removeAll()
    layout = 0
    return all
  }

  /// Takes out the children with work that are no longer in `list`, and returns their work.
  @inlinable package mutating func removed<Element>(from list: IdentifiedList<Child, Element>)
    -> [Work]
  {
    defer { stamp = list.stamp }
    guard !children.isEmpty else {
      unplaced.removeAll()
      return []
    }
    var gone: [Child] = []
    switch layout == list.layout ? list.change(since: stamp) : .unknown {
    case .none, .slot, .added:
      gone = notePlaces(in: list)
    case .removed(let slot):
      gone = notePlaces(in: list)
      if let child = bySlot[slot], !list.contains(id: child) { gone.append(child) }
    case .unknown:
      guard !list.isEmpty else { return forgetAll() }
      gone = children.keys.filter { !list.contains(id: $0) }
      layout = 0  // every remaining child's slot is noted again
      _ = notePlaces(in: list)
    }
    switch gone.count {
    case 0: return []
    case 1: return forget(gone[0])
    default:
      var work: [Work] = []
      for child in gone { work += forget(child) }
      return work
    }
  }

  /// Notes the slots of the children whose first work began since the last look (of every
  /// child with work, when the list was laid out again); returns those not in the list.
  @inlinable mutating func notePlaces<Element>(in list: IdentifiedList<Child, Element>) -> [Child] {
    let placing: [Child]
    if layout != list.layout {
      layout = list.layout
      bySlot = [:]
      for index in children.indices { children.values[index].slot = nil }
      placing = Array(children.keys)
    } else {
      guard !unplaced.isEmpty else { return [] }
      placing = unplaced
    }
    unplaced.removeAll()
    var gone: [Child] = []
    for child in placing {
      guard let index = children.index(forKey: child), children.values[index].slot == nil else {
        continue
      }
      guard let slot = list.slots[child] else {
        gone.append(child)
        continue
      }
      children.values[index].slot = slot
      bySlot[slot] = child
    }
    return gone
  }
}
