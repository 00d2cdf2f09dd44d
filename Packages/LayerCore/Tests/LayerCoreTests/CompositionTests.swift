import Testing

@testable import LayerCore

/// A row of the parent's list: what its machine should wait for, and what came back.
struct Row: Sendable, Equatable {
  var waiting: Request?
  var results: [Int] = []
  var count = 0
}

enum RowOutput: Sendable, Equatable {
  case echoed(Int)
}

enum ParentEvent: Sendable, Equatable {
  case child(Event)
  case add(Int)
  case remove(Int)
  case wait(row: Int, Int)
  case row(Int, RowOutput)
}

struct ParentState: Sendable, Equatable {
  var child: Counter?
  var rows = IdentifiedList<Int, Row>()
  var requests = 0
}

/// Waits on the gate for each new request of its row, ignoring cancellation; counts its calls.
final class RowWorker: ChildMachine {
  let id: Int
  let gate: Gate
  let calls: Recorder<String>
  private let last = Lock<Request?>(nil)

  init(id: Int, gate: Gate, calls: Recorder<String>) {
    self.id = id
    self.gate = gate
    self.calls = calls
  }

  func process(input: Row?, callback: Handler<RowOutput>) {
    guard let input else { return calls.append("start \(id)") }
    calls.append("row \(id)")
    let isNew = last.withLock { last -> Bool in
      defer { last = input.waiting }
      return input.waiting != last
    }
    guard isNew, let request = input.waiting else { return }
    let (gate, calls, id) = (self.gate, self.calls, self.id)
    callback.run { send in
      await withTaskCancellationHandler {
        await gate.wait()
      } onCancel: {
        calls.append("cancelled \(id)")
      }
      send(.echoed(request.value))
    }
  }
}

/// A parent core: the test's ``TallyCore`` mounted as a child, and a list of rows with a
/// machine each. Row 1's echo also counts in row 2, in the same event (a child telling its
/// sibling through the parent).
struct ParentCore: Core {
  let child: Mounted<TallyCore, ParentState, ParentEvent>
  let gate: Gate
  let calls: Recorder<String>
  let states: Recorder<ParentState>

  init(view: ViewMachine = ViewMachine(), gate: Gate = Gate(), calls: Recorder<String> = Recorder())
  {
    child = TallyCore(view: view, work: WorkMachine()).mounted(
      at: \.child, event: ParentEvent.child)
    self.gate = gate
    self.calls = calls
    states = Recorder()
  }

  var layers: [Layer<ParentState, ParentEvent>] {
    let (gate, calls, states) = (self.gate, self.calls, self.states)
    return child.layers + [
      .forEach(
        \.rows, machine: { id in ~RowWorker(id: id, gate: gate, calls: calls) },
        event: { id, output in .row(id, output) }),
      .consumer(~Watch(), mapper: { states.append($0) }),
    ]
  }

  func reduce(state: ParentState?, event: ParentEvent) -> ReducerResult<ParentState> {
    var state = state ?? ParentState()
    switch event {
    case .child(let event):
      return child.reduce(event, in: state)
    case .add(let id):
      state.rows.append(Row(), id: id)
    case .remove(let id):
      guard state.rows.remove(id: id) != nil else { return .skip }
    case .wait(let id, let value):
      guard state.rows.contains(id: id) else { return .skip }
      state.requests += 1
      state.rows[id: id]?.waiting = Request(id: state.requests, value: value)
    case .row(let id, .echoed(let value)):
      guard state.rows.contains(id: id) else { return .skip }
      state.rows.update(id: id) { row in
        row.results.append(value)
        row.waiting = nil
      }
      if id == 1 { state.rows.update(id: 2) { $0.count += 1 } }
    }
    return .set(state)
  }
}

/// A parent state holding its child's state twice over: stored (behind another field, so its
/// layers read it where it is stored) and through a computed property (read by the key path).
struct HolderState: Sendable, Equatable {
  var padding = "before the child"
  var stored: Counter?
  var computed: Counter? {
    get { stored }
    set { stored = newValue }
  }
}

/// A parent core that is only its mounted child, at `path`.
struct ChildHolder: Core {
  let child: Mounted<TallyCore, HolderState, Event>

  init(view: ViewMachine, path: WritableKeyPath<HolderState, Counter?> & Sendable) {
    child = TallyCore(view: view, work: WorkMachine()).mounted(at: path, event: { $0 })
  }

  var layers: [Layer<HolderState, Event>] { child.layers }

  func reduce(state: HolderState?, event: Event) -> ReducerResult<HolderState> {
    child.reduce(event, in: state ?? HolderState())
  }
}

/// A machine whose layer's mapper did the work.
struct Watch: ChildMachine {
  func process(input: Void?, callback: Handler<Never>) {}
}

