import LayerCore

/// A core under test: runs its real layers (with fakes injected into their machines) on an
/// executor of its own, and records, for every event the reducer handled, the state it led to,
/// what each layer's machine received and what each layer emitted.
///
/// ```swift
/// @Test func loadsThenSaves() async {
///   let storage = FakeStorage(stored: 4)
///   let harness = CoreHarness(App(storage: storage))
///   await harness.start()
///   harness.expect(events: [.storage(4)], state: AppState(4))
///   await harness.send(.click)
///   harness.expect(layer: 1, received: [StorageLayerState(5)])
/// }
/// ```
///
/// ``start()``, ``send(_:)`` and ``settle()`` return once the flow has handled everything queued
/// and every machine's work has finished or waits on something outside the flow (a clock, a
/// fake service), so nothing sleeps. Layers are named by their index in `Core.layers`.
public final class CoreHarness<C: Core>: Sendable {
  /// What happened for one event: the reducer's answer and what the layers did with it.
  public struct Step: Sendable {
    /// The event; `nil` for the start, when every machine got its first `process(nil)`.
    public var event: C.Event?
    /// The state the reducer set, or `nil` if it skipped (or for the start).
    public var state: C.State?
    /// Per layer, in layer order: the inputs its machine got for this step.
    public var received: [[any Sendable]]
    /// Per layer, in layer order: the events it emitted during this step (until the next
    /// event is reduced).
    public var emitted: [[C.Event]]
    /// What happened to the children of the layers that have them (a presented layer's
    /// presentations, a `forEach` layer's rows) during this step, for each child that was
    /// presented, got an input, emitted or was dismissed.
    public var children: [LayerChild: ChildStep] = [:]
    /// The state before the event (the last one set, `nil` before any).
    var before: C.State? = nil
  }

  /// What happened to one child of a layer during one step.
  public struct ChildStep: Sendable {
    /// Whether the child's machine was made in this step.
    public var presented = false
    /// The inputs its machine got.
    public var received: [any Sendable] = []
    /// What its machine sent, in the child's own output type (before the layer made events
    /// of it).
    public var emitted: [any Sendable] = []
    /// Whether the child was dismissed in this step: its machine dropped, its work cancelled.
    public var dismissed = false
  }

  /// The flow under test.
  public let flow: Flow<Recording<C>>
  private let executor: TestExecutor
  let record: Record
  private let layerCount: Int
  /// Where each layer comes from, when it is a mounted child's.
  private let mounts: [LayerMount?]

  /// A harness around `core`, not started.
  public init(_ core: C) {
    let executor = TestExecutor.acquire()
    let layers = core.layers
    let layerCount = layers.count
    mounts = layers.map(\.mount)
    let record = Record(layers: layerCount, state: core.initialState)
    self.executor = executor
    self.record = record
    self.layerCount = layerCount
    let children = ChildMonitor(
      presented: { layer, id, machines in
        record.child(LayerChild(layer: layer, id: id), presented: machines)
      },
      received: { layer, id, input in
        record.child(LayerChild(layer: layer, id: id), received: input)
      },
      emitted: { layer, id, output in
        record.child(LayerChild(layer: layer, id: id), emitted: output)
      },
      dismissed: { layer, id in record.dismissed(LayerChild(layer: layer, id: id)) })
    flow = Flow(
      core: Recording(core: core, record: record), executor: executor,
      monitor: FlowMonitor(
        received: { layer, input in record.received(input, by: layer) },
        emitted: { layer, event in record.emitted(event, by: layer) }, children: children,
        started: { run, machine, id in record.started(run: run, machine: machine, id: id) }))
  }

  deinit {
    flow.stop()
    executor.release()
  }

  /// Starts the flow (every machine's `process(nil)`, in layer order) and settles.
  public func start() async {
    flow.start()
    await settle()
  }

  /// Sends `events` to the reducer in order, as if from outside the layers, settling after
  /// each.
  public func send(_ events: C.Event...) async {
    for event in events {
      flow.send(event)
      await settle()
    }
  }

  /// Returns when nothing is queued and every machine's work has finished or is suspended
  /// outside the flow. Call it after making a fake answer or advancing a clock.
  public func settle() async {
    await executor.quiescence()
  }

  /// Stops the flow.
  public func stop() { flow.stop() }

  /// The state now.
  public var state: C.State? { flow.state }

  /// Every step so far: the start first, then one per event the reducer handled.
  public var steps: [Step] { record.steps }

  /// Checks the events the reducer handled since the last check of events (or since the start),
  /// in order, and, if given, the state now.
  public func expect(
    events expected: [C.Event], state expectedState: C.State? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) where C.Event: Equatable, C.State: Equatable {
    let sourceLocation = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let events = record.takeEvents()
    var failures: [String] = []
    if events != expected {
      failures.append(
        "events reduced differ:\n  expected: \(list(expected))\n  actual:   \(list(events))")
    }
    if let expectedState, let state = flow.state, state != expectedState {
      failures.append(
        "state differs: (− expected, + actual)\n"
          + lineDiff(expected: expectedState, actual: state))
    } else if let expectedState, flow.state == nil {
      failures.append("state differs: expected \(expectedState), actual nil (never set)")
    }
    report(failures, sourceLocation)
  }

