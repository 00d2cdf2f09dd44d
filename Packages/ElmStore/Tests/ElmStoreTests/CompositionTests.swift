import ElmStore
import Testing

/// A child feature: a count and a job that reports back.
enum Child {
  struct State: Equatable, Sendable {
    var count = 0
    var reports: [String] = []
  }

  enum Action: Equatable, Sendable {
    case increment
    case startJob
    case report(String)
    case startTimer
  }

  static func update(_ state: inout State, _ action: Action) {
    switch action {
    case .increment: state.count += 1
    case .report(let text): state.reports.append(text)
    case .startJob, .startTimer: break
    }
  }

  /// `startJob` waits on `gate`, then reports `done`; `startTimer` runs until cancelled.
  static func effect(gate: Gate, started: Recorder<String>, cancelled: Recorder<String>)
    -> Effect<State, Action>
  {
    Effect { _, action, dispatch in
      switch action {
      case .startJob:
        dispatch.run(id: "job") { send in
          started.append("job")
          await gate.wait()
          send(.report("done"))
        }
      case .startTimer:
        dispatch.run(id: "timer", lifetime: .untilCancelled) { _ in
          started.append("timer")
          await withTaskCancellationHandler {
            for await _ in AsyncStream<Void>.never {}
          } onCancel: {
            cancelled.append("timer")
          }
        }
      default: break
      }
    }
  }
}

/// A parent holding one child, a list of children, and a log of its own.
enum Parent {
  struct State: Equatable, Sendable {
    var single = Child.State()
    var rows = IdentifiedList<Int, Child.State>()
    var log: [String] = []
  }

  enum Action: Equatable, Sendable {
    case single(Child.Action)
    case row(Int, Child.Action)
    case add(Int)
    case remove(Int)
    case note(String)
  }

  static let single = ActionPath<Action, Child.Action>(
    embed: Action.single, extract: { if case .single(let action) = $0 { action } else { nil } })
  static let row = ActionPath<Action, (id: Int, action: Child.Action)>(
    embed: { .row($0.id, $0.action) },
    extract: { if case .row(let id, let action) = $0 { (id, action) } else { nil } })

  static let update: Update<State, Action> = combine(
    lift(Child.update, state: \.single, action: single),
    lift(Child.update, forEach: \.rows, action: row),
    { state, action in
      switch action {
      case .add(let id): state.rows.append(Child.State(), id: id)
      case .remove(let id): state.rows.remove(id: id)
      case .note(let text): state.log.append(text)
      default: break
      }
    })

  static func effect(_ child: Effect<Child.State, Child.Action>) -> Effect<State, Action> {
    Effect {
      child.lifted(state: \State.single, action: single)
      child.lifted(forEach: \State.rows, action: row)
    }
  }
}

@Suite struct Composition {
  let gate = Gate()
  let started = Recorder<String>()
  let cancelled = Recorder<String>()

  func makeStore() -> Store<Parent.State, Parent.Action> {
    Store(
      state: Parent.State(), update: Parent.update,
      effect: Parent.effect(Child.effect(gate: gate, started: started, cancelled: cancelled)))
  }

  @Test func aLiftedUpdateChangesOnlyItsChild() {
    let store = makeStore()
    store.dispatch(.add(1))
    store.dispatch(.add(2))
    store.dispatch(.single(.increment))
    store.dispatch(.row(2, .increment))
    store.dispatch(.row(9, .increment))  // an unknown row: ignored
    #expect(store.state.single.count == 1)
    #expect(store.state.rows[id: 1]?.count == 0)
    #expect(store.state.rows[id: 2]?.count == 1)
    #expect(store.state.rows.ids == [1, 2])
  }

  @Test func aChildsEffectReportsIntoItsOwnRowThroughTheRootQueue() async {
    let store = makeStore()
    store.dispatch(.add(1))
    store.dispatch(.add(2))
    store.dispatch(.row(1, .startJob))
    store.dispatch(.row(2, .startJob))
    await eventually { started.all.count == 2 }
    gate.open()
    await store.idle()
    #expect(store.state.rows[id: 1]?.reports == ["done"])
    #expect(store.state.rows[id: 2]?.reports == ["done"])
    #expect(store.state.single.reports == [])
  }

  @Test func twoChildrenWithTheSameRunIdDoNotSupersedeEachOther() async {
    let store = makeStore()
    store.dispatch(.add(1))
    store.dispatch(.single(.startJob))
    store.dispatch(.row(1, .startJob))
    await eventually { started.all.count == 2 }
    gate.open()
    await store.idle()
    #expect(store.state.single.reports == ["done"])
    #expect(store.state.rows[id: 1]?.reports == ["done"])
  }

