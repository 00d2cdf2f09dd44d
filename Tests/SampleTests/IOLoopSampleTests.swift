import ArchitectureSpec
import IOLoop
import IOLoopSamples
import IOLoopTesting
import Testing

/// The IOLoop samples under IOLoop's own testing tool: each pure app stepped input by input,
/// its state and outputs asserted exactly, with no handler running.
@Suite struct IOLoopSamplesUnderStepper {
  typealias CounterScreen = ScreenIO<CounterView, CounterIntent>

  var loaded: IOCounter {
    var app = IOCounter()
    app.isLoaded = true
    return app
  }

  @Test func contactsDismissalsReturnWhatEndsTheChildsWork() {
    let ann = Contact(id: 1, name: "Ann")
    let (launched, _) = IOContacts.launching(contacts: [ann], launchPath: [1])
    var app = Stepper(from: launched)
    // The sheet: saving, then cancelled; the step returns what ends its create.
    app.step(IOContacts.Input(.addTapped, nil, nil))
    app.step(IOContacts.Input(.form(.nameChanged("Bo")), nil, nil))
    app.step(IOContacts.Input(.form(.save), nil, nil))
    app.step(IOContacts.Input(.form(.cancel), nil, nil), dismissing: \.form)
    // The stack: the launch screen, then one more; popping to the root ends both loads.
    app.step(IOContacts.Input(.open(contactID: 1), nil, nil))
    app.step(IOContacts.Input(.popToRoot, nil, nil), dismissing: [1, 2], from: \.stack)
  }

  @Test func counterLoadsFirstAndIgnoresIntentsUntilLoaded() {
    var counter = Stepper(IOCounter.self)
    counter.start(expecting: IOCounter(), IOCounter.Outputs([.loading], [], [.load]))
    counter.step(IOInput(.increment, nil, nil), expecting: IOCounter(), .none)
    counter.step(
      IOInput(nil, nil, .loaded(-1)), expecting: loaded,
      IOCounter.Outputs([.ready(count: 0)], [.log(CounterApp.unreadableCountMessage)], []))
  }

  @Test func counterSavesOneAtATimeInOrderAndLogsEachOutcome() {
    var counter = Stepper(from: loaded)
    var saving = loaded
    saving.count = 1
    saving.isSaving = true
    counter.step(
      IOInput(.increment, nil, nil), expecting: saving,
      IOCounter.Outputs([.ready(count: 1)], [], [.save(1)]))
    saving.count = 2
    saving.unsaved = [2]
    counter.step(
      IOInput(.increment, nil, nil), expecting: saving,
      IOCounter.Outputs([.ready(count: 2)], [], []))
    saving.unsaved = []
    counter.step(
      IOInput(nil, nil, .saved(1)), expecting: saving,
      IOCounter.Outputs([], [.log(CounterApp.savedMessage(1))], [.save(2)]))
    saving.isSaving = false
    counter.step(
      IOInput(nil, nil, .saveFailed), expecting: saving,
      IOCounter.Outputs([], [.log(CounterApp.saveFailedMessage)], []))
  }

  @Test func stopwatchStartsOneTimerCountsTicksAndStopsIt() {
    var stopwatch = Stepper(IOStopwatch.self)
    stopwatch.start()
    var running = IOStopwatch()
    running.isRunning = true
    stopwatch.step(
      IOInput(.start, nil), expecting: running,
      IOStopwatch.Outputs([running.view], [.start(every: StopwatchApp.tickInterval)]))
    stopwatch.step(IOInput(.start, nil), expecting: running, .none)
    running.tenths = 1
    stopwatch.step(IOInput(nil, .tick), expecting: running, IOStopwatch.Outputs([running.view], []))
    running.laps = [1]
    stopwatch.step(IOInput(.lap, nil), expecting: running, IOStopwatch.Outputs([running.view], []))
    var stopped = running
    stopped.isRunning = false
    stopwatch.step(
      IOInput(.stop, nil), expecting: stopped, IOStopwatch.Outputs([stopped.view], [.stop]))
    // A tick already on its way when the timer stopped changes nothing (S4).
    stopwatch.step(IOInput(nil, .tick), expecting: stopped, .none)
  }