  /// Checks the inputs layer `layer`'s machine received since the last check of that layer
  /// (or since the start), in order.
  public func expect<Input: Equatable & Sendable>(
    layer: Int, received expected: [Input], fileID: StaticString = #fileID,
    filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) {
    let sourceLocation = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    guard checkIndex(layer, sourceLocation) else { return }
    let failure = difference(
      of: record.takeReceived(by: layer), from: expected, receivedBy: "layer \(layer)")
    report(failure.map { [$0] } ?? [], sourceLocation)
  }

  /// What differs between the inputs `receiver` received and `expected`, if anything.
  func difference<Input: Equatable & Sendable>(
    of received: [any Sendable], from expected: [Input], receivedBy receiver: String
  ) -> String? {
    let typed = received.compactMap { $0 as? Input }
    guard typed.count == received.count else {
      let types = Set(received.map { "\(type(of: $0))" }).sorted().joined(separator: ", ")
      return "\(receiver) receives \(types), not \(Input.self): received \(list(received))"
    }
    guard typed != expected else { return nil }
    return "\(receiver) received differently: (− expected, + actual)\n"
      + lineDiff(expected: expected, actual: typed)
  }

  /// Checks the inputs that layer `layer` of the child core mounted at `child` received since
  /// the last check of that layer, in order: a child's layer named as the child names it.
  ///
  /// ```swift
  /// harness.expect(child: \.counter, layer: 0, received: [CounterView.ready(count: 1)])
  /// ```
  public func expect<ChildState, Input: Equatable & Sendable>(
    child: KeyPath<C.State, ChildState?>, layer: Int, received expected: [Input],
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) {
    let sourceLocation = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    guard let index = index(ofChild: child, layer: layer, sourceLocation) else { return }
    expect(
      layer: index, received: expected, fileID: fileID, filePath: filePath, line: line,
      column: column)
  }

  /// Checks the events that layer `layer` of the child core mounted at `child` emitted since
  /// the last check, in order, as the parent's events.
  public func expect<ChildState>(
    child: KeyPath<C.State, ChildState?>, layer: Int, emitted expected: [C.Event],
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) where C.Event: Equatable {
    let sourceLocation = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    guard let index = index(ofChild: child, layer: layer, sourceLocation) else { return }
    expect(
      layer: index, emitted: expected, fileID: fileID, filePath: filePath, line: line,
      column: column)
  }

  /// The index among the core's layers of the child's layer `layer`.
  private func index(ofChild child: AnyKeyPath, layer: Int, _ sourceLocation: CallSite) -> Int? {
    let wanted = LayerMount(path: "\(child)", index: layer)
    if let index = mounts.firstIndex(of: wanted) { return index }
    let count = mounts.filter { $0?.path == wanted.path }.count
    report(
      [
        count == 0
          ? "no child mounted at \(child): mount it with Core.mounted(at:event:)"
          : "no layer \(layer) in the child at \(child): it has \(count) layers"
      ], sourceLocation)
    return nil
  }

  /// Checks the events layer `layer` emitted since the last check of that layer's events (or
  /// since the start), in order.
  public func expect(
    layer: Int, emitted expected: [C.Event], fileID: StaticString = #fileID,
    filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) where C.Event: Equatable {
    let sourceLocation = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    guard checkIndex(layer, sourceLocation) else { return }
    let emitted = record.takeEmitted(by: layer)
    guard emitted != expected else { return }
    report(
      ["layer \(layer) emitted:\n  expected: \(list(expected))\n  actual:   \(list(emitted))"],
      sourceLocation)
  }

  private func checkIndex(_ layer: Int, _ sourceLocation: CallSite) -> Bool {
    guard !(0..<layerCount).contains(layer) else { return true }
    report(["no layer \(layer): the core has \(layerCount) layers"], sourceLocation)
    return false
  }

  func report(_ failures: [String], _ sourceLocation: CallSite) {
    guard !failures.isEmpty else { return }
    reportFailure(failures.joined(separator: "\n"), at: sourceLocation)
  }

  /// Everything recorded, guarded by a lock: steps and how far each kind was checked.
  final class Record: Sendable {
    private struct State {
      var steps: [Step]
      var checkedEvents = 1
      var checkedReceived: [Int]
      var checkedEmitted: [Int]
      /// Every child seen, with what was checked of it.
      var children: [LayerChild: ChildRecord] = [:]
      /// The work machines started, in order.
      var work: [Work] = []
      var lastState: C.State?
      var endedByLastDismissal: [String] = []
    }

    /// One child's whole history and how far it was checked.
    struct ChildRecord {
      var machines: ClosedRange<Int>?
      var isPresented = true
      var received: [any Sendable] = []
      var emitted: [any Sendable] = []
      var checkedReceived = 0
      var checkedEmitted = 0
    }

    /// Work a machine started: in which step, its run and what it is called.
    struct Work {
      var step: Int
      var run: Int
      var machine: Int
      var id: String?
    }

