import Synchronization

/// An ordered list of identified elements with O(1) access by id: the state of a list of
/// child features (each todo row), which a parent lifts its child's update over and observes
/// one element of.
///
/// ```swift
/// var rows = IdentifiedList<Int, Row>()
/// rows.append(Row(title: "Milk"), id: 1)
/// rows[id: 1]?.done = true
/// rows.remove(id: 1)
/// ```
///
/// The list is a value that stays cheap to change after it was copied, as value-in, value-out
/// updates do (`var next = state; next.rows[id: 7]?.done = true; return next`): its elements
/// live in a tree of 32-wide nodes shared between copies, so changing one element of a copy
/// copies the few nodes on that element's path (three below 32,768 elements), never every
/// element; and comparing a list with a changed copy of itself walks only the nodes that
/// differ.
public struct IdentifiedList<ID: Hashable & Sendable, Element: Sendable>: Sendable {
  /// The ids in list order.
  @inlinable public var ids: [ID] { order }
  /// The ids in list order, which is also slot order: appends take the next slot, removals
  /// leave theirs empty, and laying the list out again keeps the order. So walking the trees
  /// slot by slot visits the elements in list order, with no lookup by id.
  @usableFromInline var order: [ID] = []
  /// Where each element lives: its slot in `elements`.
  @usableFromInline var slots = SlotIndex<ID>()
  /// The elements by slot; `nil` where a removed element was.
  @usableFromInline var elements = SlotTree<Element>()
  /// The slots removed elements left empty. Appends never reuse them (a slot holds one id for
  /// the life of a layout); once they outnumber the elements, the list is laid out again.
  @usableFromInline var freeSlots = 0
  /// The id in each slot; `nil` where a removed element was.
  @usableFromInline var idsBySlot = SlotTree<ID>()
  /// Which layout the slots follow: every list built from scratch or laid out again gets a new
  /// one, and copies keep it. Two lists with the same layout give each slot to the same id (or
  /// to none), so comparing their trees finds every added, removed and changed element.
  @usableFromInline var layout = newLayout()
  /// A stamp no other value of any list has had: every change gives the list a new one, and
  /// copies keep it, so two lists with the same stamp hold the same elements.
  @usableFromInline var stamp = newLayout()
  /// The stamp before the last change, when that change was one an observer can follow
  /// without looking at every element (`0` otherwise), and what it was: one element changed in
  /// place, one removed, or elements appended.
  @usableFromInline var stampBefore: UInt64 = 0
  @usableFromInline var lastChange = StoredChange(.unknown)
  /// The same for the change before that one: a row's update that changes the row and then
  /// has it removed is two changes between an observer's looks.
  @usableFromInline var stampTwoBefore: UInt64 = 0
  @usableFromInline var changeBefore = StoredChange(.unknown)
  /// The id the last removal took out, alone in an array: a copy of the list retains it, where
  /// an optional id would make every generic copy of a list call the id type's own copy.
  @usableFromInline var lastRemoved: [ID] = []
  /// When ``change(since:)`` says `.removed`, the element it removed: how a ledger of the
  /// children's work finds the child that left without keeping their slots.
  @inlinable var lastRemovedID: ID? { lastRemoved.first }

  @inlinable public init() {}

  /// A list of `elements` in order, identified by `id`; later duplicates are dropped.
  @inlinable
  public init(_ elements: some Sequence<Element>, id: (Element) -> ID) {
    withoutActuallyEscaping(id) { id in append(contentsOf: elements.lazy.map { (id($0), $0) }) }
  }

  /// The number of elements.
  @inlinable
  public var count: Int { order.count }

  /// Whether the list is empty.
  @inlinable
  public var isEmpty: Bool { order.isEmpty }

  /// The elements in list order.
  ///
  /// - Complexity: O(n).
  @inlinable
  public var values: [Element] {
    var values: [Element] = []
    values.reserveCapacity(order.count)
    forEach { _, element in values.append(element) }
    return values
  }

  /// Calls `body` with each id and element, in list order.
  ///
  /// - Complexity: O(n), without a lookup by id.
  @inlinable
  public func forEach(_ body: (ID, Element) throws -> Void) rethrows {
    try Self.walk(elements, idsBySlot, body)
  }

  /// Each id and element transformed, in list order.
  ///
  /// - Complexity: O(n), without a lookup by id.
  @inlinable
  public func map<T>(_ transform: (ID, Element) throws -> T) rethrows -> [T] {
    var result: [T] = []
    result.reserveCapacity(order.count)
    try forEach { id, element in result.append(try transform(id, element)) }
    return result
  }

  /// The ids of the elements that match, in list order: what a filtered screen shows.
  ///
  /// ```swift
  /// let active = rows.ids { !$0.done }
  /// ```
  ///
  /// - Complexity: O(n), without a lookup by id.
  @inlinable
  public func ids(where isIncluded: (Element) throws -> Bool) rethrows -> [ID] {
    var ids: [ID] = []
    try forEach { id, element in
      if try isIncluded(element) { ids.append(id) }
    }
    return ids
  }

