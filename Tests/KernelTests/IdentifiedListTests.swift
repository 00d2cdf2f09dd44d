import Testing

@testable import Kernel

@Suite struct IdentifiedListBehaviour {
  /// A list of `count` rows, ids 1 through `count`, each row its id.
  private func numbered(_ count: Int) -> IdentifiedList<Int, Int> {
    IdentifiedList(stride(from: 1, through: count, by: 1)) { $0 }
  }

  @Test func keepsOrderFindsByIdAndDropsDuplicates() {
    var list = IdentifiedList<String, Int>()
    let appended = [list.append(1, id: "a"), list.append(2, id: "b"), list.append(3, id: "a")]
    #expect(appended == [true, true, false])
    #expect(list.ids == ["a", "b"])
    #expect(list.values == [1, 2])
    #expect(list[id: "a"] == 1)
    list[id: "c"] = 9
    list[id: "a"] = nil
    #expect(list.ids == ["b", "c"])
    #expect(list.values == [2, 9])
    #expect(!list.contains(id: "a"))
  }

  @Test func aChangedCopyLeavesTheOriginalAlone() {
    let original = numbered(300)
    var copy = original
    copy[id: 200] = -200
    copy.update(id: 5) { $0 = -5 }
    copy.updateAll { $0 += 1000 }
    #expect(original.values == Array(1...300))
    #expect(copy[id: 200] == 800 && copy[id: 5] == 995 && copy[id: 6] == 1006)
    #expect(original != copy)
  }

  @Test func removedSlotsAreReusedAndTheOrderIsTheListsNotTheSlots() {
    var list = numbered(130)
    for id in 1...100 { list.remove(id: id) }
    list.append(500, id: 500)
    list.append(501, id: 501)
    #expect(list.ids == Array(101...130) + [500, 501])
    #expect(list.values == Array(101...130) + [500, 501])
    #expect(list.count == 32)
  }

  @Test func walksFilterAndMapInListOrderAfterRemovalsAndALayoutAnew() {
    var list = numbered(2_000)
    for id in stride(from: 3, through: 2_000, by: 3) { list.remove(id: id) }
    list.append(-1, id: 5_000)
    var visited: [Int] = []
    // swift-format-ignore: ReplaceForEachWithForLoop
    list.forEach { id, element in
      #expect(id == element || (id == 5_000 && element == -1))
      visited.append(id)
    }
    #expect(visited == list.ids)
    #expect(list.ids { $0 % 2 == 0 } == list.ids.filter { list[id: $0]! % 2 == 0 })
    #expect(list.map { id, element in id + element } == list.ids.map { list[id: $0]! + $0 })
    // Most rows gone: laid out anew, the walk still follows the list's order.
    list.removeAll { $0 > 10 }
    #expect(list.values == [1, 2, 4, 5, 7, 8, 10, -1])
    #expect(list.ids { $0 < 0 } == [5_000])
    #expect(IdentifiedList<Int, Int>().ids { _ in true }.isEmpty)
  }

  /// The walk reads each element where its optional slot holds it: elements with references
  /// and an enum inside (their optionals use spare bits), across leaves and removed slots.
  @Test func walksElementsWithReferencesWhereTheyLive() {
    struct Row: Equatable, Sendable {
      var title: String
      var done: Bool
      var note: String?
    }
    var list = IdentifiedList<Int, Row>()
    list.append(
      contentsOf: (1...1_500).lazy.map {
        (
          $0,
          Row(
            title: "row \($0) " + String(repeating: "x", count: $0 % 40), done: $0 % 3 == 0,
            note: $0 % 5 == 0 ? "note \($0)" : nil)
        )
      })
    for id in stride(from: 7, through: 1_500, by: 7) { list.remove(id: id) }
    let expected = (1...1_500).filter { $0 % 7 != 0 }
    #expect(list.ids { $0.done } == expected.filter { $0 % 3 == 0 })
    #expect(list.ids { $0.note != nil } == expected.filter { $0 % 5 == 0 })
    var titles: [String] = []
    // swift-format-ignore: ReplaceForEachWithForLoop
    list.forEach { id, row in
      #expect(row.title.hasPrefix("row \(id) "))
      titles.append(row.title)
    }
    #expect(titles.count == expected.count)
    #expect(list.values.map(\.note) == expected.map { $0 % 5 == 0 ? "note \($0)" : nil })
  }

