import Testing

@testable import IOLoop

/// What the parent app itself is told: an intent for its embedded child or one of its rows,
/// and rows added and removed.
enum ParentIO: IOType {
  enum Input: Sendable, Equatable {
    case child(Intent)
    case row(Int, Intent)
    case add(Int)
    case remove(Int)
  }
}

/// A parent embedding one ``Tally`` program and a list of them, and telling a row's sibling
/// (row 2) about every echo row 1 gets, in the same step.
struct Parent: PureApp, Equatable {
  typealias Rows = ProgramsIO<Int, Tally>
  typealias Input = IOInput<ParentIO, ProgramIO<Tally>, Rows>
  typealias Outputs = IOOutputs<ParentIO, ProgramIO<Tally>, Rows>

  var child = Tally()
  var rows = IdentifiedList<Int, Tally>()

  static func start() -> (Parent, Outputs) { (Parent(), .none) }

  func run(input: Input) -> (Parent, Outputs) {
    var next = self
    switch input.values {
    case (.child(let intent)?, _, _):
      let (next, child) = run(\.child, Tally.Input(intent, nil))
      return (next, Outputs([], child, []))
    case (.row(let id, let intent)?, _, _):
      guard let outputs = next.rows.run(Tally.Input(intent, nil), id: id) else {
        return (self, .none)
      }
      return (next, Outputs([], [], outputs))
    case (.add(let id)?, _, _):
      next.rows.append(Tally(), id: id)
      return (next, .none)
    case (.remove(let id)?, _, _):
      next.rows.remove(id: id)
      return (next, Outputs([], [], [.removed(id)]))
    case (nil, let childInput?, _):
      let (next, child) = run(\.child, childInput)
      return (next, Outputs([], child, []))
    case (nil, nil, let rowInput?):
      guard var outputs = next.rows.run(rowInput.input, id: rowInput.id) else {
        return (self, .none)
      }
      // A row telling its sibling: row 1's echo also counts in row 2, in this step.
      if rowInput.id == 1, case (nil, .echoed?) = rowInput.input.values {
        outputs += next.rows.run(Tally.Input(.incrementQuietly, nil), id: 2) ?? []
      }
      return (next, Outputs([], [], outputs))
    default:
      return (self, .none)
    }
  }
}

typealias ParentMain = Main<
  Parent, InputOnlyHandler<ParentIO>, ProgramHandler<Tally, ViewHandler, WorkHandler>,
  ProgramsHandler<Int, Tally, ViewHandler, WorkHandler>
>

func makeParent(calls: Recorder<String>, gate: Gate = Gate()) -> ParentMain {
  Main(
    app: Parent.self, handlers: InputOnlyHandler(),
    ProgramHandler(
      Tally.self, handlers: ViewHandler(calls: calls), WorkHandler(calls: calls, gate: gate)),
    ProgramsHandler(
      Tally.self, id: Int.self, handlers: ViewHandler(calls: calls),
      WorkHandler(calls: calls, gate: gate)))
}

@Suite struct NestedPrograms {
  @Test func aNestedChildsHandlersAnswerTheChild() async {
    let calls = Recorder<String>()
    let main = makeParent(calls: calls)
    main.start()
    main.send(Parent.Input(.child(.echoBoth(1, 2)), nil, nil))
    main.send(Parent.Input(.child(.fail), nil, nil))
    await main.idle()
    #expect(main.state.child.results == [1, 2])
    #expect(main.state.child.failure == "disk full")
    #expect(calls.all == ["render(0)", "echo(1)", "echo(2)", "fail"])
  }

