import MUE
import Synchronization
import Testing

/// A row with work of its own: `save` runs an effect that waits on a gate, then answers.
enum Row {
  struct State: Equatable, Sendable, SmartCopy {
    var title: String
    var saved: [String] = []
  }

  enum Event: Sendable, Equatable {
    case rename(String)
    case save
  }

  enum Effect: MUE.Effect, Equatable {
    case save(String)
    enum Result: Sendable, Equatable { case saved(String) }
    enum ID: Hashable, Sendable { case save }
    var id: ID? { .save }
  }

  struct Update: MUE.Update {
    func handle(event: Event, _ state: State) -> UpdateResult<State, Effect> {
      switch event {
      case .rename(let title): .newState(state: state.copy { $0.title = title })
      case .save: .dispatchEffect(state: state, effect: .save(state.title))
      }
    }

    func handle(result: Effect.Result, _ state: State) -> UpdateResult<State, Effect> {
      switch result {
      case .saved(let title): .newState(state: state.copy { $0.saved.append(title) })
      }
    }
  }

  struct Handler: EffectHandler {
    let gate: Gate
    let calls: Recorder<String>

    func handle(_ effect: Effect) async -> EffectResult<Effect.Result> {
      switch effect {
      case .save(let title):
        calls.append("save \(title)")
        await gate.wait()
        return .single(.saved(title))
      }
    }
  }
}

/// A list of rows, plus a counter of renames: the parent tells a sibling (the counter) about
/// what a row did, in the same event.
enum List {
  struct State: Equatable, Sendable, SmartCopy {
    var rows = IdentifiedList<Int, Row.State>()
    var renames = 0
  }

  enum Event: Sendable, Equatable {
    case add(Int, String)
    case remove(Int)
    case row(Int, Row.Event)
  }

  enum Effect: MUE.Effect, Equatable {
    case row(Int, Row.Effect)
    enum Result: Sendable, Equatable { case row(Int, Row.Effect.Result) }
    enum ID: Hashable, Sendable { case row(Int, Row.Effect.ID) }
    var id: ID? {
      switch self {
      case .row(let id, let effect): effect.id.map { .row(id, $0) }
      }
    }
  }

  struct Update: MUE.Update {
    func handle(event: Event, _ state: State) -> UpdateResult<State, Effect> {
      switch event {
      case .add(let id, let title):
        return .newState(state: state.copy { $0.rows.append(Row.State(title: title), id: id) })
      case .remove(let id):
        // The row's work goes with it.
        return .newState(state: state.copy { $0.rows.remove(id: id) }).cancelling(.row(id, .save))
      case .row(let id, let event):
        guard
          let result = Row.Update().handle(
            event: event, in: state, forEach: \.rows, id: id, effect: Effect.row, id: Effect.ID.row)
        else { return .noChange }
        guard case .rename = event else { return result }
        return result.then(from: state) { .newState(state: $0.copy { $0.renames += 1 }) }
      }
    }

    func handle(result: Effect.Result, _ state: State) -> UpdateResult<State, Effect> {
      switch result {
      case .row(let id, let result):
        Row.Update().handle(
          result: result, in: state, forEach: \.rows, id: id, effect: Effect.row,
          id: Effect.ID.row) ?? .noChange
      }
    }
  }

  struct Handler: EffectHandler {
    let row: Row.Handler

    func handle(_ effect: Effect) async -> EffectResult<Effect.Result> {
      switch effect {
      case .row(let id, let effect): await row.handle(effect).map { .row(id, $0) }
      }
    }
  }
}

@Suite struct CompositionBehaviour {
  let gate = Gate()
  let calls = Recorder<String>()

  func makeList() -> Loop<List.Update, List.Handler> {
    Loop(
      update: List.Update(),
      effectHandler: List.Handler(row: Row.Handler(gate: gate, calls: calls)),
      state: List.State())
  }