  @Test func aRemovedRowsWorkIsCancelledAndItsLateResultDropped() async {
    let store = makeStore()
    store.dispatch(.add(1))
    store.dispatch(.row(1, .startTimer))
    store.dispatch(.row(1, .startJob))
    await eventually { started.all.count == 2 }
    store.dispatch(.remove(1))
    await eventually { cancelled.all == ["timer"] }
    // The job ignores cancellation and reports anyway: the report is dropped, and a row added
    // again under the same id does not receive it.
    store.dispatch(.add(1))
    gate.open()
    await store.idle()
    #expect(store.state.rows[id: 1]?.reports == [])
  }

  @Test func aRowRemovedByAnyActionHasItsWorkCancelled() async {
    let store = makeStore()
    store.dispatch(.add(1))
    store.dispatch(.add(2))
    store.dispatch(.row(1, .startTimer))
    store.dispatch(.row(2, .startTimer))
    await eventually { started.all.count == 2 }
    store.dispatch(.remove(2))  // not a row action: the lifted effect still notices
    store.dispatch(.note("after"))
    await eventually { cancelled.all.count == 1 }
    #expect(cancelled.all == ["timer"])
    store.stop()
    await eventually { cancelled.all.count == 2 }
  }

  @Test func stopStopsEveryChild() async {
    let store = makeStore()
    store.dispatch(.add(1))
    store.dispatch(.single(.startTimer))
    store.dispatch(.row(1, .startTimer))
    store.dispatch(.row(1, .startJob))
    await eventually { started.all.count == 3 }
    store.stop()
    await eventually { cancelled.all.count == 2 }
    gate.open()
    await store.idle()
    #expect(store.state.rows[id: 1]?.reports == [])
  }

  @Test func actionsFromChildrenAndTheParentStayInArrivalOrder() async {
    let order = Recorder<String>()
    let effect = Effect<Child.State, Child.Action> { _, action, dispatch in
      if action == .increment { dispatch(.report("from child")) }
    }
    let store = Store(
      state: Parent.State(), update: Parent.update,
      effect: Effect {
        Parent.effect(effect)
        Effect { _, action, dispatch in
          order.append("\(action)")
          if action == .single(.increment) { dispatch(.note("from parent")) }
        }
      })
    store.dispatch(.single(.increment))
    #expect(
      order.all == [
        "single(ElmStoreTests.Child.Action.increment)",
        "single(ElmStoreTests.Child.Action.report(\"from child\"))", "note(\"from parent\")",
      ])
  }

  @Test func aReleasedStoreWithRunningChildrenIsFreed() async {
    weak var weakStore: Store<Parent.State, Parent.Action>?
    do {
      let store = makeStore()
      weakStore = store
      store.dispatch(.add(1))
      store.dispatch(.row(1, .startTimer))
      store.dispatch(.single(.startTimer))
      await eventually { started.all.count == 2 }
    }
    #expect(weakStore == nil)
    await eventually { cancelled.all.count == 2 }
  }

  @Test func aScopedStoreReadsAndDispatchesThroughTheRoot() {
    let store = makeStore()
    let single = store.scope(state: \.single, action: Parent.Action.single)
    single.dispatch(.increment)
    #expect(single.state.count == 1)
    #expect(store.state.single.count == 1)
  }

  @Test func aScopedObserverIsCalledOnlyForItsChildsChanges() {
    let store = makeStore()
    store.dispatch(.add(1))
    store.dispatch(.add(2))
    let seen = Recorder<Int?>()
    let count: @Sendable (Child.State?) -> Int? = { $0?.count }
    store.scope(forEach: \.rows, id: 1, action: Parent.Action.row).subscribe(count) {
      seen.append($0)
    }
    store.dispatch(.row(2, .increment))
    store.dispatch(.single(.increment))
    store.dispatch(.row(1, .increment))
    store.dispatch(.remove(1))
    store.dispatch(.row(2, .increment))
    #expect(seen.all == [0, 1, nil])
  }

  @Test func aRowsScopeAfterRemovalSendsNothingThatLands() {
    let store = makeStore()
    store.dispatch(.add(1))
    let row = store.scope(forEach: \.rows, id: 1, action: Parent.Action.row)
    store.dispatch(.remove(1))
    row.dispatch(.increment)
    #expect(row.state == nil)
    #expect(store.state.rows.isEmpty)
  }

  @Test func aMappedDispatchEmbedsActions() {
    let received = Recorder<Parent.Action>()
    let dispatch = Dispatch<Parent.Action> { received.append($0) }
    let child: Dispatch<Child.Action> = dispatch.map(Parent.Action.single)
    child(.increment)
    #expect(received.all == [.single(.increment)])
  }

  @Test func aClosureDispatchRunsWorkAndCancelsIt() async {
    let received = Recorder<Child.Action>()
    let dispatch = Dispatch<Child.Action> { received.append($0) }
    Child.effect(gate: gate, started: started, cancelled: cancelled).run(
      state: Child.State(), action: .startTimer, dispatch: dispatch)
    await eventually { started.all == ["timer"] }
    dispatch.cancel(id: "timer")
    await eventually { cancelled.all == ["timer"] }
  }

  @Test func anIdentifiedListKeepsOrderAndFindsById() {
    var list = IdentifiedList<String, Int>()
    list.append(1, id: "a")
    list.append(2, id: "b")
    #expect(list.append(3, id: "a") == false)
    list[id: "c"] = 3
    list[id: "a"] = nil
    list.updateAll { $0 *= 10 }
    #expect(list.ids == ["b", "c"])
    #expect(list.values == [20, 30])
    list.removeAll { $0 > 25 }
    #expect(list.values == [20])
  }
}