    private let state: Lock<State>
    private let layers: Int

    init(layers: Int, state initial: C.State?) {
      self.layers = layers
      let start = Step(
        event: nil, state: nil, received: Array(repeating: [], count: layers),
        emitted: Array(repeating: [], count: layers))
      state = Lock(
        State(
          steps: [start], checkedReceived: Array(repeating: 0, count: layers),
          checkedEmitted: Array(repeating: 0, count: layers), lastState: initial))
    }

    var steps: [Step] { state.withLock { $0.steps } }

    func reduced(_ event: C.Event, into result: C.State?) {
      let layers = layers
      state.withLock {
        $0.steps.append(
          Step(
            event: event, state: result, received: Array(repeating: [], count: layers),
            emitted: Array(repeating: [], count: layers), before: $0.lastState))
        if let result { $0.lastState = result }
      }
    }

    func child(_ child: LayerChild, presented machines: ClosedRange<Int>?) {
      state.withLock {
        // A row id used again continues its history.
        $0.children[child, default: ChildRecord(machines: nil)].machines = machines
        $0.children[child]?.isPresented = true
        $0.steps[$0.steps.count - 1].children[child, default: ChildStep()].presented = true
      }
    }

    func child(_ child: LayerChild, received input: any Sendable) {
      state.withLock {
        $0.steps[$0.steps.count - 1].children[child, default: ChildStep()].received.append(input)
        $0.children[child, default: ChildRecord(machines: nil)].received.append(input)
      }
    }

    func child(_ child: LayerChild, emitted output: any Sendable) {
      state.withLock {
        $0.steps[$0.steps.count - 1].children[child, default: ChildStep()].emitted.append(output)
        $0.children[child, default: ChildRecord(machines: nil)].emitted.append(output)
      }
    }

    func dismissed(_ child: LayerChild) {
      state.withLock {
        $0.children[child]?.isPresented = false
        $0.steps[$0.steps.count - 1].children[child, default: ChildStep()].dismissed = true
      }
    }

    func started(run: Int, machine: Int, id: AnyWorkID?) {
      state.withLock {
        $0.work.append(
          Work(step: $0.steps.count - 1, run: run, machine: machine, id: id?.description))
      }
    }

    /// The child whose machines include `machine`, if any.
    func owner(of machine: Int) -> (LayerChild, ChildRecord)? {
      state.withLock { state in
        state.children.first { $0.value.machines?.contains(machine) ?? false }
          .map { ($0.key, $0.value) }
      }
    }

    var work: [Work] { state.withLock { $0.work } }

    var endedByLastDismissal: [String] {
      get { state.withLock { $0.endedByLastDismissal } }
      set { state.withLock { $0.endedByLastDismissal = newValue } }
    }

    func takeReceived(by child: LayerChild) -> [any Sendable]? {
      state.withLock { state in
        guard let record = state.children[child] else { return nil }
        state.children[child]?.checkedReceived = record.received.count
        return Array(record.received[record.checkedReceived...])
      }
    }

    func takeEmitted(by child: LayerChild) -> [any Sendable]? {
      state.withLock { state in
        guard let record = state.children[child] else { return nil }
        state.children[child]?.checkedEmitted = record.emitted.count
        return Array(record.emitted[record.checkedEmitted...])
      }
    }

    func received(_ input: any Sendable, by layer: Int) {
      state.withLock { $0.steps[$0.steps.count - 1].received[layer].append(input) }
    }

    func emitted(_ event: C.Event, by layer: Int) {
      state.withLock { $0.steps[$0.steps.count - 1].emitted[layer].append(event) }
    }

    func takeEvents() -> [C.Event] {
      state.withLock { state in
        defer { state.checkedEvents = state.steps.count }
        return state.steps[state.checkedEvents...].compactMap(\.event)
      }
    }

    func takeReceived(by layer: Int) -> [any Sendable] {
      state.withLock { state in
        let all = state.steps.flatMap { $0.received[layer] }
        defer { state.checkedReceived[layer] = all.count }
        return Array(all[state.checkedReceived[layer]...])
      }
    }

    func takeEmitted(by layer: Int) -> [C.Event] {
      state.withLock { state in
        let all = state.steps.flatMap { $0.emitted[layer] }
        defer { state.checkedEmitted[layer] = all.count }
        return Array(all[state.checkedEmitted[layer]...])
      }
    }
  }
}

/// A core that behaves as `core` and tells a ``CoreHarness`` about each event it reduces.
public struct Recording<C: Core>: Core {
  let core: C
  let record: CoreHarness<C>.Record

  public var layers: [Layer<C.State, C.Event>] { core.layers }

  public var initialState: C.State? { core.initialState }

  public func reduce(state: C.State?, event: C.Event) -> ReducerResult<C.State> {
    let result = core.reduce(state: state, event: event)
    switch result {
    case .set(let next): record.reduced(event, into: next)
    case .skip: record.reduced(event, into: nil)
    }
    return result
  }
}

func list<Element>(_ elements: [Element]) -> String {
  "[" + elements.map { "\($0)" }.joined(separator: ", ") + "]"
}