  @Test func weatherDebouncesThenSearchesWithAnIdAndIgnoresStaleAnswers() {
    var weather = Stepper(IOWeather.self)
    weather.start()
    var typed = IOWeather()
    typed.query = "Paris"
    weather.step(
      IOInput(.queryChanged("Paris"), nil, nil, nil), expecting: typed,
      IOWeather.Outputs([typed.view], [.debounce(term: "Paris")], [], []))
    var searching = typed
    searching.status = .searching
    searching.lastTerm = "Paris"
    searching.searchID = 1
    weather.step(
      IOInput(nil, .elapsed(term: "Paris"), nil, nil), expecting: searching,
      IOWeather.Outputs([searching.view], [], [.search(id: 1, term: "Paris")], []))
    // The same term again while that search is in flight asks for nothing (W3).
    weather.step(IOInput(nil, .elapsed(term: "Paris"), nil, nil), expecting: searching, .none)
    let paris = Place(id: 7, name: "Paris", country: "France", latitude: 48.9, longitude: 2.35)
    // An answer to an older search is recognised by its id and ignored.
    weather.step(IOInput(nil, nil, .found(id: 0, [paris]), nil), expecting: searching, .none)
    var found = searching
    found.status = .idle
    found.places = [paris]
    weather.step(
      IOInput(nil, nil, .found(id: 1, [paris]), nil), expecting: found,
      IOWeather.Outputs([found.view], [], [], []))
  }
}

/// The IOLoop samples running in a `Main` with the kit's fakes.
@Suite struct IOLoopSamplesInAMain {
  @Test func counterLoadsThenSavesAndLogsInOrder() async {
    let recorder = CallRecorder()
    let storage = FakeStorage(load: .value(3), recorder: recorder)
    let screen = Screen<CounterView>()
    let views = ViewLog<CounterView>()
    screen.attach { views.append($0) }
    let main = Main(
      app: IOCounter.self,
      handlers: ScreenHandler<CounterView, CounterIntent>(screen),
      LogHandler(LogRecorder(recorder: recorder)), StorageHandler(storage))
    main.start()
    await main.idle()
    main.send(IOInput(.increment, nil, nil))
    main.send(IOInput(.increment, nil, nil))
    await main.idle()
    #expect(recorder.all == [.load, .save(4), .log("count: 4"), .save(5), .log("count: 5")])
    #expect(views.all == [.loading, .ready(count: 3), .ready(count: 4), .ready(count: 5)])
    #expect(main.state.count == 5 && !main.state.isSaving)
    main.stop()
  }

  @Test func stopwatchTicksOnTheVirtualClockUntilStoppedAndThenIsOver() async {
    let clock = VirtualClock()
    let executor = SettlingExecutor.acquire()
    defer { executor.release() }
    let main = Main(
      app: IOStopwatch.self,
      handlers: ScreenHandler<StopwatchView, StopwatchIntent>(Screen()),
      TimerHandler(clock: clock), executor: executor)
    main.start()
    main.send(IOInput(.start, nil))
    await executor.quiescence()
    for _ in 0..<3 {
      clock.advance(by: StopwatchApp.tickInterval)
      await executor.quiescence()
    }
    #expect(main.state.tenths == 3)
    main.send(IOInput(.stop, nil))
    await executor.quiescence()
    #expect(clock.sleeperCount == 0)
    // With the timer cancelled nothing is pending: `run()` returns the final state.
    let final = await main.run()
    #expect(final.tenths == 3 && !final.isRunning)
  }
}

/// Views in the order they were shown.
private final class ViewLog<View: Sendable>: Sendable {
  private let views = Lock<[View]>([])
  func append(_ view: View) { views.withLock { $0.append(view) } }
  var all: [View] { views.withLock { $0 } }
}