@Suite struct ScopedObservationCost {
  @Test func aChangeToOneRowOfTenThousandReadsOnlyTheObservedRows() {
    var state = Parent.State()
    for id in 1...10_000 { state.rows.append(Child.State(), id: id) }
    let store = Store(state: state, update: Parent.update)
    let reads = Recorder<Int>()
    let views = Recorder<Int>()
    for id in stride(from: 1, through: 10_000, by: 500) {
      let count: @Sendable (Child.State?) -> Int? = { row in
        reads.append(id)
        return row?.count
      }
      store.scope(forEach: \.rows, id: id, action: Parent.Action.row).subscribe(count) { _ in
        views.append(id)
      }
    }
    #expect(reads.all.count == 20)
    #expect(views.all.count == 20)

    store.dispatch(.row(501, .increment))

    // The observers share one subscription to the list, which compares each observed row with
    // the one its observer last saw: only the observer of the row that changed reads it.
    #expect(reads.all == Array(stride(from: 1, through: 10_000, by: 500)) + [501])
    #expect(views.all == Array(stride(from: 1, through: 10_000, by: 500)) + [501])
  }

  @Test func rowObserversHearOfChangesRemovalAndManyChangesInTheOrderTheySubscribed() {
    var state = Parent.State()
    for id in 1...100 { state.rows.append(Child.State(), id: id) }
    let store = Store(state: state, update: Parent.update)
    let heard = Recorder<String>()
    for id in [30, 10, 20] {
      store.scope(forEach: \.rows, id: id, action: Parent.Action.row).subscribe(\.?.count) {
        heard.append("\(id):\($0.map(String.init) ?? "gone")")
      }
    }
    #expect(heard.all == ["30:0", "10:0", "20:0"])

    store.dispatch(.row(20, .increment))
    store.dispatch(.row(50, .increment))  // nobody watches row 50
    store.dispatch(.remove(10))
    #expect(heard.all == ["30:0", "10:0", "20:0", "20:1", "10:gone"])

    // Removing rows nobody observes (enough to lay the list out again) tells nobody.
    heard.removeAll()
    for id in 40...100 { store.dispatch(.remove(id)) }
    store.dispatch(.row(20, .increment))
    store.dispatch(.add(10))
    #expect(heard.all == ["20:2", "10:0"])
  }

  @Test func aRowObserverJoinsInQueueOrderAndStopsWhenCancelled() {
    let store = Store(state: Parent.State(), update: Parent.update)
    let heard = Recorder<String>()
    // Subscribed from inside an observer, while the store is handling an action: the new row
    // observer joins after that action, with the row as it then is.
    let inner = Recorder<Subscription>()
    store.subscribe(\.rows.count) { count in
      guard count == 1, inner.all.isEmpty else { return }
      inner.append(
        store.scope(forEach: \.rows, id: 1, action: Parent.Action.row).subscribe(\.?.count) {
          heard.append("1:\($0.map(String.init) ?? "gone")")
        })
    }
    store.dispatch(.add(1))
    store.dispatch(.row(1, .increment))
    #expect(heard.all == ["1:0", "1:1"])
    inner.all.first?.cancel()
    store.dispatch(.row(1, .increment))
    #expect(heard.all == ["1:0", "1:1"])
  }
}