  // R2: a child's inputs queue behind the parent's, one step at a time, in arrival order.
  @Test func inputsOfParentAndChildrenAreHandledInArrivalOrder() async {
    let calls = Recorder<String>()
    let main = makeParent(calls: calls)
    main.start()
    for id in 1...2 { main.send(Parent.Input(.add(id), nil, nil)) }
    // Row 1's echoes come back from its handler while the step that asked is handled: they
    // wait behind it and behind the parent's next intent, sent from inside the handler.
    main.send(Parent.Input(.row(1, .echoBoth(1, 2)), nil, nil))
    main.send(Parent.Input(.row(1, .increment), nil, nil))
    await main.idle()
    #expect(main.state.rows[id: 1]?.results == [1, 2])
    #expect(main.state.rows[id: 1]?.count == 1)
    #expect(calls.all == ["render(0)", "echo(1)", "echo(2)", "render(1)"])
  }

  // H4-style: a row's input that the parent turns into a change of its sibling, in one step.
  @Test func aRowTellsItsSiblingThroughTheParentInTheSameStep() async {
    let main = makeParent(calls: Recorder())
    let steps = Recorder<[Int]>()
    let both: @Sendable (Parent) -> [Int] = {
      [$0.rows[id: 1]?.results.count ?? -1, $0.rows[id: 2]?.count ?? -1]
    }
    main.observe(both, steps.append)
    main.start()
    for id in 1...2 { main.send(Parent.Input(.add(id), nil, nil)) }
    main.send(Parent.Input(.row(1, .echoBoth(7, 8)), nil, nil))
    await main.idle()
    // Never a state where row 1 has its echo and row 2 not yet its count.
    #expect(steps.all == [[-1, -1], [0, -1], [0, 0], [1, 1], [2, 2]])
  }

  // R5: removing a child cancels its work; what the work sends afterwards is dropped.
  @Test func aRemovedChildsWorkIsCancelledAndItsLateResultDropped() async {
    let calls = Recorder<String>()
    let gate = Gate()
    let main = makeParent(calls: calls, gate: gate)
    main.start()
    for id in 1...2 { main.send(Parent.Input(.add(id), nil, nil)) }
    main.send(Parent.Input(.row(1, .wait(10)), nil, nil))
    main.send(Parent.Input(.row(2, .wait(20)), nil, nil))
    await eventually { gate.waiting == 2 }
    main.send(Parent.Input(.remove(1), nil, nil))
    #expect(calls.all.contains("cancelled 10"))
    #expect(!calls.all.contains("cancelled 20"))
    // Row 1 comes back under the same id: the old work's answer must not reach the new row.
    main.send(Parent.Input(.add(1), nil, nil))
    gate.open()
    await main.idle()
    #expect(main.state.rows[id: 1]?.results == [])
    #expect(main.state.rows[id: 2]?.results == [20])
  }

  // Work with the same id in two rows, or in a row and the embedded child, never meets.
  @Test func childrenKeepTheirWorkApart() async {
    let calls = Recorder<String>()
    let gate = Gate()
    let main = makeParent(calls: calls, gate: gate)
    main.start()
    for id in 1...2 { main.send(Parent.Input(.add(id), nil, nil)) }
    main.send(Parent.Input(.row(1, .wait(1)), nil, nil))
    main.send(Parent.Input(.row(2, .wait(2)), nil, nil))
    main.send(Parent.Input(.child(.wait(3)), nil, nil))
    await eventually { gate.waiting == 3 }
    main.send(Parent.Input(.row(2, .cancelWait), nil, nil))
    gate.open()
    await main.idle()
    #expect(calls.all.filter { $0.hasPrefix("cancelled") } == ["cancelled 2"])
    #expect(main.state.rows[id: 1]?.results == [1])
    #expect(main.state.rows[id: 2]?.results == [])
    #expect(main.state.child.results == [3])
  }

  // R6: stop stops every child's work, and nothing they send lands.
  @Test func stopStopsEveryChild() async {
    let calls = Recorder<String>()
    let gate = Gate()
    let main = makeParent(calls: calls, gate: gate)
    main.start()
    main.send(Parent.Input(.add(1), nil, nil))
    main.send(Parent.Input(.row(1, .wait(1)), nil, nil))
    main.send(Parent.Input(.child(.wait(2)), nil, nil))
    await eventually { gate.waiting == 2 }
    main.stop()
    #expect(Set(calls.all.filter { $0.hasPrefix("cancelled") }) == ["cancelled 1", "cancelled 2"])
    gate.open()
    await main.idle()
    #expect(main.state.rows[id: 1]?.results == [])
    #expect(main.state.child.results == [])
  }

