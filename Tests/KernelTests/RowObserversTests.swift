import Testing

@testable import Kernel

@Suite struct RowObserversBehaviour {
  /// A hub with observers of `ids`, joined on `list`; returns what each heard, as "id=value".
  final class Heard: Sendable {
    let values = Lock<[String]>([])
    var all: [String] { values.withLock { $0 } }
  }

  func observing(_ ids: [Int], from list: IdentifiedList<Int, Int>) -> (
    RowObservers<Int, Int>, Heard, [Int]
  ) {
    let hub = RowObservers<Int, Int>()
    let heard = Heard()
    var tokens: [Int] = []
    for id in ids {
      let token = hub.add(id) { value in
        heard.values.withLock { $0.append("\(id)=\(value.map(String.init) ?? "gone")") }
      }
      tokens.append(token)
      hub.join(token, list)
    }
    return (hub, heard, tokens)
  }

  @Test func onlyTheObserversOfChangedRowsAreCalledInTheOrderTheyWereAdded() {
    var list = IdentifiedList(0..<1_000, id: { $0 })
    let (hub, heard, tokens) = observing([700, 3, 500], from: list)
    #expect(heard.all == ["700=700", "3=3", "500=500"])
    list[id: 500] = -500
    list[id: 3] = -3
    list[id: 4] = -4
    hub.follow(list)
    #expect(heard.all.suffix(2) == ["3=-3", "500=-500"])
    hub.follow(list)  // nothing changed
    hub.remove(tokens[1])
    list[id: 3] = 33
    hub.follow(list)
    #expect(heard.all.count == 5)
  }

  @Test func afterOneRowChangedInPlaceOnlyItsObserversLookAndRowsAddedLaterAreSeen() {
    var list = IdentifiedList(0..<1_000, id: { $0 })
    let (hub, heard, _) = observing([10, 900, 2_000], from: list)
    hub.follow(list)  // the list the observers joined on
    list[id: 900] = -900
    hub.follow(list)
    list.update(id: 10) { $0 = -10 }
    hub.follow(list)
    hub.follow(list)  // the same list: nothing
    list.append(2_000, id: 2_000)
    hub.follow(list)
    list[id: 2_000] = -2_000
    list[id: 10] = 10
    hub.follow(list)
    #expect(
      heard.all == [
        "10=10", "900=900", "2000=gone", "900=-900", "10=-10", "2000=2000", "10=10",
        "2000=-2000",
      ])
  }

  @Test func aRowFoundAgainAfterItMovedOrTheListWasLaidOutAnewOrReplaced() {
    var list = IdentifiedList(0..<100, id: { $0 })
    let (hub, heard, _) = observing([10, 200], from: list)
    // Removed, then added again at a new slot.
    list.remove(id: 10)
    hub.follow(list)
    list.append(-10, id: 10)
    hub.follow(list)
    // Not in the list at first, then added.
    list.append(200, id: 200)
    hub.follow(list)
    // Most rows removed: the list is laid out anew, every slot moves.
    list.removeAll { $0 > 20 && $0 < 100 }
    list[id: 10] = 1_010
    hub.follow(list)
    // A copy that took another path from the same list: another id in the slot row 10 had.
    var sibling = list
    sibling.remove(id: 10)
    sibling.append(77, id: 300)
    sibling.append(10_010, id: 10)
    hub.follow(sibling)
    // An older copy, with fewer slots than the hub has seen.
    hub.follow(IdentifiedList(0..<5, id: { $0 }))
    #expect(
      heard.all == [
        "10=10", "200=gone", "10=gone", "10=-10", "200=200", "10=1010", "10=10010", "10=gone",
        "200=gone",
      ])
  }

  @Test func twoCopiesThatGaveTheSameSlotToDifferentRowsAreNotConfused() {
    let base = IdentifiedList(0..<40, id: { $0 })
    var first = base
    first.append(5, id: 400)
    var second = base
    second.append(6, id: 401)  // the slot row 400 has in `first`
    let (hub, heard, _) = observing([400, 401], from: first)
    hub.follow(second)
    hub.follow(first)
    #expect(heard.all == ["400=5", "401=gone", "400=gone", "401=6", "400=5", "401=gone"])
  }
}