  @Test func aChildsEventChangesOnlyItsRowAndTellsTheParentInTheSameEvent() async {
    let loop = makeList()
    let states = Recorder<List.State>()
    loop.observe { states.append($0) }
    loop.start()
    loop.send(.add(1, "milk"))
    loop.send(.add(2, "bread"))
    loop.send(.row(2, .rename("rye")))
    await loop.idle()
    #expect(loop.state.rows[id: 1]?.title == "milk")
    #expect(loop.state.rows[id: 2]?.title == "rye")
    #expect(loop.state.renames == 1)
    // One observer call shows the rename and the count together.
    #expect(states.all.last?.renames == 1 && states.all.dropLast().last?.renames == 0)
  }

  @Test func eventsFromParentAndChildrenStayInArrivalOrder() async {
    let loop = makeList()
    loop.start()
    await onThreads(4) {
      for index in 0..<50 { loop.send(.add(index, "row \(index)")) }
    }
    for index in 0..<50 { loop.send(.row(index, .rename("renamed \(index)"))) }
    await loop.idle()
    #expect(loop.state.rows.count == 50)
    #expect(loop.state.renames == 50)
    #expect(loop.state.rows.values.allSatisfy { $0.title.hasPrefix("renamed") })
  }

  @Test func aRemovedRowsWorkIsCancelledAndItsLateResultDropped() async {
    let loop = makeList()
    loop.start()
    loop.send(.add(1, "milk"))
    loop.send(.row(1, .save))
    await eventually { gate.waiting == 1 }
    loop.send(.remove(1))
    loop.send(.add(1, "milk again"))  // the same id again: the old result must not land
    gate.open()
    await loop.idle()
    #expect(calls.all == ["save milk"])
    #expect(loop.state.rows[id: 1]?.saved == [])
  }

  @Test func anEventForARemovedRowChangesNothing() async {
    let loop = makeList()
    loop.start()
    loop.send(.add(1, "milk"))
    loop.send(.remove(1))
    loop.send(.row(1, .rename("ghost")))
    await loop.idle()
    #expect(loop.state.rows.isEmpty)
    #expect(loop.state.renames == 0)
  }

  @Test func stopStopsEveryChildsWork() async {
    let loop = makeList()
    loop.start()
    loop.send(.add(1, "milk"))
    loop.send(.add(2, "bread"))
    loop.send(.row(1, .save))
    loop.send(.row(2, .save))
    await eventually { gate.waiting == 2 }
    loop.stop()
    gate.open()
    await loop.idle()
    #expect(loop.state.rows[id: 1]?.saved == [] && loop.state.rows[id: 2]?.saved == [])
  }

  @Test func aReleasedLoopWithChildrenRunningIsFreed() async {
    weak var released: Loop<List.Update, List.Handler>?
    do {
      let loop = makeList()
      released = loop
      loop.start()
      loop.send(.add(1, "milk"))
      loop.send(.row(1, .save))
      await eventually { gate.waiting == 1 }
    }
    #expect(released == nil)
    gate.open()
  }

  @Test func oneRowOfTenThousandObservedCallsOnlyItsObserver() async {
    var rows = IdentifiedList<Int, Row.State>()
    for id in 0..<10_000 { rows.append(Row.State(title: "row \(id)"), id: id) }
    let start = List.State(rows: rows)
    let seeded = Loop(
      update: List.Update(),
      effectHandler: List.Handler(row: Row.Handler(gate: gate, calls: calls)),
      state: start)
    let calls = Mutex<[Int: Int]>([:])
    for id in stride(from: 0, to: 10_000, by: 500) {
      let row: @Sendable (List.State) -> Row.State? = { $0.rows[id: id] }
      seeded.observe(row) { _ in calls.withLock { $0[id, default: 0] += 1 } }
    }
    seeded.start()
    await seeded.idle()
    seeded.send(.row(500, .rename("changed")))
    await seeded.idle()
    let counts = calls.withLock { $0 }
    #expect(counts[500] == 2)  // the current value, then the change
    #expect(counts.filter { $0.key != 500 }.values.allSatisfy { $0 == 1 })
    #expect(counts.count == 20)
  }