  /// Visits the elements below a node of `elements`, with their slots, in slot order.
  @inlinable
  static func walkSlots(
    _ node: SlotTree<Element>.Node, level: Int, base: Int, _ body: (Int, Element) -> Void
  ) {
    if level == 0 {
      node.elements.withUnsafeBufferPointer { elements in
        for index in elements.indices {
          switch elements[index] {
          case .some(let element): body(base + index, element)
          case .none: continue
          }
        }
      }
      return
    }
    let span = 1 << (SlotTree<Element>.bits * level)
    for index in node.children.indices {
      walkSlots(node.children[index], level: level - 1, base: base + index * span, body)
    }
  }

  /// Visits the slots of two trees of the same shape, `elements` and `ids`, in slot order.
  ///
  /// A loop, not a recursion: inlined where the list is read, `body` is compiled into the loop
  /// over each leaf's elements, so a filter that reads one field of an element reads that field
  /// where the element lives (a recursive walk calls `body` as an opaque closure, and an element
  /// handed to one is copied out of its array first: every string in it retained and released).
  /// Each leaf is found from the root, a few levels, once per 32 slots.
  @inlinable
  static func walk(
    _ elements: SlotTree<Element>, _ ids: SlotTree<ID>, _ body: (ID, Element) throws -> Void
  ) rethrows {
    guard let root = elements.root, let idRoot = ids.root else { return }
    let (bits, mask) = (SlotTree<Element>.bits, SlotTree<Element>.width - 1)
    var base = 0
    while base < elements.slotCount {
      // Walked unretained: the trees hold every node on the path while this runs.
      var node = Unmanaged.passUnretained(root)
      var idNode = Unmanaged.passUnretained(idRoot)
      var level = elements.height
      while level > 0 {
        let index = (base >> (bits * level)) & mask
        node = node._withUnsafeGuaranteedRef { Unmanaged.passUnretained($0.children[index]) }
        idNode = idNode._withUnsafeGuaranteedRef { Unmanaged.passUnretained($0.children[index]) }
        level -= 1
      }
      // Through buffers, and each element read where its slot holds it (an optional's value is
      // stored at its start): an element is not copied (retained) out of its slot first.
      try node._withUnsafeGuaranteedRef { leaf in
        try idNode._withUnsafeGuaranteedRef { idLeaf in
          try leaf.elements.withUnsafeBufferPointer { elements in
            try idLeaf.elements.withUnsafeBufferPointer { ids in
              guard let slots = elements.baseAddress else { return }
              for index in elements.indices where slots[index] != nil {
                let element = UnsafeRawPointer(slots + index).assumingMemoryBound(to: Element.self)
                try body(ids[index].unsafelyUnwrapped, element.pointee)
              }
            }
          }
        }
      }
      base += mask + 1
    }
  }

  /// The element with `id`; setting `nil` removes it.
  ///
  /// - Complexity: O(1) to read and to change; O(n) to remove.
  @inlinable
  public subscript(id id: ID) -> Element? {
    get {
      guard let slot = slots[id] else { return nil }
      return elements[slot]
    }
    set {
      guard let newValue else {
        remove(id: id)
        return
      }
      if let slot = slots[id] {
        elements.modify(slot) { $0 = newValue }
        restamp(.slot(slot))
      } else {
        append(newValue, id: id)
      }
    }
  }

  /// Whether an element has `id`.
  @inlinable
  public func contains(id: ID) -> Bool { slots[id] != nil }

  /// Appends `element` under `id`, unless an element has that id already.
  ///
  /// - Returns: Whether it was appended.
  @inlinable
  @discardableResult
  public mutating func append(_ element: Element, id: ID) -> Bool {
    let slot = elements.slotCount
    guard slots.insert(slot, for: id) else { return false }
    elements.modify(slot) { $0 = element }
    idsBySlot.modify(slot) { $0 = id }
    order.append(id)
    restamp(.added)
    return true
  }

  /// Appends each element under its id, in order, skipping ids the list (or an earlier pair)
  /// already has: loading a stored list, say.
  ///
  /// ```swift
  /// rows.append(contentsOf: records.lazy.map { ($0.id, Row(title: $0.title)) })
  /// ```
  ///
  /// - Complexity: O(m) for m new elements: the index is sized once and the elements are
  ///   laid into whole nodes, not added one path at a time.
  @inlinable
  public mutating func append(contentsOf newElements: some Sequence<(ID, Element)>) {
    let expected = newElements.underestimatedCount
    slots.reserveCapacity(order.count + expected)
    order.reserveCapacity(order.count + expected)
    // Laid in a leaf at a time: what is held apart is one leaf, not a copy of the batch.
    let width = SlotTree<Element>.width
    var leaf = ContiguousArray<Element?>()
    var leafIDs = ContiguousArray<ID?>()
    leaf.reserveCapacity(width)
    leafIDs.reserveCapacity(width)
    let start = elements.slotCount
    var next = start
    for (id, element) in newElements {
      guard slots.insert(next, for: id) else { continue }
      leaf.append(element)
      leafIDs.append(id)
      order.append(id)
      next += 1
      if next % width == 0 {
        elements.append(contentsOf: leaf)
        idsBySlot.append(contentsOf: leafIDs)
        leaf.removeAll(keepingCapacity: true)
        leafIDs.removeAll(keepingCapacity: true)
      }
    }
    guard next != start else { return }
    if !leaf.isEmpty {
      elements.append(contentsOf: leaf)
      idsBySlot.append(contentsOf: leafIDs)
    }
    restamp(.added)
  }

