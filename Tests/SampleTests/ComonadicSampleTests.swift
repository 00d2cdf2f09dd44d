import ArchitectureSpec
import ArchitectureSpecTesting
import Baseline
import Comonadic
import ComonadicSamples
import ComonadicTesting
import Testing

/// The comonadic samples under Comonadic's testing tools: dispatchers run purely against a
/// state, components in a harness with the kit's fakes.
@Suite struct ComonadicSamplesUnderTestDispatcher {
  let recorder = CallRecorder()

  var counter: TestDispatcher<CounterEnvironment, ComonadicCounter.State, ComonadicCounter.Input> {
    TestDispatcher(
      ComonadicCounter.dispatcher,
      environment: CounterEnvironment(
        storage: FakeStorage(load: .value(nil), recorder: recorder),
        log: LogRecorder(recorder: recorder)))
  }

  var loaded: ComonadicCounter.State {
    var state = ComonadicCounter.State()
    state.isLoaded = true
    state.count = 3
    return state
  }

  @Test func counterLoadsOnAppearAndIgnoresIntentsUntilLoaded() {
    counter.expect(
      .appear, from: ComonadicCounter.State(), effects: [.task(id: ComonadicCounter.Work.load)])
    counter.expect(.intent(.increment), from: ComonadicCounter.State())
    #expect(recorder.drain() == [])
  }

  @Test func counterSavesAChangedCountAndNothingElse() {
    counter.expect(
      .intent(.increment), from: loaded,
      {
        $0.count = 4
        $0.countToSave = 4
      }, effects: [.task(id: ComonadicCounter.Work.save)])
    var empty = loaded
    empty.count = 0
    counter.expect(.intent(.decrement), from: empty)
  }

  @Test func stopwatchStartsOneTimerAndCancelsItOnStopAndReset() {
    let stopwatch = TestDispatcher(
      ComonadicStopwatch.dispatcher, environment: StopwatchEnvironment(clock: VirtualClock()))
    var running = ComonadicStopwatch.State()
    running.isRunning = true
    stopwatch.expect(
      .start, from: ComonadicStopwatch.State(), { $0.isRunning = true },
      effects: [.stream(id: ComonadicStopwatch.Work.timer)])
    stopwatch.expect(.start, from: running)
    stopwatch.expect(
      .stop, from: running, { $0.isRunning = false },
      effects: [.cancel(id: ComonadicStopwatch.Work.timer)])
    stopwatch.expect(
      .reset, from: running, { $0 = ComonadicStopwatch.State() },
      effects: [.cancel(id: ComonadicStopwatch.Work.timer)])
  }
}

@Suite struct ComonadicSamplesInAHarness {
  @Test func stopwatchTicksOnTheVirtualClockAndStopsTicking() async {
    let clock = VirtualClock()
    let harness = ComponentHarness(
      initialState: ComonadicStopwatch.State(),
      environment: StopwatchEnvironment(clock: clock),
      dispatcher: ComonadicStopwatch.dispatcher, render: ComonadicStopwatch.render)
    await harness.send(
      .start, renders: [StopwatchView(elapsedTenths: 0, isRunning: true, lapTenths: [])])
    clock.advance(by: .milliseconds(250))
    await harness.renders([
      StopwatchView(elapsedTenths: 1, isRunning: true, lapTenths: []),
      StopwatchView(elapsedTenths: 2, isRunning: true, lapTenths: []),
    ])
    await harness.send(
      .stop, renders: [StopwatchView(elapsedTenths: 2, isRunning: false, lapTenths: [])])
    clock.advance(by: .seconds(1))
    await harness.finish()
  }

  @Test func counterLoadsSavesInOrderAndLogsAfterEachSave() async {
    let recorder = CallRecorder()
    let storage = FakeStorage(load: .pending, recorder: recorder)
    let harness = ComponentHarness(
      initialState: ComonadicCounter.State(),
      environment: CounterEnvironment(storage: storage, log: LogRecorder(recorder: recorder)),
      dispatcher: ComonadicCounter.dispatcher, render: ComonadicCounter.render)
    await harness.send(.appear, renders: [])
    await harness.send(.intent(.increment), renders: [.loading])  // applied, changed nothing
    #expect(storage.completeLoad(.value(41)))
    await harness.renders([.ready(count: 41)])
    await harness.send(.intent(.increment), renders: [.ready(count: 42), .ready(count: 42)])
    #expect(
      recorder.drain() == [.load, .save(42), .log(CounterApp.savedMessage(42))])
    await harness.finish()
  }
}

/// The counter written with a Moore machine passes the whole suite too.
@Suite struct MooreCounterConformance {
  @Test func everyCounterScenario() async {
    for scenario in CounterApp.scenarios {
      await expectConformance(.comonadicMoore, scenario: scenario, reference: .baseline)
    }
  }

  @Test func randomProgramsMatchBaseline() async {
    await expectSameTraces(.comonadicMoore, reference: .baseline, programs: 200, seed: 7)
  }
}
