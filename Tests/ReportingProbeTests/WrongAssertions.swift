import ArchitectureSpec
import ArchitectureSpecTesting
import Comonadic
import ComonadicTesting
import ElmStore
import ElmStoreTesting
import Foundation
import IOLoop
import IOLoopTesting
import LayerCore
import LayerCoreTesting
import MUE
import MUETesting

/// Whether this process is the probe's: the wrong assertions below fail their tests, so they
/// run only when `Scripts/reporting-probe.sh` asks for them.
let isReportingProbe = ProcessInfo.processInfo.environment["ARCH_REPORTING_PROBE"] == "1"

// One wrong assertion per tool. Every call below must fail the test that makes it; the probe
// script checks each message and that it points at the line of the call (`PROBE <tool>`).

func wrongTestStore() async {
  let store = TestStore(initialState: 0, update: { (count: inout Int, step: Int) in count += step })
  await store.send(1) { $0 = 2 }  // PROBE elm-store
  await store.finish()
}

/// A sheet whose work is started as the parent's: dismissing it leaves the work running.
struct Sheet: Equatable, Sendable { var isSaving = false }

func wrongDismissal() async {
  let store = TestStore(
    initialState: Sheet?.some(Sheet()),
    update: { (sheet: inout Sheet?, isSave: Bool) in
      if isSave { sheet?.isSaving = true } else { sheet = nil }
    },
    effect: Effect { _, isSave, dispatch in
      if isSave {
        // Work that never ends by itself: a stream that never yields, until cancelled.
        dispatch.run(id: "save", lifetime: .untilCancelled) { _ in
          for await _ in AsyncStream<Void>(Void.self, { _ in }) {}
        }
      }
    })
  await store.send(true) { $0?.isSaving = true }
  await store.send(false, dismissing: \.self) { $0 = nil }  // PROBE elm-store-dismissal
  await store.skipReceivedActions()
}

struct Sum: MUE.Update {
  func handle(event: Int, _ state: Int) -> UpdateResult<Int, NoEffect> {
    .newState(state: state + event)
  }
  func handle(result: Never, _ state: Int) -> UpdateResult<Int, NoEffect> {}
}

func wrongUpdateSpec() {
  UpdateSpec(Sum()).given(0).when(1).then(state: 2)  // PROBE mue
}

/// A sheet whose save is not declared as its child's: the loop leaves it running.
struct SheetUpdate: MUE.Update {
  enum Save: MUE.Effect, Equatable {
    case save
    typealias Result = Never
    enum ID: Hashable, Sendable { case save }
    var id: ID? { .save }
  }
  func handle(event: Bool, changing state: inout Int?) -> InPlaceResult<Save> {
    if event { return .changedState(effect: .save) }
    state = nil
    return .changedState
  }
  func handle(result: Never, changing state: inout Int?) -> InPlaceResult<Save> {}
}

func wrongLoopDismissal() {
  UpdateSpec(SheetUpdate()).given(0, running: [.save]).when(false)
    .then(state: nil, dismissed: [.save])  // PROBE mue-dismissal
}

struct Total: PureApp, Equatable {
  var count = 0
  static func start() -> (Total, [Int]) { (Total(), []) }
  func run(input: Int) -> (Total, [Int]) { (Total(count: count + input), []) }
}

func wrongStepper() {
  var app = Stepper(Total.self)
  _ = app.start()
  app.step(1, expecting: Total(count: 2), [])  // PROBE io-loop
}

struct Adder: LayerCore.Core {
  var layers: [Layer<Int, Int>] { [] }
  func reduce(state: Int?, event: Int) -> ReducerResult<Int> { .set((state ?? 0) + event) }
}

func wrongCoreHarness() async {
  let harness = CoreHarness(Adder())
  await harness.start()
  await harness.send(1)
  harness.expect(events: [1], state: 2)  // PROBE layer-core
  harness.stop()
}

/// A sheet whose save is started by a machine of the core's own, not by a presented layer:
/// dismissing the sheet leaves the save running.
struct SheetCore: LayerCore.Core {
  var initialState: Sheet?? { .some(Sheet()) }
  var layers: [Layer<Sheet?, Bool>] { [.consumer(~Saver(), mapper: { $0?.isSaving ?? false })] }
  func reduce(state: Sheet??, event isSave: Bool) -> ReducerResult<Sheet?> {
    .set(isSave ? Sheet(isSaving: true) : nil)
  }
}

final class Saver: ChildMachine {
  func process(input isSaving: Bool?, callback: Handler<Never>) {
    guard isSaving == true else { return }
    // Work that never ends by itself: a stream that never yields, until cancelled.
    callback.run(id: "save", lifetime: .untilCancelled) { _ in
      for await _ in AsyncStream<Void>(Void.self, { _ in }) {}
    }
  }
}

func wrongCoreDismissal() async {
  let harness = CoreHarness(SheetCore())
  await harness.start()
  await harness.send(true)
  await harness.send(false, dismissing: \.self)  // PROBE layer-core-dismissal
  harness.stop()
}

func wrongTestDispatcher() {
  let dispatcher = StateDispatcher<Void, Int, Int>.workflow { step in
    [.action(.mutate { $0 += step })]
  }
  TestDispatcher(dispatcher, environment: ()).expect(1, from: 0) { $0 = 2 }  // PROBE comonadic
}

/// A sheet whose save is the parent's own work, not the sheet's: dismissing it cancels nothing.
func wrongDispatcherDismissal() {
  let dispatcher = StateDispatcher<Void, Int?, Bool>.workflow { isSave in
    isSave
      ? [.task(id: "save") { _ in .mutate { _ in } }]
      : [.action(.mutate { $0 = nil })]
  }
  let tool = TestDispatcher(dispatcher, environment: ())
  let saving = tool.run(true, from: 0)
  let save: [EffectStep] = [.cancel(id: "save")]
  tool.expect(false, after: saving, { $0 = nil }, cancelled: save)  // PROBE comonadic-dismissal
}

func wrongConformance() {
  let failure = ConformanceFailure(
    architecture: "probe", app: "counter", scenario: "c1.increment", rules: [.r1],
    message: "expected count 1, got 0")
  let report = AppReport(
    architecture: "probe", app: "counter", scenarios: 1, passed: 0, failures: [failure],
    knownDeviations: [], programs: 0, programFailures: [])
  record(report)  // PROBE kit
}