  // No retain cycle: children's running work does not keep the program alive.
  @Test func aReleasedParentWithChildrenRunningIsFreed() async {
    weak var weakMain: ParentMain?
    let gate = Gate()
    do {
      let main = makeParent(calls: Recorder(), gate: gate)
      weakMain = main
      main.start()
      main.send(Parent.Input(.add(1), nil, nil))
      main.send(Parent.Input(.row(1, .wait(1)), nil, nil))
      main.send(Parent.Input(.child(.wait(2)), nil, nil))
      await eventually { gate.waiting == 2 }
    }
    await eventually { weakMain == nil }
    #expect(weakMain == nil)
    gate.open()
  }

  // A scoped observer is called only for its child's changes.
  @Test func aRowObserverIsCalledOnlyForItsRow() async {
    let main = makeParent(calls: Recorder())
    let seen = Recorder<Int?>()
    main.observe(\.rows[id: 2]?.count, seen.append)
    main.start()
    for id in 1...3 { main.send(Parent.Input(.add(id), nil, nil)) }
    for id in [1, 3, 1, 2, 3] { main.send(Parent.Input(.row(id, .increment), nil, nil)) }
    main.send(Parent.Input(.remove(2), nil, nil))
    main.send(Parent.Input(.row(1, .increment), nil, nil))
    await main.idle()
    #expect(seen.all == [nil, 0, 1, nil])
  }

  // Row observers of one list share one subscriber: only a changed row's transform runs.
  @Test func rowObserversOfOneListTransformOnlyTheRowsThatChanged() async {
    let main = makeParent(calls: Recorder())
    let reads = Recorder<Int>()
    let seen = Recorder<String>()
    var subscriptions: [Subscription] = []
    for id in [3, 1, 2] {
      let count: @Sendable (Tally?) -> Int? = { row in
        reads.append(id)
        return row?.count
      }
      subscriptions.append(
        main.observe(\.rows, id: id, count) { seen.append("\(id): \($0.map(String.init) ?? "-")") })
    }
    main.start()
    for id in 1...4 { main.send(Parent.Input(.add(id), nil, nil)) }
    await main.idle()
    #expect(seen.all == ["3: -", "1: -", "2: -", "1: 0", "2: 0", "3: 0"])
    reads.removeAll()
    seen.removeAll()
    for id in [1, 4, 4] { main.send(Parent.Input(.row(id, .increment), nil, nil)) }
    main.send(Parent.Input(.remove(2), nil, nil))
    subscriptions[0].cancel()
    main.send(Parent.Input(.row(3, .increment), nil, nil))
    await main.idle()
    #expect(reads.all == [1, 2])
    #expect(seen.all == ["1: 1", "2: -"])
  }
}

/// An IO type whose handler keeps its senders for later.
enum ClipboardIO: IOType {
  enum Output: Sendable { case listen }
  typealias Input = Int
}

/// Keeps `context.sender` (and SimpleFunctional's `inputClosure`) to call them later.
struct ClipboardHandler: IOHandler {
  typealias IO = ClipboardIO
  let kept = Lock<[IOInputSender<ClipboardIO>]>([])

  func handle(_ output: ClipboardIO.Output, context: IOContext<ClipboardIO>) {
    kept.withLock { $0.append(context.sender) }
  }
}

/// Counts what the clipboard pasted.
struct Pasted: PureApp, Equatable {
  typealias Input = IOInput<ClipboardIO>
  typealias Outputs = IOOutputs<ClipboardIO>
  var total = 0

  static func start() -> (Pasted, Outputs) { (Pasted(), Outputs([.listen])) }

