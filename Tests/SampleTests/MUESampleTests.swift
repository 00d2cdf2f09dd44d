import ArchitectureSpec
import MUE
import MUESamples
import MUETesting
import Testing

/// The MUE samples under MUE's own testing tools: the updates as pure given/when/then specs,
/// and whole loops with the kit's fakes.
@Suite struct MUESamplesUnderUpdateSpec {
  let counter = UpdateSpec(MUECounter.Update())
  let stopwatch = UpdateSpec(MUEStopwatch.Update())
  let weather = UpdateSpec(MUEWeather.Update())

  var loadedCounter: MUECounter.State { MUECounter.State().copy { $0.isLoaded = true } }

  @Test func contactsDismissalsEndTheirChildsEffectsWithoutTheUpdateCancellingThem() {
    let contacts = UpdateSpec(MUEContacts.Update())
    let ann = Contact(id: 1, name: "Ann")
    let list = MUEContacts.State(contacts: [ann], launchPath: [])
    var saving = list
    saving.presentations = 1
    saving.form = MUEAddForm.State(id: 1)
    saving.form?.name = "Bo"
    saving.form?.isSaving = true
    // The sheet: cancelling it ends its create; the update returns no cancellation.
    contacts.given(saving, running: [.form(.create)]).when(.form(.cancel))
      .then(state: saving.copy { $0.form = nil }, dismissed: [.form(.create)])
    // The stack: the screen that arrives loads; going back ends its load.
    let oneScreen = MUEContacts.State(contacts: [ann], launchPath: [1])
    contacts.given(list).when(.open(contactID: 1))
      .then(state: oneScreen, effects: [.screen(1, .details(contactID: 1))])
    contacts.given(oneScreen, running: [.screen(1, .details)]).when(.back)
      .then(
        state: oneScreen.copy { $0.stack = IdentifiedList() }, dismissed: [.screen(1, .details)])
  }

  @Test func counterLoadsFirstAndIgnoresIntentsUntilLoaded() {
    counter.given(MUECounter.State()).whenStarting()
      .then(state: MUECounter.State(), effects: [.load])
    counter.given(MUECounter.State()).when(.increment).thenNoChange(from: MUECounter.State())
    counter.given(MUECounter.State()).when(results: .loaded(-1))
      .then(state: loadedCounter, effects: [.log(CounterApp.unreadableCountMessage)])
  }

  @Test func counterSavesOneAtATimeInOrderThenLogs() {
    let saving = loadedCounter.copy {
      $0.count = 2
      $0.isSaving = true
      $0.unsaved = [2]
    }
    counter.given(loadedCounter).when(.increment, .increment)
      .then(state: saving, effects: [.save(1)])
    counter.given(saving).when(results: .saved(1))
      .then(
        state: saving.copy { $0.unsaved = [] },
        effects: [.log(CounterApp.savedMessage(1)), .save(2)])
    counter.given(saving.copy { $0.unsaved = [] }).when(results: .saveFailed(2))
      .then(
        state: saving.copy {
          $0.unsaved = []
          $0.isSaving = false
        }, effects: [.log(CounterApp.saveFailedMessage)])
  }

  @Test func stopwatchStartsOneTimerAndCancelsItById() {
    let running = MUEStopwatch.State().copy { $0.isRunning = true }
    stopwatch.given(MUEStopwatch.State()).when(.start, .start)
      .then(state: running, effects: [.startTimer])
    stopwatch.given(running).when([.result(.tick), .result(.tick), .event(.lap)])
      .then(
        state: running.copy {
          $0.tenths = 2
          $0.laps = [2]
        })
    stopwatch.given(running).when(.stop)
      .then(state: MUEStopwatch.State(), cancellations: [.timer])
  }

  @Test func weatherDebouncesSearchesOnceAndCancelsOnEmptyQuery() {
    let typed = MUEWeather.State().copy(\.query, "Paris")
    weather.given(MUEWeather.State()).when(.queryChanged("Par"), .queryChanged("Paris"))
      .then(state: typed, effects: [.debounce(term: "Par"), .debounce(term: "Paris")])
    let searching = typed.copy {
      $0.status = .searching
      $0.lastSearch = MUEWeather.LastSearch(term: "Paris")
    }
    weather.given(typed).when(results: .debounced(term: "Paris"))
      .then(state: searching, effects: [.search(term: "Paris")])
    // W3: the same term again while that search is in flight makes no request.
    weather.given(searching).when(results: .debounced(term: "Paris"))
      .thenNoChange(from: searching)
    weather.given(searching).when(.queryChanged("  "))
      .then(
        state: MUEWeather.State().copy(\.query, "  "), cancellations: [.debounce, .search])
  }
}

@Suite struct MUESamplesInALoopHarness {
  @Test func counterLoadsThenSavesAndLogsWithTheKitsFakes() async {
    let recorder = CallRecorder()
    let storage = FakeStorage(load: .pending, recorder: recorder)
    let harness = LoopHarness(
      update: MUECounter.Update(),
      effectHandler: MUECounter.EffectHandler(
        environment: CounterEnvironment(storage: storage, log: LogRecorder(recorder: recorder))),
      state: MUECounter.State())
    await harness.start()
    harness.expect(states: [MUECounter.State()], effects: [.load])
    #expect(storage.completeLoad(.value(41)))
    await harness.settle()
    await harness.send(.increment)
    let saved = MUECounter.State().copy {
      $0.isLoaded = true
      $0.count = 42
    }
    harness.expect(
      states: [
        saved.copy { $0.count = 41 }, saved.copy { $0.isSaving = true }, saved,
      ], effects: [.save(42), .log(CounterApp.savedMessage(42))])
    #expect(recorder.drain() == [.load, .save(42), .log(CounterApp.savedMessage(42))])
    harness.stop()
  }

  @Test func stopwatchTicksOnTheVirtualClockUntilStopped() async {
    let clock = VirtualClock()
    let harness = LoopHarness(
      update: MUEStopwatch.Update(),
      effectHandler: MUEStopwatch.EffectHandler(environment: StopwatchEnvironment(clock: clock)),
      state: MUEStopwatch.State())
    await harness.start()
    await harness.send(.start)
    for _ in 0..<3 {
      clock.advance(by: StopwatchApp.tickInterval)
      await harness.settle()
    }
    await harness.send(.stop)
    clock.advance(by: .seconds(1))
    await harness.settle()
    #expect(harness.states.map(\.tenths) == [0, 0, 1, 2, 3, 3])
    #expect(harness.state == MUEStopwatch.State().copy { $0.tenths = 3 })
    #expect(clock.sleeperCount == 0)
  }
}
