import Testing

@testable import LayerCore

/// A list of titled rows shown by one ``RowsMachine``; the rows' output renames a row.
struct TitledRow: Sendable, Equatable {
  var title: String
  var done = false
}

enum ListEvent: Sendable, Equatable {
  case add(Int, String)
  case remove(Int)
  case toggle(Int)
  case rename(Int, String)
}

struct ListCore: Core {
  let rows: RowsMachine<Int, TitledRow, ListEvent>

  var layers: [Layer<IdentifiedList<Int, TitledRow>, ListEvent>] {
    [.layer(~rows, stateMapper: { $0 }, eventMapper: { $0 })]
  }

  func reduce(
    state: IdentifiedList<Int, TitledRow>?, event: ListEvent
  ) -> ReducerResult<IdentifiedList<Int, TitledRow>> {
    var rows = state ?? IdentifiedList()
    switch event {
    case .add(let id, let title): rows.append(TitledRow(title: title), id: id)
    case .remove(let id): guard rows.remove(id: id) != nil else { return .skip }
    case .toggle(let id):
      guard rows.update(id: id, { $0.done.toggle() }) != nil else { return .skip }
    case .rename(let id, let title):
      guard rows.contains(id: id) else { return .skip }
      rows[id: id]?.title = title
    }
    return .set(rows)
  }
}

@Suite struct RowsMachineTests {
  // R11: a row's observer hears the row now, then only its changes, and nil once it leaves.
  @Test func anObserverHearsItsRowThenOnlyItsChangesThenNilOnce() async {
    let rows = RowsMachine<Int, TitledRow, ListEvent>()
    let flow = ListCore(rows: rows).start()
    for id in 1...3 { flow.send(.add(id, "row \(id)")) }
    await flow.idle()
    let seen = Recorder<TitledRow?>()
    rows.observe(2) { seen.append($0) }
    #expect(seen.all == [TitledRow(title: "row 2")])
    flow.send(.toggle(1))
    flow.send(.rename(3, "three"))
    flow.send(.add(4, "row 4"))
    #expect(seen.all == [TitledRow(title: "row 2")])
    flow.send(.toggle(2))
    flow.send(.remove(2))
    flow.send(.remove(1))
    await flow.idle()
    #expect(seen.all == [TitledRow(title: "row 2"), TitledRow(title: "row 2", done: true), nil])
  }

  // R11: observers asked for before start hear at start: no list yet, so nil.
  @Test func anObserverBeforeStartHearsNilAtStart() async {
    let rows = RowsMachine<Int, TitledRow, ListEvent>()
    let seen = Recorder<TitledRow?>()
    rows.observe(1) { seen.append($0) }
    let core = ListCore(rows: rows)
    #expect(seen.all.isEmpty)
    let flow = core.start()
    await flow.idle()
    #expect(seen.all == [nil])
    flow.send(.add(1, "one"))
    await flow.idle()
    #expect(seen.all == [nil, TitledRow(title: "one")])
  }

  // A transform's observer is called only when the value it makes changes.
  @Test func aTransformedObserverHearsOnlyChangesOfItsValue() async {
    let rows = RowsMachine<Int, TitledRow, ListEvent>()
    let flow = ListCore(rows: rows).start()
    flow.send(.add(1, "one"))
    await flow.idle()
    let titles = Recorder<String?>()
    rows.observe(1, { $0?.title }, { titles.append($0) })
    flow.send(.toggle(1))
    flow.send(.rename(1, "uno"))
    flow.send(.toggle(1))
    await flow.idle()
    #expect(titles.all == ["one", "uno"])
  }

  // What the screen sends for a row is the machine's output: it reaches the reducer, once the
  // machine started; an observer that was stopped hears nothing more.
  @Test func sentOutputsReachTheReducerAndAStoppedObserverHearsNothing() async {
    let rows = RowsMachine<Int, TitledRow, ListEvent>()
    rows.send(.add(9, "before start"))
    let flow = ListCore(rows: rows).start()
    await flow.idle()
    #expect(flow.state == nil)
    rows.send(.add(1, "one"))
    await flow.idle()
    #expect(flow.state?[id: 1]?.title == "one")
    let seen = Recorder<TitledRow?>()
    let stop = rows.observe(1) { seen.append($0) }
    stop()
    rows.send(.toggle(1))
    await flow.idle()
    #expect(flow.state?[id: 1]?.done == true)
    #expect(seen.all == [TitledRow(title: "one")])
  }

  // A change to one row of many calls that row's observer only; stop notifies nobody.
  @Test func oneRowsChangeCallsOnlyItsObserver() async {
    let rows = RowsMachine<Int, TitledRow, ListEvent>()
    let flow = ListCore(rows: rows).start()
    for id in 1...1000 { flow.send(.add(id, "row \(id)")) }
    await flow.idle()
    let calls = Recorder<Int>()
    for id in stride(from: 50, through: 1000, by: 50) {
      rows.observe(id) { _ in calls.append(id) }
    }
    #expect(calls.all.count == 20)
    flow.send(.toggle(100))
    flow.send(.toggle(101))
    await flow.idle()
    #expect(calls.all.dropFirst(20) == [100])
    flow.stop()
    #expect(calls.all.count == 21)
  }
}
