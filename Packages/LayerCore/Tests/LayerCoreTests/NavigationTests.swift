import LayerCore
import LayerCoreTesting
import Synchronization
import Testing

/// A presented sheet whose machine works while the sheet is shown, and a stack of screens
/// with one machine each; the state starts with one screen.
enum Nav {
  struct Sheet: Sendable, Equatable, Identifiable {
    let id: Int
    var saves = 0
  }

  struct State: Sendable, Equatable {
    var sheet: Sheet?
    var presentations = 0
    var done: [String] = []
    var stack = IdentifiedList<Int, Int>()
  }

  enum Event: Sendable, Equatable {
    case present, dismiss, save, pop
    case push(Int)
    case finished(String)
  }

  /// Starts work named after its input each time the input changes; notes cancellations.
  final class Worker<Input: Sendable & Equatable>: ChildMachine {
    let name: @Sendable (Input) -> String
    let gate: Gate
    let log: Recorder<String>
    private let last = Lock<Input?>(nil)

    init(gate: Gate, log: Recorder<String>, name: @escaping @Sendable (Input) -> String) {
      self.gate = gate
      self.log = log
      self.name = name
    }

    func process(input: Input?, callback: Handler<String>) {
      guard let input else { return }
      let previous = last.withLock { last in
        defer { last = input }
        return last
      }
      guard previous != input else { return }
      let (name, gate, log) = (name(input), gate, log)
      log.append(name)
      callback.run { send in
        await withTaskCancellationHandler {
          await gate.wait()
        } onCancel: {
          log.append("cancelled \(name)")
        }
        send(name)
      }
    }
  }

  struct App: Core {
    let gate: Gate
    let log: Recorder<String>
    var start: State? = nil

    var initialState: State? { start }

    var layers: [Layer<State, Event>] {
      let (gate, log) = (gate, log)
      return [
        .presented(
          { $0.sheet },
          machine: { ~Worker<Sheet>(gate: gate, log: log) { "sheet \($0.id) save \($0.saves)" } },
          event: Event.finished),
        .forEach(
          { $0.stack },
          machine: { id in ~Worker<Int>(gate: gate, log: log) { _ in "screen \(id)" } },
          event: { _, name in .finished(name) }),
      ]
    }

    func reduce(state: inout State?, event: Event) -> InPlaceReducerResult {
      if state == nil { state = State() }
      switch event {
      case .present:
        state!.presentations += 1
        state!.sheet = Sheet(id: state!.presentations)
      case .dismiss:
        state!.sheet = nil
      case .save:
        guard state!.sheet != nil else { return .skip }
        state!.sheet!.saves += 1
      case .push(let id):
        state!.stack.append(id, id: id)
      case .pop:
        guard let top = state!.stack.ids.last else { return .skip }
        state!.stack.remove(id: top)
      case .finished(let name):
        state!.done.append(name)
      }
      return .set
    }
  }
}