  /// Removes the element with `id`.
  ///
  /// - Complexity: O(n).
  @inlinable
  @discardableResult
  public mutating func remove(id: ID) -> Element? {
    guard let slot = slots.removeValue(forKey: id) else { return nil }
    let removed = elements.modify(slot) { $0.take() }
    idsBySlot.modify(slot) { $0 = nil }
    freeSlots += 1
    // `order` is in slot order and each empty slot before this one moved the id one place
    // back: looked for from its slot backwards, it is found after as many steps as there are
    // empty slots before it (none in a list that only grew).
    if let index = order.withUnsafeBufferPointer({ order in
      var index = Swift.min(slot, order.count - 1)
      while index >= 0, order[index] != id { index -= 1 }
      return index >= 0 ? index : nil
    }) ?? order.firstIndex(of: id) {
      order.remove(at: index)
    }
    // In place when no copy shares it: a list that removes element after element makes one.
    if lastRemoved.isEmpty { lastRemoved = [id] } else { lastRemoved[0] = id }
    restamp(.removed(slot))
    if freeSlots > 32, freeSlots > order.count { compact() }
    return removed
  }

  /// Removes every element that matches, in place: the others keep their slots, so a copy
  /// made before still shares their nodes and `forEachChange(from:_:)` finds the removed ones
  /// without looking at the rest.
  ///
  /// - Complexity: O(n).
  @inlinable
  public mutating func removeAll(where shouldRemove: (Element) -> Bool) {
    var removed: [Int] = []
    if let root = elements.root {
      Self.walkSlots(root, level: elements.height, base: 0) { slot, element in
        if shouldRemove(element) { removed.append(slot) }
      }
    }
    guard !removed.isEmpty else { return }
    var gone = Set<ID>(minimumCapacity: removed.count)
    for slot in removed {
      guard let id = idsBySlot[slot] else { continue }
      gone.insert(id)
      slots.removeValue(forKey: id)
      idsBySlot.modify(slot) { $0 = nil }
      elements.modify(slot) { $0 = nil }
    }
    order.removeAll { gone.contains($0) }
    freeSlots += gone.count
    restamp(.unknown)
    if freeSlots > 32, freeSlots > order.count { compact() }
  }

  /// Changes every element in place (in no particular order).
  ///
  /// - Complexity: O(n).
  @inlinable
  public mutating func updateAll(_ change: (inout Element) -> Void) {
    elements.modifyAll { element in
      if element != nil { change(&element!) }
    }
    restamp(.unknown)
  }

  /// Changes the element with `id` in place, without copying it; returns `nil` (and calls
  /// nothing) when no element has that id.
  ///
  /// - Complexity: O(1) plus `change` (plus copying the nodes on its path when the list shares
  ///   them with a copy).
  @inlinable
  @discardableResult
  public mutating func update<Result>(
    id: ID, _ change: (inout Element) throws -> Result
  ) rethrows -> Result? {
    guard let slot = slots[id] else { return nil }
    defer { restamp(.slot(slot)) }
    return try elements.modify(slot) { try change(&$0!) }
  }

  /// Gives the list a new stamp after `change`.
  @inlinable
  mutating func restamp(_ change: ChangeSince) {
    if change == .unknown {
      stampBefore = 0
      stampTwoBefore = 0
    } else {
      stampTwoBefore = stampBefore
      changeBefore = lastChange
      stampBefore = stamp
    }
    lastChange = StoredChange(change)
    stamp = newLayout()
  }

  /// How the list changed since it had `stamp`: not at all, by the one or two changes it
  /// remembers, or in some other way (`.unknown`).
  @inlinable
  package func change(since stamp: UInt64) -> ChangeSince {
    if stamp == self.stamp { return .none }
    guard stamp != 0 else { return .unknown }
    if stamp == stampBefore { return lastChange.change }
    guard stamp == stampTwoBefore else { return .unknown }
    // Two changes that one describes: to one element and then its removal, or two appends.
    switch (changeBefore.change, lastChange.change) {
    case (.slot(let first), .slot(let second)) where first == second: return .slot(first)
    case (.slot(let first), .removed(let second)) where first == second: return .removed(first)
    case (.added, .added): return .added
    default: return .unknown
    }
  }

  /// Lays the elements out again in list order, without empty slots.
  ///
  /// Inlinable, as the removals that call it: as generic code it looked up type metadata for
  /// every node it built (93,000 instructions to lay out a stack of ten screens again).
  @inlinable
  mutating func compact() {
    var packed = IdentifiedList()
    packed.append(contentsOf: map { ($0, $1) })
    self = packed
  }
}

/// Where an element of an ``IdentifiedList`` was last found: a slot, worth trying while the list
/// keeps its layout (the slot's id is checked: two copies of one list can give a slot to
/// different ids).
@usableFromInline
package struct SlotHint: Sendable {
  @usableFromInline var layout: UInt64
  @usableFromInline var slot: Int

  @inlinable
  init(layout: UInt64, slot: Int) {
    self.layout = layout
    self.slot = slot
  }

  /// A hint that matches no list: the first lookup is by id.
  @inlinable
  package init() { self.init(layout: 0, slot: 0) }
}