  func run(input: Input) -> (Pasted, Outputs) {
    guard let value: Int = input.values else { return (self, .none) }
    return (Pasted(total: total + value), .none)
  }
}

@Suite struct StoredSenders {
  @Test func aKeptSenderDeliversFromAnyThreadAndCountsWhatItCannot() async {
    let handler = ClipboardHandler()
    weak var weakMain: Main<Pasted, ClipboardHandler>?
    var sender: IOInputSender<ClipboardIO>?
    do {
      let main = Main(app: Pasted.self, handlers: handler)
      weakMain = main
      main.start()
      sender = handler.kept.withLock { $0.first }
      guard let sender else { return #expect(Bool(false), "the handler kept no sender") }
      await onThreads(4) { for _ in 0..<250 { sender(1) } }
      await main.idle()
      #expect(main.state.total == 1_000)
      #expect(sender.droppedCount == 0)
      main.stop()
      #expect(sender(1) == .dropped)
    }
    // The kept sender does not keep the program alive.
    await eventually { weakMain == nil }
    #expect(weakMain == nil)
    #expect(sender?(1) == .dropped)
    #expect(sender?.droppedCount == 2)
    #expect(sender?.isConnected == false)
  }

  @Test func aContextSendAfterItsProgramIsGoneIsReportedNotKeptAlive() async {
    let kept = Lock<IOContext<ClipboardIO>?>(nil)
    struct Keeper: IOHandler {
      typealias IO = ClipboardIO
      let kept: Lock<IOContext<ClipboardIO>?>
      func handle(_ output: ClipboardIO.Output, context: IOContext<ClipboardIO>) {
        kept.withLock { $0 = context }
      }
    }
    weak var weakMain: Main<Pasted, Keeper>?
    do {
      let main = Main(app: Pasted.self, handlers: Keeper(kept: kept))
      weakMain = main
      main.start()
      #expect(kept.withLock { $0 }?.send(5) == .queued)
      #expect(main.state.total == 5)
    }
    await eventually { weakMain == nil }
    #expect(kept.withLock { $0 }?.send(5) == .dropped)
  }

  @Test func aMappedContextSendsTheParentsInput() async {
    struct Doubling: IOHandler {
      typealias IO = ClipboardIO
      func handle(_ output: ClipboardIO.Output, context: IOContext<ClipboardIO>) {
        // A child IO type whose input is a string, lent this context through `map`.
        let child: IOContext<TextIO> = context.map { Int($0) ?? 0 }
        child.send("21")
        child.send("21")
      }
    }
    let main = Main(app: Pasted.self, handlers: Doubling())
    main.start()
    await main.idle()
    #expect(main.state.total == 42)
  }
}

enum TextIO: IOType {
  typealias Input = String
}

/// A row program with one IO type: adds what it is told and says the new total.
struct Adder: PureApp, Equatable {
  enum IO: IOType {
    typealias Input = Int
    typealias Output = Int
  }
  typealias Input = IOInput<IO>
  typealias Outputs = IOOutputs<IO>

  var total = 0

  static func start() -> (Adder, Outputs) { (Adder(), .none) }

  func run(input: Input) -> (Adder, Outputs) {
    guard let amount: Int = input.values else { return (self, .none) }
    let next = Adder(total: total + amount)
    return (next, Outputs([next.total]))
  }
}

@Suite struct RowsOfOneIOType {
  @Test func aRowOfOneIOTypeRunsOnItsInputAsItIs() {
    var rows = IdentifiedList<Int, Adder>()
    rows.append(Adder(), id: 1)
    var wrapped = rows
    let outputs = rows.run(5, id: 1)
    let wrappedOutputs = wrapped.run(IOInput(5), id: 1)
    #expect(rows[id: 1]?.total == 5)
    #expect(rows == wrapped)
    #expect(outputs?.count == 1)
    #expect(String(describing: outputs) == String(describing: wrappedOutputs))
    #expect(rows.run(3, id: 2) == nil)  // no row 2: dropped
    #expect(rows[id: 1]?.total == 5)
  }
}
