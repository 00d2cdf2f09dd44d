// Vendored from Kernel/Runtime/ChildLedger.swift by Scripts/vendor-kernel. Do not edit here: edit the source,
// then run the script (CI fails while a copy differs).

/// The work each child of a parent has going, by child — a presented form's `create`, each
/// screen's load — so a dismissed child's work is known without looking at anyone else's
/// (SPEC R13: dismissing one child costs what that child owns).
///
/// Kept inside its owner's lock. A runtime notes each piece of work as it begins (and, if it
/// can tell, as it ends); when a child leaves, ``forget(_:)`` hands back its work to cancel.
/// For children kept in an ``IdentifiedList``, ``removed(from:)`` finds the children that left
/// since the last look: O(1) when the list did not change, changed one element in place, had
/// elements appended or lost one element (the list names it); otherwise it looks at the
/// children with work going. A child whose first work began since the last look is checked
/// once: work begun for a child that is not in the list ends at once.
///
/// Inlinable: a runtime's generic composition calls it with the app's types, and specialized
/// there its dictionaries cost a hash each, where generic code looked up type metadata for every
/// dictionary and optional it touched (15,000 instructions a look in ElmStore's stack).
@usableFromInline
package struct ChildLedger<Child: Hashable & Sendable, Work: Hashable & Sendable>: Sendable {
  /// The children with work, each with its work: found with one hash.
  @usableFromInline var children: [Child: WorkCounts<Work>] = [:]
  /// The list's stamp at the last look.
  @usableFromInline var stamp: UInt64 = 0
  /// Children whose first work began since the last look: not yet checked against the list.
  @usableFromInline package var unplaced: [Child] = []

  @inlinable package init() {}

  /// Whether no child has work going.
  @inlinable package var isEmpty: Bool { children.isEmpty }

  /// Notes that `child` began `item`.
  @inlinable package mutating func begin(_ item: Work, of child: Child) {
    // Changed where it is kept, found by one hash (a lookup, then a change by key, took two).
    guard let index = children.index(forKey: child) else {
      children[child] = WorkCounts(item)
      unplaced.append(child)
      return
    }
    children.values[index].begin(item)
  }

  /// Notes that one run of `item` of `child` ended.
  @inlinable package mutating func end(_ item: Work, of child: Child) {
    guard let index = children.index(forKey: child) else { return }
    children.values[index].end(item)
  }

  /// Takes `child` out: the work it had going, to cancel.
  @inlinable package mutating func forget(_ child: Child) -> [Work] {
    children.removeValue(forKey: child)?.items ?? []
  }

  /// Takes every child out (their list was emptied: a stack popped to its root), and returns
  /// their work: one pass, no lookup per child.
  @inlinable mutating func forgetAll() -> [Work] {
    var all: [Work] = []
    all.reserveCapacity(children.count)
    for counts in children.values { counts.appendItems(to: &all) }
    children = [:]
    unplaced.removeAll()
    return all
  }

  /// Takes out the children with work that are no longer in `list`, and returns their work.
  @inlinable package mutating func removed<Element>(from list: IdentifiedList<Child, Element>)
    -> [Work]
  {
    withUnsafePointer(to: list) { removed(at: $0) }
  }

  /// ``removed(from:)`` for the list at `list`, read where it is stored: a copy of a list
  /// retains each of its buffers.
  @inlinable package mutating func removed<Element>(
    at list: UnsafePointer<IdentifiedList<Child, Element>>
  ) -> [Work] {
    defer { stamp = list.pointee.stamp }
    guard !children.isEmpty else {
      unplaced.removeAll()
      return []
    }
    var work: [Work] = []
    switch list.pointee.change(since: stamp) {
    case .none, .slot, .added:
      break
    case .removed:
      // The one element removed since the last look: the list keeps its id.
      if let child = list.pointee.lastRemovedID { work = forget(child) }
    case .unknown:
      unplaced.removeAll()
      guard !list.pointee.isEmpty else { return forgetAll() }
      for child in children.keys where !list.pointee.contains(id: child) { work += forget(child) }
      return work
    }
    // Work begun for a child the list does not hold (any more) ends with it.
    if !unplaced.isEmpty {
      for child in unplaced where !list.pointee.contains(id: child) { work += forget(child) }
      unplaced.removeAll()
    }
    return work
  }
}

/// One child's work, with how many runs of each have not ended (one that replaced another
/// begins before the replaced one ends). A child usually has one piece of work going (a
/// screen's load), kept inline: no dictionary is made and hashed for it.
@usableFromInline
struct WorkCounts<Work: Hashable & Sendable>: Sendable {
  @usableFromInline var first: Work?
  @usableFromInline var firstRuns = 0
  /// The rest, once a second piece of work runs beside the first.
  @usableFromInline var others: [Work: Int] = [:]

  @inlinable init(_ item: Work) {
    first = item
    firstRuns = 1
  }

  @inlinable mutating func begin(_ item: Work) {
    if first == item {
      firstRuns += 1
    } else if !others.isEmpty, let index = others.index(forKey: item) {
      others.values[index] += 1
    } else if first == nil {
      first = item
      firstRuns = 1
    } else {
      others[item] = 1
    }
  }

  @inlinable mutating func end(_ item: Work) {
    if first == item {
      firstRuns -= 1
      if firstRuns == 0 { first = nil }
    } else if !others.isEmpty, let index = others.index(forKey: item) {
      if others.values[index] > 1 {
        others.values[index] -= 1
      } else {
        others.remove(at: index)
      }
    }
  }

  /// The work going, each piece once.
  @inlinable var items: [Work] {
    var items: [Work] = []
    appendItems(to: &items)
    return items
  }

  @inlinable func appendItems(to items: inout [Work]) {
    if let first { items.append(first) }
    if !others.isEmpty { items.append(contentsOf: others.keys) }
  }
}