/// How an ``IdentifiedList`` changed since a stamp it had.
@usableFromInline
package enum ChangeSince: Sendable, Equatable {
  /// The same elements.
  case none
  /// One element changed in place, in this slot; the others, and which ids the list has, are
  /// as they were.
  case slot(Int)
  /// The element in this slot was removed; the others are as they were, in their slots.
  case removed(Int)
  /// Elements were appended; the others are as they were, in their slots.
  case added
  /// Anything else: several elements changed or removed, the list laid out again, or a stamp
  /// it never had.
  case unknown
}

/// A ``ChangeSince`` in one word, as a list keeps its last two: every copy of a list copies
/// them, and a state holding a few lists is copied for every effect, where a few bytes more
/// can take its copy past the size the fastest `memcpy` path takes.
@usableFromInline
struct StoredChange: Sendable {
  /// `.slot(n)` as `n`; `.added` as -1; `.removed(n)` as `-2 - n`; `.unknown` as `Int.min`
  /// (`.none` is never kept: it is no change).
  @usableFromInline let code: Int

  @inlinable
  init(_ change: ChangeSince) {
    switch change {
    case .slot(let slot): code = slot
    case .added: code = -1
    case .removed(let slot): code = -2 - slot
    case .none, .unknown: code = .min
    }
  }

  @inlinable
  var change: ChangeSince {
    if code >= 0 { return .slot(code) }
    if code == -1 { return .added }
    if code == .min { return .unknown }
    return .removed(-2 - code)
  }
}

/// The last layout or stamp handed out (`IdentifiedList.layout`, `IdentifiedList.stamp`).
private let layouts = Atomic<UInt64>(0)

/// A layout no list has had.
@usableFromInline
func newLayout() -> UInt64 { layouts.add(1, ordering: .relaxed).newValue }

extension IdentifiedList where Element: Equatable {
  /// Whether the element in `slot` (which exists) equals `other`, compared where it is stored
  /// rather than copied out; `nil` unless `slot` holds `id` (two copies of a list can give one
  /// slot to different ids). A slot that holds an id holds an element: both are set and
  /// cleared together.
  @inlinable
  func isElement(_ slot: Int, id: ID, equalTo other: UnsafePointer<Element?>) -> Bool? {
    // Both trees have one shape; walked unretained, since the list holds every node on the
    // path for as long as this runs.
    var node = Unmanaged.passUnretained(elements.root.unsafelyUnwrapped)
    var idNode = Unmanaged.passUnretained(idsBySlot.root.unsafelyUnwrapped)
    var level = elements.height
    let width = SlotTree<Element>.width
    while level > 0 {
      let index = (slot >> (SlotTree<Element>.bits * level)) & (width - 1)
      node = node._withUnsafeGuaranteedRef { Unmanaged.passUnretained($0.children[index]) }
      idNode = idNode._withUnsafeGuaranteedRef { Unmanaged.passUnretained($0.children[index]) }
      level -= 1
    }
    let index = slot & (width - 1)
    guard idNode._withUnsafeGuaranteedRef({ $0.elements[index] == id }) else { return nil }
    return node._withUnsafeGuaranteedRef { $0.elements }.withUnsafeBufferPointer { elements in
      SlotTree<Element>.isSame(elements.baseAddress.unsafelyUnwrapped + index, other)
    }
  }

  /// The element with `id` if it differs from the one `last` points to (`.some(nil)`: it is
  /// gone), or `nil` if it does not; what an observer of one row asks after every change.
  ///
  /// The element is found through `hint` without hashing `id` while the list keeps its layout
  /// and the hinted slot still holds `id`, and compared where it is stored: an unchanged
  /// element is not copied. Otherwise it is looked up by id, and `hint` updated.
  @inlinable
  package func element(
    id: ID, ifChangedFrom last: UnsafePointer<Element?>, hint: inout SlotHint
  ) -> Element?? {
    if hint.layout == layout, hint.slot < elements.slotCount,
      let same = isElement(hint.slot, id: id, equalTo: last)
    {
      return same ? nil : .some(elements[hint.slot])
    }
    let row: Element?
    if let slot = slots[id] {
      hint = SlotHint(layout: layout, slot: slot)
      row = elements[slot]
    } else {
      row = nil
    }
    return row == last.pointee ? nil : .some(row)
  }

  /// Calls `body` with the id and new element (`nil`: removed) of each element that differs
  /// between `old` and this list; an element moved within the list does not count.
  ///
  /// What a list of child machines or row views needs after a change: which rows to tell.
  ///
  /// - Complexity: O(log n) per added, removed or changed element when this list is a changed
  ///   copy of `old` (it skips the nodes both share), unless the change laid the list out again
  ///   (many removals, `removeAll(where:)`) or added a level to its tree; O(n) otherwise.
  @inlinable
  public func forEachChange(from old: IdentifiedList, _ body: (ID, Element?) -> Void) {
    if layout == old.layout {
      // Same layout: a slot that differs lost its id, gained one, or holds a changed element.
      elements.forEachDifference(from: old.elements) { slot in
        let new = slot < idsBySlot.slotCount ? idsBySlot[slot] : nil
        let gone = slot < old.idsBySlot.slotCount ? old.idsBySlot[slot] : nil
        if let new {
          let element = self[id: new]
          // An element removed and appended again moved: a change only if it differs.
          if element != old[id: new] { body(new, element) }
        }
        if let gone, gone != new, !contains(id: gone) { body(gone, nil) }
      }
      return
    }
    for id in order {
      let element = self[id: id]
      if element != old[id: id] { body(id, element) }
    }
    for id in old.order where !contains(id: id) { body(id, nil) }
  }
}