@Suite struct Navigation {
  @Test func aPresentedMachineLivesAsLongAsItsPresentation() async {
    let (gate, log) = (Gate(), Recorder<String>())
    let harness = CoreHarness(Nav.App(gate: gate, log: log))
    await harness.start()
    await harness.send(.present)
    #expect(log.all == ["sheet 1 save 0"])
    await harness.send(.save)  // the same presentation: its machine gets the change
    #expect(log.all == ["sheet 1 save 0", "sheet 1 save 1"])
    await harness.send(.dismiss)
    // Both of its runs (one per change it saw) end with it.
    #expect(
      Set(log.all.filter { $0.hasPrefix("cancelled") })
        == ["cancelled sheet 1 save 0", "cancelled sheet 1 save 1"])
    await harness.send(.present)  // a new presentation: a new machine
    #expect(log.all.last == "sheet 2 save 0")
    gate.open()
    await harness.settle()
    // The dismissed presentation's work ended with it: only the new one's answer arrived.
    #expect(harness.state?.done == ["sheet 2 save 0"])
    harness.stop()
  }

  @Test func aPoppedScreensMachineIsDroppedWithItsWork() async {
    let (gate, log) = (Gate(), Recorder<String>())
    let harness = CoreHarness(Nav.App(gate: gate, log: log))
    await harness.start()
    await harness.send(.push(1), .push(2), .push(3))
    await harness.send(.pop)
    #expect(log.all.filter { $0.hasPrefix("cancelled") } == ["cancelled screen 3"])
    gate.open()
    await harness.settle()
    #expect(Set(harness.state?.done ?? []) == ["screen 1", "screen 2"])
    harness.stop()
  }

  @Test func aCoresInitialStateReachesEveryLayerAtStart() async {
    let (gate, log) = (Gate(), Recorder<String>())
    var start = Nav.State()
    start.stack.append(7, id: 7)
    let harness = CoreHarness(Nav.App(gate: gate, log: log, start: start))
    #expect(harness.state == start)
    await harness.start()
    #expect(log.all == ["screen 7"])
    harness.stop()
  }

  @Test func aChildsInputsAndOutputsAreCheckedUnderItsOwnName() async {
    let (gate, log) = (Gate(), Recorder<String>())
    let harness = CoreHarness(Nav.App(gate: gate, log: log))
    await harness.start()
    await harness.send(.present)
    harness.expect(layer: 0, child: 1, received: [Nav.Sheet(id: 1)])
    #expect(harness.steps.last?.children[LayerChild(layer: 0, 1)]?.presented == true)
    await harness.send(.push(7), .push(8))
    harness.expect(layer: 1, child: 7, received: [7])
    harness.expect(layer: 1, child: 8, received: [8])
    await harness.send(.dismiss)
    #expect(harness.steps.last?.children[LayerChild(layer: 0, 1)]?.dismissed == true)
    await harness.send(.present)  // a new presentation: number 2
    harness.expect(layer: 0, child: 2, received: [Nav.Sheet(id: 2)])
    gate.open()
    await harness.settle()
    // The first presentation's work was cancelled with it: it sent nothing.
    harness.expect(layer: 0, child: 1, emitted: [String]())
    harness.expect(layer: 0, child: 2, emitted: ["sheet 2 save 0"])
    harness.expect(layer: 1, child: 8, emitted: ["screen 8"])
    harness.stop()
  }

  @Test func aWrongChildExpectationFailsWithTheDifference() async {
    let (gate, log) = (Gate(), Recorder<String>())
    let harness = CoreHarness(Nav.App(gate: gate, log: log))
    await harness.start()
    await harness.send(.push(7))
    withKnownIssue {
      harness.expect(layer: 1, child: 7, received: [8])
    } matching: { issue in
      let message = issue.comments.map(\.rawValue).joined()
      return message.contains("layer 1 · 7 received differently") && message.contains("−   - 8")
        && message.contains("+   - 7")
    }
    withKnownIssue {
      harness.expect(layer: 1, child: 9, received: [9])
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("layer 1 · 9 was never presented")
    }
    harness.stop()
  }

  @Test func dismissingAPresentedOrStackedChildEndsItsWork() async {
    let (gate, log) = (Gate(), Recorder<String>())
    let harness = CoreHarness(Nav.App(gate: gate, log: log))
    await harness.start()
    await harness.send(.present, .save)
    await harness.send(.dismiss, dismissing: \.sheet)
    // Both of its runs (one per change it saw) ended with it.
    #expect(
      harness.endedByLastDismissal
        == ["layer 0 · 1 › work without an id", "layer 0 · 1 › work without an id"])
    await harness.send(.push(1), .push(2))
    await harness.send(.pop, dismissing: \.stack[id: 2])
    // The screen below keeps its load.
    #expect(harness.endedByLastDismissal == ["layer 1 · 2 › work without an id"])
    harness.stop()
  }

  @Test func aDismissalThatLeavesTheChildsWorkRunningFails() async {
    let harness = CoreHarness(Leaky.App())
    await harness.start()
    await harness.send(.push(1), .push(2))
    await withKnownIssue {
      await harness.send(.pop, dismissing: \.[id: 2])
    } matching: { issue in
      let message = issue.comments.map(\.rawValue).joined()
      return message.contains("dismissing the child at") && message.contains("left its work")
        && message.contains("  load 2") && !message.contains("load 1")
    }
    await withKnownIssue {
      await harness.send(.pop, dismissing: \.[id: 2])
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("nothing is presented at")
    }
    harness.stop()
  }
}

/// A stack whose loads are started by one machine of the core's own, which never cancels a
/// popped screen's load: what a dismissal check must catch.
enum Leaky {
  enum Event: Sendable, Equatable {
    case push(Int)
    case pop
  }

  struct App: Core {
    var layers: [Layer<IdentifiedList<Int, Int>, Event>] {
      [.consumer(~Loader(), mapper: { $0.ids })]
    }

    func reduce(state: inout IdentifiedList<Int, Int>?, event: Event) -> InPlaceReducerResult {
      if state == nil { state = IdentifiedList() }
      switch event {
      case .push(let id): state!.append(id, id: id)
      case .pop:
        guard let top = state!.ids.last else { return .skip }
        state!.remove(id: top)
      }
      return .set
    }
  }

  /// Loads each screen it has not seen, under the screen's id; never cancels.
  final class Loader: ChildMachine {
    private let seen = Lock<Set<Int>>([])

    func process(input ids: [Int]?, callback: Handler<Never>) {
      for id in ids ?? [] where seen.withLock({ $0.insert(id).inserted }) {
        callback.run(id: "load \(id)", lifetime: .untilCancelled) { _ in
          for await _ in AsyncStream<Void>(Void.self, { _ in }) {}
        }
      }
    }
  }
}
