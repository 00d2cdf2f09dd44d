import Comonadic
import ComonadicTesting
import Testing

#if canImport(Observation)
  import Observation
#endif

/// A row with work of its own: `.fetch` waits for the test's gate and then sets `fetched`.
struct Row: Equatable, Sendable {
  var title: String
  var done = false
  var fetched = 0
}

enum RowInput: Equatable, Sendable {
  case toggle
  case fetch
}

/// What the rows' work reports: calls, cancellations and results, by row.
struct RowWork: Sendable {
  let gate: Gate
  let events: Recorder<String>
}

let rowDispatcher = StateDispatcher<RowWork, Row, RowInput>.workflow { input in
  switch input {
  case .toggle:
    [.action(.mutate { $0.done.toggle() })]
  case .fetch:
    [
      .task(id: "fetch") { work, row in
        work.events.append("call \(row.title)")
        await withTaskCancellationHandler {
          await work.gate.wait()
        } onCancel: {
          work.events.append("cancel \(row.title)")
        }
        return .mutate { $0.fetched += 1 }
      }
    ]
  }
}

struct List: Equatable, Sendable {
  var rows = IdentifiedList<Int, Row>()
  var log: [String] = []
}

enum ListInput: Equatable, Sendable {
  case row(Int, RowInput)
  case remove(Int)
  case removeDone
  case note(String)
}

let listDispatcher = rowDispatcher.forEach(
  transformEnvironment: { (work: RowWork) in work }, transformState: \List.rows,
  transformInput: { (input: ListInput) -> (Int, RowInput)? in
    if case .row(let id, let input) = input { (id, input) } else { nil }
  }
)
.combine(
  StateDispatcher<RowWork, List, ListInput>.pure { input in
    switch input {
    case .row(let id, let input): .mutate { $0.log.append("row \(id) \(input)") }
    case .remove(let id): .mutate { $0.rows.remove(id: id) }
    case .removeDone: .mutate { $0.rows.removeAll { $0.done } }
    case .note(let text): .mutate { $0.log.append(text) }
    }
  })

func makeList(_ count: Int, work: RowWork) -> StoreComponent<RowWork, List, ListInput, List> {
  var list = List()
  for id in 1...count { list.rows.append(Row(title: "r\(id)"), id: id) }
  return StoreComponent(
    initialState: list, environment: work, dispatcher: listDispatcher,
    render: { state, _ in state })
}

@Suite struct ListComposition {
  @Test func eachRowsWorkIsItsOwn() async {
    let work = RowWork(gate: Gate(), events: Recorder())
    let list = makeList(3, work: work)
    list.send(.row(1, .fetch))
    list.send(.row(2, .fetch))  // the same id in another row: both run
    await eventually { work.gate.waiting == 2 }
    work.gate.open()
    await list.idle()
    #expect(list.state.rows[id: 1]?.fetched == 1)
    #expect(list.state.rows[id: 2]?.fetched == 1)
    #expect(list.state.rows[id: 3]?.fetched == 0)
    #expect(Set(work.events.all) == ["call r1", "call r2"])
  }

  @Test func inputsForUnknownRowsAreIgnored() async {
    let work = RowWork(gate: Gate(), events: Recorder())
    let list = makeList(2, work: work)
    list.send(.row(9, .fetch))
    list.send(.row(9, .toggle))
    await list.idle()
    #expect(work.events.all.isEmpty)
    #expect(list.state.rows.values.map(\.done) == [false, false])
  }

  @Test(arguments: [ListInput.remove(1), .removeDone])
  func aRemovedRowsWorkIsCancelledAndItsResultDropped(_ removal: ListInput) async {
    let work = RowWork(gate: Gate(), events: Recorder())
    let list = makeList(2, work: work)
    list.send(.row(1, .toggle))
    list.send(.row(1, .fetch))
    list.send(.row(2, .fetch))
    await eventually { work.gate.waiting == 2 }
    list.send(removal)  // the parent removes the row: its work is cancelled at once
    await eventually { work.events.all.contains("cancel r1") }
    work.gate.open()  // the cancelled work ignores cancellation and returns anyway
    await list.idle()
    #expect(list.state.rows.ids == [2])
    #expect(list.state.rows[id: 2]?.fetched == 1)
    #expect(!work.events.all.contains("cancel r2"))
  }