extension IdentifiedList: Equatable where Element: Equatable {
  /// Whether both lists hold equal elements under the same ids in the same order.
  ///
  /// - Complexity: O(1) for copies of one list; O(log n) per changed element for a list and a
  ///   changed copy of it; O(n) otherwise.
  @inlinable
  public static func == (lhs: IdentifiedList, rhs: IdentifiedList) -> Bool {
    // One is the other, or the other after a change it remembers (a value-in, value-out
    // update's new state against its old one): only that change is looked at.
    if lhs.stamp == rhs.stamp { return true }
    if let equal = isEqual(lhs, afterChangesTo: rhs) ?? isEqual(rhs, afterChangesTo: lhs) {
      return equal
    }
    guard lhs.order == rhs.order else { return false }
    // The same id in every slot (a copy, or built the same way): compare the elements' trees,
    // skipping the nodes both share.
    if lhs.idsBySlot.slotCount == rhs.idsBySlot.slotCount,
      lhs.idsBySlot.isEqual(to: rhs.idsBySlot)
    {
      return lhs.elements.isEqual(to: rhs.elements)
    }
    for id in lhs.order where lhs[id: id] != rhs[id: id] { return false }
    return true
  }

  /// Whether `new` equals `old`, when `new` is `old` after a change it remembers; `nil` when
  /// it is not.
  @inlinable
  static func isEqual(_ new: IdentifiedList, afterChangesTo old: IdentifiedList) -> Bool? {
    switch new.change(since: old.stamp) {
    case .none: true
    // The same ids in the same slots; one element may differ (compared as the trees compare
    // elements: bit for bit, then with `==`).
    case .slot(let slot):
      withUnsafePointer(to: new.elements[slot]) { mine in
        withUnsafePointer(to: old.elements[slot]) { theirs in SlotTree.isSame(mine, theirs) }
      }
    // An id less, or more.
    case .removed, .added: false
    case .unknown: nil
    }
  }
}

/// The slot of each id, in buckets by hash that copies of a list share: adding or removing an
/// id copies one bucket (and the array of buckets) when a copy shares them, never every id.
///
/// Each bucket is an open-addressing table (linear probing), so an id is hashed once per lookup,
/// whichever bucket it is in (a dictionary per bucket hashed it twice: once to pick the bucket,
/// once inside it). Hashes are not kept (memory): growing and removing hash again the ids they
/// move.
///
/// One bucket up to 256 ids; past 256 per bucket there are eight times as many.
@usableFromInline
struct SlotIndex<ID: Hashable & Sendable>: Sendable {
  @usableFromInline var buckets: [Bucket] = [Bucket()]
  @usableFromInline var count = 0

  /// One table: `ids[i]` (`nil`: empty) and its `slots[i]`; a capacity that is a power of two
  /// and at most seven eighths full, or none yet.
  @usableFromInline
  struct Bucket: Sendable {
    @usableFromInline var ids: ContiguousArray<ID?> = []
    @usableFromInline var slots: ContiguousArray<Int> = []
    @usableFromInline var count = 0

    @inlinable init() {}

    /// Where `hash` starts probing: the high half's bits (the low ones pick the bucket).
    @inlinable
    func home(_ hash: Int) -> Int {
      Int(truncatingIfNeeded: UInt(bitPattern: hash) >> (UInt.bitWidth / 2)) & (ids.count - 1)
    }

    /// The index of `id`, or `nil`.
    @inlinable
    func index(of id: ID, hash: Int) -> Int? {
      guard !ids.isEmpty else { return nil }
      let mask = ids.count - 1
      var index = home(hash)
      while true {
        switch ids[index] {
        case .none: return nil
        case .some(let found) where found == id: return index
        default: index = (index + 1) & mask
        }
      }
    }

    /// The capacity that holds `count` ids at most seven eighths full.
    @inlinable
    static func capacity(for count: Int) -> Int {
      var capacity = 8
      while capacity * 7 < count * 8 { capacity *= 2 }
      return capacity
    }

    /// Files `slot` under `id` unless it has `id` already (one probe either way); returns
    /// whether it did.
    @inlinable
    mutating func insert(_ id: ID, hash: Int, slot: Int) -> Bool {
      if (count + 1) * 8 > ids.count * 7 { resize(to: Swift.max(8, ids.count * 2)) }
      let mask = ids.count - 1
      var index = home(hash)
      while let found = ids[index] {
        if found == id { return false }
        index = (index + 1) & mask
      }
      ids[index] = id
      slots[index] = slot
      count += 1
      return true
    }

