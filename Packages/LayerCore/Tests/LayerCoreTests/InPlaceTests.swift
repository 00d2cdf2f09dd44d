import LayerCoreTesting
import Testing

@testable import LayerCore

/// A part of the state whose sharing a reducer can see: `isKnownUniquelyReferenced` tells
/// whether anyone else (the flow, a layer's machine) still holds the state it changes.
final class Shared: Sendable {}

/// A list shown through a ``RowsMachine``, and whether the state (`shared`) and the list's
/// storage were the reducer's alone each time.
struct Probed: Sendable {
  var rows = IdentifiedList<Int, TitledRow>()
  var shared = Shared()
  var wasUnique: [Bool] = []
  var listWasUnique: [Bool] = []

  /// Notes whether the state and the list's storage are held by this value alone.
  mutating func probe() {
    wasUnique.append(isKnownUniquelyReferenced(&shared))
    if rows.elements.root != nil {
      listWasUnique.append(isKnownUniquelyReferenced(&rows.elements.root!))
    }
  }
}

/// Written in place, with a ``RowsMachine`` showing the rows.
struct InPlaceList: Core {
  let rows: RowsMachine<Int, TitledRow, ListEvent>

  var layers: [Layer<Probed, ListEvent>] {
    [.layer(~rows, stateMapper: \.rows, eventMapper: { $0 })]
  }

  func reduce(state: inout Probed?, event: ListEvent) -> InPlaceReducerResult {
    if state == nil { state = Probed() }
    state!.probe()
    switch event {
    case .add(let id, let title): state!.rows.append(TitledRow(title: title), id: id)
    case .remove(let id): state!.rows.remove(id: id)
    case .toggle(let id): state!.rows.update(id: id) { $0.done.toggle() }
    case .rename(let id, let title): state!.rows.update(id: id) { $0.title = title }
    }
    return .set
  }
}

/// The same probe, value in, value out.
struct ValueList: Core {
  var layers: [Layer<Probed, ListEvent>] { [] }

  func reduce(state: Probed?, event: ListEvent) -> ReducerResult<Probed> {
    var next = state ?? Probed()
    next.probe()
    return .set(next)
  }
}

/// The in-place list mounted in a parent, which reduces it in place too.
struct ListParent: Core {
  struct State: Sendable { var list: Probed? }
  let rows: RowsMachine<Int, TitledRow, ListEvent>

  var list: Mounted<InPlaceList, State, ListEvent> {
    InPlaceList(rows: rows).mounted(at: \.list, event: { $0 })
  }

  var layers: [Layer<State, ListEvent>] { list.layers }

  func reduce(state: inout State?, event: ListEvent) -> InPlaceReducerResult {
    if state == nil { state = State() }
    return list.reduce(event, in: &state!)
  }
}

@Suite struct ReducingInPlace {
  @Test func aReducerWrittenInPlaceChangesTheFlowsOwnStateWhileRowsAreShown() async {
    let rows = RowsMachine<Int, TitledRow, ListEvent>()
    let flow = InPlaceList(rows: rows).start()
    let seen = Recorder<TitledRow?>()
    rows.observe(1) { seen.append($0) }
    flow.send(.add(1, "milk"))
    flow.send(.toggle(1))
    flow.send(.rename(1, "rye"))
    await flow.idle()
    // The first event makes the state; the later ones find it the reducer's alone: the rows'
    // machine keeps no list.
    #expect(flow.state?.wasUnique.dropFirst().allSatisfy { $0 } == true)
    #expect(flow.state?.listWasUnique == [true, true])
    #expect(
      seen.all == [
        nil, TitledRow(title: "milk"), TitledRow(title: "milk", done: true),
        TitledRow(title: "rye", done: true),
      ])
  }

  @Test func aValueInValueOutReducerChangesACopyTheFlowStillHolds() async {
    let flow = ValueList().start()
    flow.send(.add(1, "milk"))
    flow.send(.add(2, "rye"))
    await flow.idle()
    #expect(flow.state?.wasUnique == [true, false])
  }

  @Test func eachFormIsMadeOfTheOther() {
    let core = InPlaceList(rows: RowsMachine())
    guard case .set(let added) = core.reduce(state: nil, event: .add(1, "milk")) else {
      Issue.record("the in-place reducer set a state")
      return
    }
    #expect(added.rows[id: 1] == TitledRow(title: "milk"))
    var state: Probed? = nil
    #expect(ValueList().reduce(state: &state, event: .add(1, "milk")) == .set)
    #expect(state?.wasUnique == [true])
  }

  // A late observer reads the flow's list when it joins, in the flow's order.
  @Test func anObserverJoiningLaterReadsTheListThen() async {
    let rows = RowsMachine<Int, TitledRow, ListEvent>()
    let flow = InPlaceList(rows: rows).start()
    flow.send(.add(1, "milk"))
    flow.send(.add(2, "rye"))
    await flow.idle()
    let seen = Recorder<TitledRow?>()
    rows.observe(2) { seen.append($0) }
    rows.observe(3) { seen.append($0) }
    flow.send(.toggle(2))
    await flow.idle()
    #expect(seen.all == [TitledRow(title: "rye"), nil, TitledRow(title: "rye", done: true)])
  }

  @Test func aMountedCoreReducesInPlaceAndItsRowsReadThroughTheParent() async {
    let rows = RowsMachine<Int, TitledRow, ListEvent>()
    let flow = ListParent(rows: rows).start()
    flow.send(.add(1, "milk"))
    flow.send(.toggle(1))
    await flow.idle()
    let seen = Recorder<TitledRow?>()
    rows.observe(1) { seen.append($0) }
    flow.send(.rename(1, "rye"))
    await flow.idle()
    #expect(flow.state?.list?.wasUnique.dropFirst().allSatisfy { $0 } == true)
    #expect(flow.state?.list?.listWasUnique == [true, true])
    #expect(
      seen.all == [TitledRow(title: "milk", done: true), TitledRow(title: "rye", done: true)])
  }
}

@Suite struct ReadingTheListUnderTheTestingTool {
  // The testing tool's monitor sees every input: a late observer still reads the flow's list
  // through its layer.
  @Test func anObserverJoiningLaterReadsTheListUnderTheHarness() async {
    let rows = RowsMachine<Int, TitledRow, ListEvent>()
    let harness = CoreHarness(InPlaceList(rows: rows))
    await harness.start()
    await harness.send(.add(1, "milk"), .add(2, "rye"))
    let seen = Recorder<TitledRow?>()
    rows.observe(2) { seen.append($0) }
    await harness.send(.toggle(2))
    #expect(seen.all == [TitledRow(title: "rye"), TitledRow(title: "rye", done: true)])
    harness.stop()
  }
}