  @Test func oneDispatcherServesManyComponents() async {
    // The dispatcher is one value (a `static let` in an app); each component keeps its own
    // account of its rows' work.
    let work = (
      RowWork(gate: Gate(), events: Recorder()), RowWork(gate: Gate(), events: Recorder())
    )
    let lists = (makeList(2, work: work.0), makeList(2, work: work.1))
    lists.0.send(.row(1, .fetch))
    lists.1.send(.row(1, .fetch))
    await eventually { work.0.gate.waiting == 1 && work.1.gate.waiting == 1 }
    lists.1.send(.remove(1))
    await eventually { work.1.events.all.contains("cancel r1") }
    #expect(work.0.events.all == ["call r1"])  // the other list's row 1 is still there
    lists.0.send(.remove(1))
    await eventually { work.0.events.all.contains("cancel r1") }
    work.0.gate.open()
    work.1.gate.open()
    await lists.0.idle()
    await lists.1.idle()
  }

  @Test func stopStopsEveryRowsWork() async {
    let work = RowWork(gate: Gate(), events: Recorder())
    let list = makeList(2, work: work)
    list.send(.row(1, .fetch))
    list.send(.row(2, .fetch))
    await eventually { work.gate.waiting == 2 }
    list.stop()
    #expect(Set(work.events.all) == ["call r1", "call r2", "cancel r1", "cancel r2"])
    work.gate.open()
    list.send(.row(1, .toggle))
    await list.idle()
    #expect(list.state.rows.values.map(\.fetched) == [0, 0])
    #expect(list.state.rows.values.map(\.done) == [false, false])
  }

  @Test func aReleasedListWithRunningRowsIsFreed() async {
    let work = RowWork(gate: Gate(), events: Recorder())
    weak var weakList: StoreComponent<RowWork, List, ListInput, List>?
    do {
      let list = makeList(2, work: work)
      weakList = list
      list.send(.row(1, .fetch))
      await eventually { work.gate.waiting == 1 }
    }
    #expect(weakList == nil)
    await eventually { work.events.all.contains("cancel r1") }
    work.gate.open()
  }

  @Test func parentAndRowActionsKeepOneOrder() async {
    let work = RowWork(gate: Gate(), events: Recorder())
    let list = makeList(2, work: work)
    let seen = Recorder<[String]>()
    // An observer sending while the list handles an input: queued behind it, never nested.
    list.subscribe { state in
      seen.append(state.log)
      if state.log == ["row 1 toggle"] { list.send(.note("from observer")) }
    }
    list.send(.row(1, .toggle))
    list.send(.note("after"))
    await list.idle()
    #expect(list.state.log == ["row 1 toggle", "from observer", "after"])
    // The row's toggle and the list's log line are two steps, applied in order.
    #expect(list.state.rows[id: 1]?.done == true)
  }

  @Test func aRowObserverHearsOnlyItsRow() async {
    let work = RowWork(gate: Gate(), events: Recorder())
    let list = makeList(10_000, work: work)
    let calls = Recorder<Int>()
    let rows = (1...20).map { id in
      list.child(forEach: \.rows, id: id * 500, input: { .row(id * 500, $0) }) { row, _ in row }
    }
    var subscriptions: [Subscription] = []
    for (index, row) in rows.enumerated() {
      subscriptions.append(row.subscribe { _ in calls.append(index) })
    }
    #expect(calls.all.count == 20)  // each is told its row once, at once
    list.send(.row(1_000, .toggle))
    await list.idle()
    #expect(calls.all.count == 21)
    #expect(calls.all.last == 1)
    #expect(rows[1].state?.done == true)
    rows[2].send(.toggle)  // a row's input is the list's input for that row
    await list.idle()
    #expect(list.state.rows[id: 1_500]?.done == true)
    #expect(calls.all.count == 22)
    list.send(.remove(1_500))
    await list.idle()
    #expect(calls.all.count == 23)
    #expect(rows[2].state == nil)
    _ = subscriptions
  }