    /// Removes the entry at `index`, moving later entries of its probe run back so every id
    /// stays reachable from its home.
    @inlinable
    mutating func remove(at index: Int) {
      let mask = ids.count - 1
      var hole = index
      var next = (index + 1) & mask
      while let moving = ids[next] {
        let home = home(moving.hashValue)
        // Moved back only if its home is not between the hole and it (cyclically).
        if (next - home) & mask >= (next - hole) & mask {
          ids[hole] = moving
          slots[hole] = slots[next]
          hole = next
        }
        next = (next + 1) & mask
      }
      ids[hole] = nil
      count -= 1
    }

    /// Lays the entries into a table of `capacity` (a power of two).
    @inlinable
    mutating func resize(to capacity: Int) {
      var larger = Bucket()
      larger.ids = ContiguousArray(repeating: nil, count: capacity)
      larger.slots = ContiguousArray(repeating: 0, count: capacity)
      for index in ids.indices {
        guard let id = ids[index] else { continue }
        _ = larger.insert(id, hash: id.hashValue, slot: slots[index])
      }
      self = larger
    }
  }

  @inlinable init() {}

  @inlinable
  func bucket(_ hash: Int) -> Int { hash & (buckets.count - 1) }

  /// The slot of `id`.
  @inlinable
  subscript(id: ID) -> Int? {
    let hash = id.hashValue
    let bucket = bucket(hash)
    return buckets[bucket].index(of: id, hash: hash).map { buckets[bucket].slots[$0] }
  }

  /// Files `slot` under `id` unless `id` has a slot already; returns whether it did.
  @inlinable
  mutating func insert(_ slot: Int, for id: ID) -> Bool {
    let hash = id.hashValue
    guard buckets[bucket(hash)].insert(id, hash: hash, slot: slot) else { return false }
    count += 1
    if count > buckets.count * 256 { grow() }
    return true
  }

  /// Makes room for `capacity` ids: enough buckets, each sized for its share, so filling them
  /// moves nothing.
  @inlinable
  mutating func reserveCapacity(_ capacity: Int) {
    while capacity > buckets.count * 256 { grow() }
    let size = Bucket.capacity(for: capacity / buckets.count + capacity / (buckets.count * 8) + 1)
    for index in buckets.indices where buckets[index].ids.count < size {
      buckets[index].resize(to: size)
    }
  }

  /// Removes `id`'s slot and returns it.
  @inlinable
  @discardableResult
  mutating func removeValue(forKey id: ID) -> Int? {
    let hash = id.hashValue
    let bucket = bucket(hash)
    guard let index = buckets[bucket].index(of: id, hash: hash) else { return nil }
    let slot = buckets[bucket].slots[index]
    buckets[bucket].remove(at: index)
    count -= 1
    return slot
  }

  /// Eight times as many buckets, each sized for twice its share.
  @inlinable
  mutating func grow() {
    var larger = [Bucket](repeating: Bucket(), count: buckets.count * 8)
    let size = Bucket.capacity(for: count / larger.count * 2)
    for index in larger.indices { larger[index].resize(to: size) }
    for bucket in buckets {
      for index in bucket.ids.indices {
        guard let id = bucket.ids[index] else { continue }
        let hash = id.hashValue
        _ = larger[hash & (larger.count - 1)].insert(id, hash: hash, slot: bucket.slots[index])
      }
    }
    buckets = larger
  }
}

/// Optional elements by slot number, in a tree of 32-wide nodes that copies share: a change
/// copies only the nodes on its path that are shared (copy-on-write per node).
@usableFromInline
struct SlotTree<Element: Sendable>: Sendable {
  /// The root; `nil` before the first slot.
  @usableFromInline var root: Node?
  /// The levels of branches above the leaves.
  @usableFromInline var height = 0
  /// The number of slots: the next slot to add.
  @usableFromInline var slotCount = 0

  @inlinable static var bits: Int { 5 }
  @inlinable static var width: Int { 1 << bits }

  @inlinable init() {}

  /// The element in `slot`, which must exist.
  ///
  /// The path is walked unretained: the tree holds every node on it while this runs.
  @inlinable
  subscript(slot: Int) -> Element? {
    var node = Unmanaged.passUnretained(root.unsafelyUnwrapped)
    var level = height
    while level > 0 {
      let index = (slot >> (Self.bits * level)) & (Self.width - 1)
      node = node._withUnsafeGuaranteedRef { Unmanaged.passUnretained($0.children[index]) }
      level -= 1
    }
    return node._withUnsafeGuaranteedRef { $0.elements[slot & (Self.width - 1)] }
  }

  /// Whether two stored elements are equal, compared where they are: bit for bit first (a
  /// copy of a list shares every element it did not change, and an element copied out is the
  /// same bits), then with `==`. So an unchanged element is never copied or compared field by
  /// field; and, as with `Array`'s `==` on a shared buffer, an element is equal to an
  /// identical copy of itself even if its `==` says otherwise (a NaN).
  @inlinable
  static func isSame(_ a: UnsafePointer<Element?>, _ b: UnsafePointer<Element?>) -> Bool
  where Element: Equatable {
    let left = UnsafeRawPointer(a)
    let right = UnsafeRawPointer(b)
    let size = MemoryLayout<Element?>.size
    var offset = 0
    var identical = true
    while offset + 8 <= size {
      if left.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        != right.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
      {
        identical = false
        break
      }
      offset += 8
    }
    while identical, offset < size {
      if left.load(fromByteOffset: offset, as: UInt8.self)
        != right.load(fromByteOffset: offset, as: UInt8.self)
      {
        identical = false
      }
      offset += 1
    }
    if identical { return true }
    // Not identical (a changed element, or padding that differs): compared by value.
    switch (a.pointee == nil, b.pointee == nil) {
    case (true, true): return true
    case (false, false): return a.pointee.unsafelyUnwrapped == b.pointee.unsafelyUnwrapped
    default: return false
    }
  }