  @Test func rowObserversOfOneListHearOnlyTheirRowsInTheOrderTheySubscribed() async {
    var rows = IdentifiedList<Int, Row.State>()
    for id in 0..<10_000 { rows.append(Row.State(title: "row \(id)"), id: id) }
    let loop = Loop(
      update: List.Update(),
      effectHandler: List.Handler(row: Row.Handler(gate: gate, calls: calls)),
      state: List.State(rows: rows))
    let reads = Recorder<Int>()
    let heard = Recorder<String>()
    var subscriptions: [Subscription] = []
    for id in [1_500, 500, 9_500] {
      let title: @Sendable (Row.State?) -> String = { row in
        reads.append(id)
        return row?.title ?? "gone"
      }
      subscriptions.append(loop.observe(\.rows, id: id, title) { heard.append("\(id): \($0)") })
    }
    loop.start()
    await loop.idle()
    #expect(heard.all == ["1500: row 1500", "500: row 500", "9500: row 9500"])

    // Only the changed row's transform runs: the others are looked up and compared.
    loop.send(.row(500, .rename("changed")))
    loop.send(.row(42, .rename("nobody watches")))
    await loop.idle()
    #expect(reads.all == [1_500, 500, 9_500, 500])
    loop.send(.remove(9_500))
    subscriptions[1].cancel()
    loop.send(.row(500, .rename("again")))
    await loop.idle()
    #expect(
      heard.all == [
        "1500: row 1500", "500: row 500", "9500: row 9500", "500: changed", "9500: gone",
      ])
  }

  @Test func aMappedStreamKeepsItsValuesInOrder() async {
    let stream = AsyncStream<Int> { continuation in
      for value in 1...3 { continuation.yield(value) }
      continuation.finish()
    }
    guard let mapped = EffectResult.repeating(stream).map({ $0 * 10 }).values else {
      Issue.record("a mapped stream is still a stream")
      return
    }
    var values: [Int] = []
    for await value in mapped { values.append(value) }
    #expect(values == [10, 20, 30])
  }

  @Test func aStreamMappedTwiceIsMappedInOrderAndEndsWithIt() async {
    let stream = AsyncStream<Int> { continuation in
      for value in 1...3 { continuation.yield(value) }
      continuation.finish()
    }
    let twice = EffectResult.repeating(stream).map { $0 + 1 }.map { "\($0)" }
    #expect(twice.value == nil)
    #expect(!twice.isEmpty)
    guard let mapped = twice.values else {
      Issue.record("a stream mapped twice is still a stream")
      return
    }
    var values: [String] = []
    for await value in mapped { values.append(value) }
    #expect(values == ["2", "3", "4"])
  }

  @Test func aSingleResultAndNoResultReadBack() {
    let single = EffectResult<Int>.single(4).map { $0 * 2 }
    #expect(single.value == 8)
    #expect(single.values == nil)
    #expect(!single.isEmpty)
    let none = EffectResult<Int>.empty.map { $0 * 2 }
    #expect(none.isEmpty)
    #expect(none.value == nil)
  }

  @Test func aChildsFirstIsTheParentsFirst() {
    struct Child: MUE.Update {
      func first(state: Int) -> First<Int, Row.Effect> {
        First(initialState: state + 1, initialEffect: .save("first"))
      }
      func handle(event: Never, _ state: Int) -> UpdateResult<Int, Row.Effect> {}
      func handle(result: Row.Effect.Result, _ state: Int) -> UpdateResult<Int, Row.Effect> {
        .noChange
      }
    }
    struct Parent: Equatable { var child = 1 }
    let first = Child().first(in: Parent(), at: \.child, effect: { List.Effect.row(7, $0) })
    #expect(first.initialState == Parent(child: 2))
    #expect(first.initialEffects == [.row(7, .save("first"))])
  }
}