  @Test func aLongChainOfObserverDrivenInputsWithQueuedSavesGoesThrough() async {
    // Each increment queues a save behind the one running (`.enqueue`); an observer sends the
    // next increment. 20,000 saves wait in line at most: taking each from the front of the
    // line must not copy the line.
    let saved = Recorder<Int>()
    let dispatcher = StateDispatcher<Void, Int, Void>.workflow { _ in
      [
        .action(.modify { $0 + 1 }),
        .read { count in
          [
            .task(id: "save", whenRunning: .enqueue) { _, _ in
              saved.append(count)
              return .none
            }
          ]
        },
      ]
    }
    let component = StoreComponent(
      initialState: 0, dispatcher: dispatcher, render: { count, _ in count })
    let handle = component.handle
    component.subscribe { count in if count < 20_000 { handle(()) } }
    await component.idle()
    #expect(component.state == 20_000)
    #expect(saved.all == Array(1...20_000))
  }

  @Test func stepsThatSeeOnlyTheEnvironmentRunInOrderAndApplyTheirResults() async {
    struct Boom: Error {}
    // Rows whose steps take only the environment (Bow's effects), widened onto a list: the
    // second fetch waits in line behind the first, and the failing task's recovery applies.
    let row = StateDispatcher<Recorder<String>, Row, RowInput>.workflow { input in
      switch input {
      case .toggle:
        [.action(.mutate { $0.done.toggle() }), .perform { log in log.append("toggled") }]
      case .fetch:
        [
          .task(id: "fetch", whenRunning: .enqueue) { log in
            log.append("fetch")
            return .mutate { $0.fetched += 1 }
          },
          // Without an id: the second send's does not replace the first's.
          .task { (_: Recorder<String>) async throws -> State<Row, Void> in
            throw Boom()
          } catch: { _ in
            .mutate { $0.title += "!" }
          },
        ]
      }
    }
    let list = row.forEach(
      transformEnvironment: { (log: Recorder<String>) in log }, transformState: \List.rows,
      transformInput: { (input: ListInput) -> (Int, RowInput)? in
        if case .row(let id, let input) = input { (id, input) } else { nil }
      })
    var state = List()
    state.rows.append(Row(title: "a"), id: 1)
    state.rows.append(Row(title: "b"), id: 2)
    let log = Recorder<String>()
    let component = StoreComponent(
      initialState: state, environment: log, dispatcher: list, render: { state, _ in state })
    component.send(.row(1, .toggle))
    component.send(.row(2, .fetch))
    component.send(.row(2, .fetch))
    await component.idle()
    #expect(component.state.rows[id: 1] == Row(title: "a", done: true))
    #expect(component.state.rows[id: 2] == Row(title: "b!!", fetched: 2))
    #expect(log.all == ["toggled", "fetch", "fetch"])
  }

  @Test func combineRunsTheSecondDispatchersStepsAfterTheFirstsWork() async {
    let gate = Gate()
    let first = StateDispatcher<Void, [String], String>.workflow { input in
      [
        .task { _, _ in
          await gate.wait()
          return .mutate { $0.append("first \(input)") }
        }
      ]
    }
    let second = StateDispatcher<Void, [String], String>.pure { input in
      .mutate { $0.append("second \(input)") }
    }
    let component = StoreComponent(
      initialState: [], dispatcher: first.combine(second), render: { state, _ in state })
    component.send("a")
    await eventually { gate.waiting == 1 }
    #expect(component.state.isEmpty)  // the second waits for the first's work
    gate.open()
    await component.idle()
    #expect(component.state == ["first a", "second a"])
  }

  @Test func twoWidenedCopiesOfOnePartKeepTheirWorkApart() async {
    struct Pair: Equatable, Sendable {
      var left = Row(title: "left")
      var right = Row(title: "right")
    }
    enum PairInput: Sendable {
      case left(RowInput)
      case right(RowInput)
    }
    let work = RowWork(gate: Gate(), events: Recorder())
    let left = rowDispatcher.widen(
      transformEnvironment: { (work: RowWork) in work }, transformState: \Pair.left,
      transformInput: { (input: PairInput) -> RowInput? in
        if case .left(let input) = input { input } else { nil }
      })
    let right = rowDispatcher.widen(
      transformEnvironment: { (work: RowWork) in work }, transformState: \Pair.right,
      transformInput: { (input: PairInput) -> RowInput? in
        if case .right(let input) = input { input } else { nil }
      })
    let pair = StoreComponent(
      initialState: Pair(), environment: work, dispatcher: left.combine(right),
      render: { state, _ in state })
    pair.send(.left(.fetch))
    pair.send(.right(.fetch))  // "fetch" in the other part: neither replaces the other
    await eventually { work.gate.waiting == 2 }
    work.gate.open()
    await pair.idle()
    #expect(pair.state.left.fetched == 1 && pair.state.right.fetched == 1)
    #expect(!work.events.all.contains { $0.hasPrefix("cancel") })
  }

