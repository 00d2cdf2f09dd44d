import Testing

@testable import LayerCore

/// Records what it processes; emits what `outputs` says for each input.
private struct Echo: ChildMachine {
  let seen: Recorder<String?>
  var queue: MachineQueue = .shared
  var outputs: @Sendable (String) -> [String] = { _ in [] }

  func process(input: String?, callback: Handler<String>) {
    seen.append(input)
    guard let input else { return }
    for output in outputs(input) { callback(output) }
  }
}

/// A core whose state is every event so far; its one layer gets the last one, or "" if that was
/// an output ("out:…"), so that outputs do not come back as inputs.
private struct Texts: Core {
  let machine: Machine<String, String>

  var layers: [Layer<[String], String>] {
    [.layer(machine, stateMapper: Texts.input, eventMapper: { $0 })]
  }

  static func input(_ state: [String]) -> String {
    guard let last = state.last, !last.lowercased().hasPrefix("out:") else { return "" }
    return last
  }

  func reduce(state: [String]?, event: String) -> ReducerResult<[String]> {
    .set((state ?? []) + [event])
  }
}

@Suite struct Operators {
  @Test func inwardFansAnInputOutIntoTheWardsValuesInOrder() async {
    let seen = Recorder<String?>()
    let machine = Echo(seen: seen, outputs: { _ in [] }).machine
      .inward { (text: String) in text == "skip" ? .set() : .set(text, text + "!") }
    let flow = Texts(machine: machine).start()
    flow.send("a")
    flow.send("skip")
    #expect(seen.all == [nil, "a", "a!"])
    #expect(flow.state == ["a", "skip"])
  }

  @Test func outwardMapsAndFiltersOutputs() async {
    let seen = Recorder<String?>()
    let machine = Echo(
      seen: seen, outputs: { $0.isEmpty ? [] : ["out:\($0)", "out:\($0)x"] }
    ).machine
      .outward { (text: String) in text.hasSuffix("x") ? .set() : .set(text.uppercased()) }
    let flow = Texts(machine: machine).start()
    flow.send("go")
    #expect(flow.state == ["go", "OUT:GO"])
    #expect(seen.all == [nil, "go", ""])
  }

  @Test func redirectSendsBackThroughTheQueueNeverNested() async {
    let seen = Recorder<String?>()
    let machine = Echo(
      seen: seen,
      outputs: { $0.isEmpty ? [] : $0.count < 4 ? [$0 + "+"] : ["out:done"] }
    ).machine
      .redirect { (output: String) in output.hasPrefix("out:") ? .prop : .back(output) }
    let flow = Texts(machine: machine).start()
    flow.send("a")
    await flow.idle()
    #expect(seen.all == [nil, "a", "a+", "a++", "a+++", ""])
    #expect(flow.state == ["a", "out:done"])
  }

  @Test func mergeSendsEveryInputToEveryMachineInOrder() async {
    let first = Recorder<String?>()
    let second = Recorder<String?>()
    let machine = Machine.merge(
      Echo(seen: first, outputs: { _ in [] }).machine,
      Echo(seen: second, outputs: { _ in [] }).machine)
    let flow = Texts(machine: machine).start()
    flow.send("a")
    flow.send("b")
    #expect(first.all == [nil, "a", "b"])
    #expect(second.all == [nil, "a", "b"])
  }

  @Test func aMachineOnItsOwnQueueProcessesInOrderAndIdleWaitsForIt() async {
    let seen = Recorder<String?>()
    let machine = Echo(seen: seen, queue: .new, outputs: { _ in [] }).machine
    let flow = Texts(machine: machine).start()
    for text in ["a", "b", "c"] { flow.send(text) }
    await flow.idle()
    #expect(seen.all == [nil, "a", "b", "c"])
  }

  @Test func aParentMachineRunsItsChild() async {
    struct Parent: ParentMachine {
      let seen: Recorder<String?>
      var child: Machine<String, String> { ~Echo(seen: seen, outputs: { _ in [] }) }
    }
    let seen = Recorder<String?>()
    let flow = Texts(machine: ~Parent(seen: seen)).start()
    flow.send("a")
    #expect(seen.all == [nil, "a"])
  }
}

/// A core whose machines are composed with the operators called on the machines themselves.
struct ComposedCore: Core {
  let view: ViewMachine

  var layers: [Layer<Counter, Event>] {
    [
      .layer(
        view.inward { (count: Int) in .set(count * 2) }, stateMapper: { $0.count },
        eventMapper: { $0 }),
      .producer(StorageMachine(value: 3).outward { .set($0 + 1) }, mapper: { .loaded($0) }),
    ]
  }

  func reduce(state: Counter?, event: Event) -> ReducerResult<Counter> {
    switch event {
    case .loaded(let count): .set(Counter(count: count))
    case .increment: state.map { .set(Counter(count: $0.count + 1)) } ?? .skip
    default: .skip
    }
  }
}

/// Sends `increment` through its handler as a plain closure, once, when first processed.
struct ClosureMachine: ChildMachine {
  func process(input: Int?, callback: Handler<Event>) {
    guard input == nil else { return }
    let send: Mapper<Event, Void> = callback.closure
    send(.increment)
  }
}

@Suite struct MachineOperators {
  @Test func childMachinesTakeInwardAndOutwardThemselves() async {
    let view = ViewMachine()
    let flow = ComposedCore(view: view).start()
    await flow.idle()
    #expect(flow.state?.count == 4)  // the storage's 3, plus one on the way out
    #expect(view.renders.all == [nil, 8])  // 4, doubled on the way in
  }

  @Test func aHandlerIsAPlainClosure() async {
    struct Core: LayerCore.Core {
      var layers: [Layer<Counter, Event>] {
        [
          .producer(StorageMachine(value: 1).machine, mapper: { .loaded($0) }),
          .layer(ClosureMachine().machine, stateMapper: { $0.count }, eventMapper: { $0 }),
        ]
      }
      func reduce(state: Counter?, event: Event) -> ReducerResult<Counter> {
        ComposedCore(view: ViewMachine()).reduce(state: state, event: event)
      }
    }
    let flow = Core().start()
    await flow.idle()
    #expect(flow.state?.count == 2)  // loaded 1, then the closure's increment
  }
}