  /// Changes the element in `slot`, an existing slot or `slotCount` (which adds it).
  @inlinable
  mutating func modify<Result>(
    _ slot: Int, _ change: (inout Element?) throws -> Result
  ) rethrows -> Result {
    if slot == slotCount {
      if root == nil {
        root = Node()
      } else if slot == Self.width << (Self.bits * height) {
        // Full: a new root above the old one.
        let grown = Node()
        grown.children.append(root.unsafelyUnwrapped)
        root = grown
        height += 1
      }
      slotCount += 1
    }
    return try Node.modify(&root!, level: height, slot: slot, change)
  }

  /// Adds `newElements` in the slots from `slotCount` on: the last leaf filled slot by slot,
  /// then whole leaves hung in place.
  @inlinable
  mutating func append(contentsOf newElements: ContiguousArray<Element?>) {
    var index = 0
    while index < newElements.count, slotCount % Self.width != 0 {
      modify(slotCount) { $0 = newElements[index] }
      index += 1
    }
    while index < newElements.count {
      let end = Swift.min(index + Self.width, newElements.count)
      let leaf = Node()
      leaf.elements.reserveCapacity(Self.width)
      leaf.elements.append(contentsOf: newElements[index..<end])
      appendLeaf(leaf)
      index = end
    }
  }

  /// Hangs `leaf` at `slotCount`, which starts a leaf.
  @inlinable
  mutating func appendLeaf(_ leaf: Node) {
    guard root != nil else {
      root = leaf
      slotCount = leaf.elements.count
      return
    }
    if slotCount == Self.width << (Self.bits * height) {
      let grown = Node()
      grown.children.append(root.unsafelyUnwrapped)
      root = grown
      height += 1
    }
    Node.hang(leaf, on: &root!, level: height, slot: slotCount)
    slotCount += leaf.elements.count
  }

  /// Changes every element, slot by slot.
  @inlinable
  mutating func modifyAll(_ change: (inout Element?) -> Void) {
    guard root != nil else { return }
    Node.modifyAll(&root!, level: height, change)
  }

  /// Calls `body` with each slot whose element differs from `other`'s, skipping the nodes both
  /// share.
  @inlinable
  func forEachDifference(from other: SlotTree, _ body: (Int) -> Void) where Element: Equatable {
    guard let root, let otherRoot = other.root, height == other.height else {
      for slot in 0..<max(slotCount, other.slotCount) {
        let mine = slot < slotCount ? self[slot] : nil
        let theirs = slot < other.slotCount ? other[slot] : nil
        if mine != theirs { body(slot) }
      }
      return
    }
    Node.forEachDifference(root, otherRoot, level: height, base: 0, body)
  }

  /// Whether both trees, of the same shape, hold equal elements.
  @inlinable
  func isEqual(to other: SlotTree) -> Bool where Element: Equatable {
    switch (root, other.root) {
    case (nil, nil): true
    case (let left?, let right?): left.isEqual(to: right, level: height)
    default: false
    }
  }

  /// A node: a branch (`children`) or, at level 0, a leaf (`elements`).
  ///
  /// `@unchecked Sendable`: a node is only changed through a tree that holds the one reference
  /// to it (`isKnownUniquelyReferenced`); a shared node is copied first, so a node another
  /// value or thread can see is never written.
  @usableFromInline
  final class Node: @unchecked Sendable {
    // Unchecked exclusivity: a node is written only while its tree holds the one reference to
    // it, so no access can overlap a write; the runtime check would cost every read.
    @exclusivity(unchecked) @usableFromInline var children: ContiguousArray<Node> = []
    @exclusivity(unchecked) @usableFromInline var elements: ContiguousArray<Element?> = []

    @inlinable init() {}

    @inlinable
    init(children: ContiguousArray<Node>, elements: ContiguousArray<Element?>) {
      self.children = children
      self.elements = elements
    }

    /// A copy that shares nothing with this node but the children and elements themselves,
    /// made element by element in the caller's specialization: the runtime's generic array
    /// copy goes through value witnesses for every element.
    @inlinable
    func copy() -> Node {
      let copy = Node()
      if !elements.isEmpty {
        copy.elements = Node.copied(elements)
      } else if !children.isEmpty {
        copy.children = Node.copied(children)
      }
      return copy
    }

    /// A copy of `source` with room for one more (a leaf or branch that is not full grows by
    /// appending), made by a loop the caller specializes.
    @inlinable
    static func copied<T>(_ source: ContiguousArray<T>) -> ContiguousArray<T> {
      let count = source.count
      return source.withUnsafeBufferPointer { source in
        ContiguousArray(unsafeUninitializedCapacity: Swift.min(count + 1, width)) {
          buffer, initialized in
          let from = source.baseAddress.unsafelyUnwrapped
          let to = buffer.baseAddress.unsafelyUnwrapped
          for index in 0..<count { (to + index).initialize(to: from[index]) }
          initialized = count
        }
      }
    }