  @Test func aRowFollowedThroughItsSlotIsReportedOnlyWhenItChanged() {
    var list = numbered(100)
    var hint = SlotHint()
    func change(_ last: Int?) -> Int?? {
      withUnsafePointer(to: last) { list.element(id: 40, ifChangedFrom: $0, hint: &hint) }
    }
    #expect(change(40) == nil)
    #expect(change(40) == nil)
    list[id: 40] = -40
    #expect(change(40) == .some(-40))
    list.remove(id: 40)
    #expect(change(-40) == .some(nil))
    #expect(change(nil) == nil)
    list.append(4, id: 40)  // back, in another slot
    #expect(change(nil) == .some(4))
    #expect(change(4) == nil)
  }

  @Test func aStampTellsWhetherAndWhereTheListChangedSince() {
    var list = numbered(100)
    let start = list.stamp
    #expect(list.change(since: start) == .none)
    list[id: 7] = -7
    #expect(list.change(since: start) == .slot(6))
    let afterOne = list.stamp
    list.update(id: 9) { $0 = -9 }
    #expect(list.change(since: afterOne) == .slot(8))
    #expect(list.change(since: start) == .unknown)  // two elements changed since
    // Two changes that one describes.
    let beforeTwo = list.stamp
    list[id: 12] = -12
    list.remove(id: 12)
    #expect(list.change(since: beforeTwo) == .removed(11))
    let beforeAppends = list.stamp
    list.append(600, id: 600)
    list.append(601, id: 601)
    #expect(list.change(since: beforeAppends) == .added)
    list.append(602, id: 602)
    #expect(list.change(since: beforeAppends) == .unknown)  // three changes since
    var copy = list
    copy[id: 1] = -1
    #expect(list.change(since: copy.stamp) == .unknown)  // a copy's own change
    #expect(copy.change(since: list.stamp) == .slot(0))
    for (change, expected) in [
      ({ (list: inout IdentifiedList<Int, Int>) in list.append(0, id: 500) }, ChangeSince.added),
      ({ list in list.append(contentsOf: [(501, 1), (502, 2)]) }, .added),
      ({ list in list.remove(id: 3) }, .removed(2)),
      ({ list in list.updateAll { $0 += 1 } }, .unknown),
      ({ list in list.removeAll { $0 == 50 } }, .unknown),
    ] {
      let before = list.stamp
      change(&list)
      #expect(list.change(since: before) == expected)
    }
    // Removals that lay the list out again are not one removal.
    var shrinking = numbered(100)
    for id in 1...60 {
      let before = shrinking.stamp
      shrinking.remove(id: id)
      // The 51st removal lays the 49 left out again, from slot 0.
      let expected: ChangeSince =
        id <= 50 ? .removed(id - 1) : id == 51 ? .unknown : .removed(id - 52)
      #expect(shrinking.change(since: before) == expected)
    }
    #expect(shrinking.ids == Array(61...100))
    #expect(list.change(since: 0) == .unknown)
  }

  @Test func anUnchangedElementIsTheSameEvenIfItsEqualitySaysOtherwise() {
    // Compared bit for bit first, as Array's == compares a shared buffer: a NaN left alone is
    // no change, and a changed one is.
    var list = IdentifiedList([Double.nan, 1, 2], id: { $0 == 1 ? 1 : $0 == 2 ? 2 : 0 })
    let before = list
    #expect(list == before)
    list[id: 2] = 3
    var changed: [Int] = []
    list.forEachChange(from: before) { id, _ in changed.append(id) }
    #expect(changed == [2])
    // A change the list remembers, which left the NaN as it was.
    var touched = before
    touched.update(id: 0) { _ in }
    #expect(touched == before && before == touched)
  }

  /// An id with few distinct hashes: long probe runs in the index.
  struct Clash: Hashable, Sendable {
    let value: Int
    func hash(into hasher: inout Hasher) { hasher.combine(value % 3) }
  }