  @Test func bowArchSpellings() async {
    let dispatcher = StateDispatcher<Void, Int, StepperInput>.pure { input in
      switch input {
      case .tapDecrement: .modify { $0 - 1 }^
      case .tapIncrement: .modify { $0 + 1 }^
      }
    }
    let component = StoreComponent(
      initialState: 0, dispatcher: dispatcher, render: { count, _ in count })
    component.send(.tapIncrement)
    #expect(component.view == 1)
    #expect(dispatcher.on(.tapIncrement).count == 1)
    let ignoring = StateDispatcher<Void, Int, StepperInput>.empty()
    #expect(ignoring.on(.tapIncrement).isEmpty)
    let action = State<Int, Void>.modify { $0 * 10 }.followed(by: .modify { $0 + 1 })
    #expect(action.finalState(from: 2) == 21)
  }

  @Test func theTestToolAssertsOnARow() {
    let rows = rowDispatcher.forEach(
      transformEnvironment: { (work: RowWork) in work }, transformState: \List.rows,
      transformInput: { (input: ListInput) -> (Int, RowInput)? in
        if case .row(let id, let input) = input { (id, input) } else { nil }
      })
    let tool = TestDispatcher(rows, environment: RowWork(gate: Gate(), events: Recorder()))
    var list = List()
    list.rows.append(Row(title: "a"), id: 1)
    list.rows.append(Row(title: "b"), id: 2)
    tool.expect(.row(1, .toggle), from: list, forEach: \.rows, id: 1) { $0.done = true }
    tool.expect(
      .row(2, .fetch), from: list, forEach: \.rows, id: 2, { _ in },
      effects: [.task(id: "fetch")])
    tool.expect(.row(3, .toggle), from: list, child: \.rows, { _ in })
    withKnownIssue {
      // Exhaustive: the other row did not change.
      tool.expect(.row(1, .toggle), from: list, forEach: \.rows, id: 2) { $0.done = true }
    }
  }
}

#if canImport(Observation)
  @MainActor @Suite struct ObservableComponents {
    @Test func aChangeToOneRowInvalidatesOnlyItsReaders() async {
      let work = RowWork(gate: Gate(), events: Recorder())
      let model = ObservableComponent(makeList(1_000, work: work))
      let rows = model.list(\.rows)
      let changed = Recorder<Int>()
      for id in [10, 20, 30] {
        withObservationTracking {
          _ = rows.row(id).value
        } onChange: {
          changed.append(id)
        }
      }
      let idsChanged = Recorder<Bool>()
      withObservationTracking {
        _ = rows.ids
      } onChange: {
        idsChanged.append(true)
      }
      model.send(.row(20, .toggle))
      await model.settled()
      #expect(changed.all == [20])
      #expect(rows.row(20).value?.done == true)
      #expect(idsChanged.all.isEmpty)
      #expect(model.state.rows[id: 20]?.done == true)
    }

    @Test func observersOnTheMainActorSeeEveryChangeInOrder() async {
      let component = StoreComponent(
        initialState: 0, dispatcher: .pure { (step: Int) in .modify { $0 + step } },
        render: { count, _ in count })
      let seen = Recorder<Int>()
      let done = Gate()
      let observer: @MainActor @Sendable (Int) -> Void = { value in
        MainActor.assertIsolated()
        seen.append(value)
        if value == 3 { done.open() }
      }
      let subscription = component.subscribeOnMainActor(\.self, observer)
      component.send(1)
      component.send(0)  // no change: not delivered
      component.send(2)
      await done.wait()
      #expect(seen.all.first == 0)
      #expect(seen.all.last == 3)
      #expect(seen.all == seen.all.sorted())
      subscription.cancel()
    }
  }
#endif