    /// Changes the element in `slot` below `root` (a node at `level`), copying the shared
    /// nodes on the path first.
    ///
    /// A loop, not a recursion: specialized for a closure, a recursion passes what the closure
    /// captured to every level, copying it (retaining a captured action or string) each time.
    /// The path is walked unretained: each node on it is held by its parent, which made it
    /// unique before it is entered.
    @inlinable
    static func modify<Result>(
      _ root: inout Node, level: Int, slot: Int, _ change: (inout Element?) throws -> Result
    ) rethrows -> Result {
      if !isKnownUniquelyReferenced(&root) {
        root = root.copy()
      }
      var node = Unmanaged.passUnretained(root)
      var level = level
      while level > 0 {
        let index = (slot >> (bits * level)) & (width - 1)
        node = node._withUnsafeGuaranteedRef { parent in
          if index == parent.children.count { parent.children.append(Node()) }
          return parent.children.withUnsafeMutableBufferPointer { children in
            if !isKnownUniquelyReferenced(&children[index]) {
              children[index] = children[index].copy()
            }
            return Unmanaged.passUnretained(children[index])
          }
        }
        level -= 1
      }
      return try node._withUnsafeGuaranteedRef { leaf in
        let index = slot & (width - 1)
        if index == leaf.elements.count { leaf.elements.append(nil) }
        return try change(&leaf.elements[index])
      }
    }

    /// Hangs `leaf` below `node` (a branch at `level`) where `slot`, the first of a new leaf,
    /// goes.
    @inlinable
    static func hang(_ leaf: Node, on node: inout Node, level: Int, slot: Int) {
      if !isKnownUniquelyReferenced(&node) { node = node.copy() }
      if level == 1 {
        node.children.append(leaf)
        return
      }
      let index = (slot >> (bits * level)) & (width - 1)
      if index == node.children.count { node.children.append(Node()) }
      hang(leaf, on: &node.children[index], level: level - 1, slot: slot)
    }

    @inlinable
    static func modifyAll(_ node: inout Node, level: Int, _ change: (inout Element?) -> Void) {
      if !isKnownUniquelyReferenced(&node) {
        node = node.copy()
      }
      if level == 0 {
        for index in node.elements.indices { change(&node.elements[index]) }
        return
      }
      for index in node.children.indices {
        modifyAll(&node.children[index], level: level - 1, change)
      }
    }

    @inlinable
    static func forEachDifference(
      _ node: Node, _ other: Node, level: Int, base: Int, _ body: (Int) -> Void
    ) where Element: Equatable {
      if node === other { return }
      if level == 0 {
        node.elements.withUnsafeBufferPointer { mine in
          other.elements.withUnsafeBufferPointer { theirs in
            for index in 0..<max(mine.count, theirs.count) {
              let differs =
                switch (index < mine.count, index < theirs.count) {
                case (true, true):
                  !isSame(
                    mine.baseAddress.unsafelyUnwrapped + index,
                    theirs.baseAddress.unsafelyUnwrapped + index)
                case (true, false): mine[index] != nil
                default: theirs[index] != nil
                }
              if differs { body(base + index) }
            }
          }
        }
        return
      }
      let span = 1 << (bits * level)
      for index in 0..<max(node.children.count, other.children.count) {
        let start = base + index * span
        switch (index < node.children.count, index < other.children.count) {
        case (true, true):
          // Shared children skipped here, not in the call: a call passes `body` along with
          // whatever it captured.
          if node.children[index] === other.children[index] { continue }
          forEachDifference(
            node.children[index], other.children[index], level: level - 1, base: start, body)
        case (true, false):
          node.children[index].forEachSlot(level: level - 1, base: start, body)
        case (false, true):
          other.children[index].forEachSlot(level: level - 1, base: start, body)
        case (false, false):
          break
        }
      }
    }

    /// Calls `body` with every slot below this node that holds an element.
    @inlinable
    func forEachSlot(level: Int, base: Int, _ body: (Int) -> Void) {
      if level == 0 {
        for index in elements.indices where elements[index] != nil { body(base + index) }
        return
      }
      let span = 1 << (SlotTree.bits * level)
      for index in children.indices {
        children[index].forEachSlot(level: level - 1, base: base + index * span, body)
      }
    }

    @inlinable
    func isEqual(to other: Node, level: Int) -> Bool where Element: Equatable {
      if self === other { return true }
      if level == 0 {
        guard elements.count == other.elements.count else { return false }
        return elements.withUnsafeBufferPointer { mine in
          other.elements.withUnsafeBufferPointer { theirs in
            mine.indices.allSatisfy {
              SlotTree.isSame(
                mine.baseAddress.unsafelyUnwrapped + $0, theirs.baseAddress.unsafelyUnwrapped + $0)
            }
          }
        }
      }
      guard children.count == other.children.count else { return false }
      // Shared children skipped here, before a call.
      for index in children.indices
      where children[index] !== other.children[index]
        && !children[index].isEqual(to: other.children[index], level: level - 1)
      {
        return false
      }
      return true
    }
  }
}