  @Test func idsWhoseHashesCollideAreFoundAddedAndRemovedAsADictionaryWould() {
    var generator = SystemRandomNumberGenerator()
    var list = IdentifiedList<Clash, Int>()
    var model: [Int: Int] = [:]
    for step in 0..<3_000 {
      let value = Int.random(in: 0..<400, using: &generator)
      if Bool.random(using: &generator) {
        let appended = list.append(step, id: Clash(value: value))
        #expect(appended == (model[value] == nil))
        if appended { model[value] = step }
      } else {
        #expect(list.remove(id: Clash(value: value)) == model.removeValue(forKey: value))
      }
    }
    #expect(list.count == model.count)
    for value in 0..<400 { #expect(list[id: Clash(value: value)] == model[value]) }
  }

  @Test func aCopyChangedOnceIsComparedByThatChange() {
    let original = numbered(1000)
    var same = original
    same[id: 500] = 500  // changed in place to an equal element
    var other = original
    other.update(id: 500) { $0 = -500 }
    var shorter = original
    shorter.remove(id: 500)
    var longer = original
    longer.append(1001, id: 1001)
    #expect(same == original && original == same)
    #expect(other != original && original != other)
    #expect(shorter != original && original != shorter)
    #expect(longer != original && original != longer)
    // Both changed since a common original: compared in full.
    var back = other
    back[id: 500] = 500
    #expect(back == same && same == back)
  }

  @Test func equalityIsAboutIdsAndElementsNotHistory() {
    // Same content, different slots: built in another order, then one moved to the end.
    var built = IdentifiedList<Int, Int>()
    built.append(2, id: 2)
    built.append(1, id: 1)
    built.remove(id: 2)
    built.append(2, id: 2)
    #expect(built == numbered(2))
    // Same slots, one element different far from the first chunk.
    var changed = numbered(1000)
    changed[id: 999] = 0
    #expect(changed != numbered(1000))
    // A copy changed and changed back is equal again, though it no longer shares its chunk.
    let original = numbered(1000)
    var roundTrip = original
    roundTrip[id: 999] = 0
    roundTrip[id: 999] = 999
    #expect(roundTrip == original)
    // Same ids, different order.
    var reordered = numbered(3)
    reordered.remove(id: 1)
    reordered.append(1, id: 1)
    #expect(reordered != numbered(3))
  }

  @Test func trailingEmptySlotsDoNotMakeEqualListsDiffer() {
    var withHole = numbered(65)
    withHole.remove(id: 65)
    #expect(withHole == numbered(64))
    #expect(numbered(64) == withHole)
  }

  @Test func removeAllKeepsTheOthersInOrder() {
    var list = numbered(200)
    list.removeAll { $0.isMultiple(of: 3) }
    #expect(list.values == (1...200).filter { !$0.isMultiple(of: 3) })
    #expect(list[id: 3] == nil && list[id: 4] == 4)
  }

  @Test func manyRemovalsCompactWithoutLosingAnything() {
    var list = numbered(1000)
    for id in stride(from: 1, through: 1000, by: 1) where id % 10 != 0 { list.remove(id: id) }
    #expect(list.values == Array(stride(from: 10, through: 1000, by: 10)))
    list.append(7, id: 7)
    #expect(list.ids.last == 7 && list[id: 7] == 7 && list.count == 101)
  }

  @Test func aDeepTreeKeepsEveryElementAndCopiesStayApart() {
    // 40,000 slots take four levels of 32-wide nodes.
    let original = numbered(40_000)
    var copy = original
    for id in [1, 1_024, 1_025, 32_768, 32_769, 40_000] { copy[id: id] = -id }
    #expect(original.values == Array(1...40_000))
    #expect(copy[id: 32_769] == -32_769 && copy[id: 32_770] == 32_770 && copy[id: 1_023] == 1_023)
    #expect(copy != original)
    for id in [1, 1_024, 1_025, 32_768, 32_769, 40_000] { copy[id: id] = id }
    #expect(copy == original)
    copy.updateAll { $0 *= 2 }
    #expect(copy.values == (1...40_000).map { $0 * 2 })
    #expect(original[id: 40_000] == 40_000)
  }

  @Test(arguments: [
    (0, 1), (0, 32), (0, 33), (5, 27), (5, 28), (31, 1_000), (32, 992), (1, 40_000),
  ])
  func appendingManyAtOnceIsAppendingEachInTurn(existing: Int, added: Int) {
    var one = numbered(existing)
    var many = one
    let before = many
    // Ids repeated inside the batch, and ids the list has, are skipped as `append` skips them.
    let batch = Array(1...(existing + added)) + [existing + added, 1]
    for id in batch { one.append(id * 10, id: id) }
    many.append(contentsOf: batch.lazy.map { ($0, $0 * 10) })
    #expect(many == one)
    #expect(many.ids == one.ids && many.values == one.values && many.count == existing + added)
    #expect(many[id: existing + added] == (existing + added) * 10)
    // A copy taken before is left alone.
    #expect(before.values == Array(stride(from: 1, through: existing, by: 1)))
    // The list goes on as any other: appended to, changed, shorter.
    many.append(-1, id: -1)
    many[id: 1] = nil
    one.append(-1, id: -1)
    one[id: 1] = nil
    #expect(many == one && many.values == one.values)
  }

  /// The changes `list` reports from `old`, sorted by id.
  private func changes(
    _ list: IdentifiedList<Int, Int>, from old: IdentifiedList<Int, Int>
  ) -> [String] {
    var seen: [String] = []
    list.forEachChange(from: old) { id, element in
      seen.append("\(id)=\(element.map(String.init) ?? "gone")")
    }
    return seen.sorted()
  }

  @Test func aChangedCopyReportsOnlyItsChangedRows() {
    let original = numbered(40_000)
    var changed = original
    changed[id: 7] = -7
    changed.update(id: 33_000) { $0 = 0 }
    #expect(changes(changed, from: original) == ["33000=0", "7=-7"])
    #expect(changes(original, from: original).isEmpty)
    // Changed and changed back: no change, though the nodes are no longer shared.
    changed[id: 7] = 7
    changed[id: 33_000] = 33_000
    #expect(changes(changed, from: original).isEmpty)
  }

  @Test func addedAndRemovedRowsAreReported() {
    let original = numbered(100)
    var changed = original
    changed.remove(id: 50)
    changed.append(1_000, id: 1_000)
    changed[id: 3] = 0
    #expect(changes(changed, from: original) == ["1000=1000", "3=0", "50=gone"])
    #expect(changes(original, from: changed) == ["1000=gone", "3=3", "50=50"])
  }

  @Test func aMovedRowIsNotAChange() {
    let original = numbered(3)
    var moved = original
    let one = moved.remove(id: 1)
    moved.append(one ?? 0, id: 1)
    #expect(changes(moved, from: original).isEmpty)
  }

  @Test func randomEditsReportExactlyWhatABruteForceDiffFinds() {
    // Appends, removals (enough to lay the list out again), moves, changes and removals by
    // predicate on a copy; the report must equal comparing every id, whichever path
    // forEachChange takes.
    var generator = SystemRandomNumberGenerator()
    for round in 0..<200 {
      let original = numbered(Int.random(in: 1...1_100, using: &generator))
      var changed = original
      var next = 10_000
      for _ in 0..<Int.random(in: 0...(round % 3 == 0 ? 80 : 6), using: &generator) {
        let id = changed.ids.randomElement(using: &generator)
        switch Int.random(in: 0..<5, using: &generator) {
        case 0:
          changed.append(next, id: next)
          next += 1
        case 1: if let id { changed.remove(id: id) }
        case 2: if let id, let element = changed.remove(id: id) { changed.append(element, id: id) }
        case 3:
          let divisor = Int.random(in: 2...40, using: &generator)
          changed.removeAll { $0 % divisor == 0 }
        default: if let id { changed[id: id] = -id }
        }
      }
      var expected: [String] = []
      for id in Set(original.ids).union(changed.ids) where changed[id: id] != original[id: id] {
        expected.append("\(id)=\(changed[id: id].map(String.init) ?? "gone")")
      }
      #expect(changes(changed, from: original) == expected.sorted())
      let same = changed.ids == original.ids && expected.isEmpty
      #expect((changed == original) == same && (original == changed) == same)
      #expect(changed.values == changed.ids.compactMap { changed[id: $0] })
      #expect(changed.ids.allSatisfy { changed.contains(id: $0) } && !changed.contains(id: -1))
    }
  }
}
