import Testing

@testable import Kernel

/// The ledger of each child's work: what a runtime cancels when a child leaves its list.
@Suite struct ChildLedgerBehaviour {
  private func numbered(_ count: Int) -> IdentifiedList<Int, Int> {
    IdentifiedList(stride(from: 1, through: count, by: 1)) { $0 }
  }

  @Test func aRemovedChildHandsBackItsWorkAndNoOneElses() {
    var list = numbered(10)
    var ledger = ChildLedger<Int, String>()
    ledger.begin("load 2", of: 2)
    ledger.begin("load 3", of: 3)
    ledger.begin("load 4", of: 4)
    #expect(ledger.removed(from: list).isEmpty)
    list.remove(id: 3)
    #expect(ledger.removed(from: list) == ["load 3"])
    #expect(ledger.removed(from: list).isEmpty)  // looked at already
    // Changed, then removed, between two looks.
    list[id: 2] = -2
    list.remove(id: 2)
    #expect(ledger.removed(from: list) == ["load 2"])
    // A child without work leaves: nothing to cancel.
    list.remove(id: 9)
    #expect(ledger.removed(from: list).isEmpty)
    #expect(!ledger.isEmpty)
    list.remove(id: 4)
    #expect(ledger.removed(from: list) == ["load 4"])
    #expect(ledger.isEmpty)
  }

  @Test func workBegunForAChildTheListDoesNotHoldEndsAtTheNextLook() {
    let list = numbered(3)
    var ledger = ChildLedger<Int, String>()
    ledger.begin("load 1", of: 1)
    ledger.begin("load 7", of: 7)
    #expect(ledger.removed(from: list) == ["load 7"])
    #expect(ledger.forget(1) == ["load 1"])
  }

  @Test func changesItCannotFollowAreCheckedChildByChild() {
    var list = numbered(10)
    var ledger = ChildLedger<Int, String>()
    for id in 1...5 { ledger.begin("load \(id)", of: id) }
    #expect(ledger.removed(from: list).isEmpty)
    list.removeAll { $0 == 2 || $0 == 4 }
    #expect(Set(ledger.removed(from: list)) == ["load 2", "load 4"])
    // Another list altogether (a state replaced): its stamp is none the ledger saw.
    list = numbered(3)
    #expect(Set(ledger.removed(from: list)) == ["load 5"])
    list.removeAll { _ in true }
    #expect(Set(ledger.removed(from: list)) == ["load 1", "load 3"])
    #expect(ledger.isEmpty)
  }

  @Test func onlyWorkStillRunningIsHandedBack() {
    var list = numbered(3)
    var ledger = ChildLedger<Int, String>()
    ledger.begin("load", of: 1)
    ledger.begin("save", of: 1)
    ledger.begin("load", of: 1)  // a run that replaces the first begins before it ends
    ledger.end("load", of: 1)
    ledger.end("save", of: 1)
    ledger.begin("watch", of: 1)
    #expect(ledger.removed(from: list).isEmpty)
    list.remove(id: 1)
    #expect(Set(ledger.removed(from: list)) == ["load", "watch"])
  }
}