@Suite struct Composition {
  @Test func aMountedCoreRunsItsReducerAndLayersOnItsPartOfTheState() async {
    let view = ViewMachine()
    let flow = ParentCore(view: view).start()
    await flow.idle()
    #expect(flow.state?.child == Counter(count: 0))  // its storage layer loaded it
    flow.send(.child(.increment))
    flow.send(.child(.increment))
    await flow.idle()
    #expect(flow.state?.child?.count == 2)
    #expect(view.renders.all == [nil, 0, 1, 2])
    // A parent event that leaves the child alone shows the child's machines nothing new.
    flow.send(.add(1))
    await flow.idle()
    #expect(view.renders.all.last == 2)
  }

  @Test(arguments: [\HolderState.stored, \HolderState.computed])
  func aMountedCoreGetsItsStateWhereverTheParentKeepsIt(
    path: WritableKeyPath<HolderState, Counter?> & Sendable
  ) async {
    let view = ViewMachine()
    let flow = ChildHolder(view: view, path: path).start()
    await flow.idle()
    flow.send(.increment)
    flow.send(.increment)
    await flow.idle()
    #expect(flow.state?.stored?.count == 2)
    #expect(view.renders.all == [nil, 0, 1, 2])
  }

  // R2: children's events are reduced one at a time with the parent's, in arrival order, and
  // a child telling its sibling lands in the same event.
  @Test func aRowTellsItsSiblingInTheSameEvent() async {
    let gate = Gate()
    let core = ParentCore(gate: gate)
    let flow = core.start()
    for id in 1...2 { flow.send(.add(id)) }
    flow.send(.wait(row: 1, 7))
    await eventually { gate.waiting == 1 }
    gate.open()
    await flow.idle()
    #expect(flow.state?.rows[id: 1]?.results == [7])
    #expect(flow.state?.rows[id: 2]?.count == 1)
    // No state had row 1's echo without row 2's count.
    let seen = core.states.all.map {
      [$0.rows[id: 1]?.results.count ?? -1, $0.rows[id: 2]?.count ?? -1]
    }
    #expect(!seen.contains([1, 0]))
    #expect(seen.last == [1, 1])
  }

  // R5: a row that leaves has its work cancelled, and what the work sends later is dropped.
  @Test func aRemovedRowsWorkIsCancelledAndItsLateResultDropped() async {
    let gate = Gate()
    let calls = Recorder<String>()
    let flow = ParentCore(gate: gate, calls: calls).start()
    for id in 1...2 { flow.send(.add(id)) }
    flow.send(.wait(row: 1, 10))
    flow.send(.wait(row: 2, 20))
    await eventually { gate.waiting == 2 }
    flow.send(.remove(1))
    #expect(calls.all.contains("cancelled 1"))
    #expect(!calls.all.contains("cancelled 2"))
    // Back under the same id: a new machine, and the old work's answer does not reach it.
    flow.send(.add(1))
    gate.open()
    await flow.idle()
    #expect(flow.state?.rows[id: 1]?.results == [])
    #expect(flow.state?.rows[id: 2]?.results == [20])
    #expect(calls.all.filter { $0 == "start 1" }.count == 2)
  }

  // R6: stop cancels every row's and child's work.
  @Test func stopStopsEveryChild() async {
    let gate = Gate()
    let calls = Recorder<String>()
    let flow = ParentCore(gate: gate, calls: calls).start()
    for id in 1...3 { flow.send(.add(id)) }
    for id in 1...3 { flow.send(.wait(row: id, id)) }
    await eventually { gate.waiting == 3 }
    flow.stop()
    #expect(
      Set(calls.all.filter { $0.hasPrefix("cancelled") }) == [
        "cancelled 1", "cancelled 2", "cancelled 3",
      ])
    gate.open()
    await flow.idle()
    #expect(flow.state?.rows.values.allSatisfy { $0.results.isEmpty } == true)
  }

  // No retain cycle: rows' running work does not keep the flow alive.
  @Test func aReleasedFlowWithRowsRunningIsFreed() async {
    weak var weakFlow: Flow<ParentCore>?
    let gate = Gate()
    do {
      let flow = ParentCore(gate: gate).start()
      weakFlow = flow
      flow.send(.add(1))
      flow.send(.wait(row: 1, 1))
      await eventually { gate.waiting == 1 }
    }
    await eventually { weakFlow == nil }
    #expect(weakFlow == nil)
    gate.open()
  }

  // R11: a change to one row of 1,000 reaches that row's machine only.
  @Test func aChangeToOneRowReachesOnlyItsMachine() async {
    let calls = Recorder<String>()
    let gate = Gate()
    let flow = ParentCore(gate: gate, calls: calls).start()
    for id in 1...1_000 { flow.send(.add(id)) }
    await flow.idle()
    let before = calls.all.count
    flow.send(.wait(row: 500, 1))
    flow.send(.child(.increment))
    await eventually { gate.waiting == 1 }
    #expect(Array(calls.all[before...]) == ["row 500"])
    gate.open()
    await flow.idle()
    #expect(Array(calls.all[before...]) == ["row 500", "row 500"])
  }
}
