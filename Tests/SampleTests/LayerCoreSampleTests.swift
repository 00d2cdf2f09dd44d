import ArchitectureSpec
import LayerCore
import LayerCoreSamples
import LayerCoreTesting
import Testing

/// The LayerCore samples under LayerCore's testing tool: each core with its real layers and the
/// kit's fakes, checking what each layer's machine got and what it sent back.
@Suite struct LayerCoreSamplesInACoreHarness {
  @Test func counterLoadsThenSavesOneAtATimeAndLogsBeforeTheNextSave() async {
    let recorder = CallRecorder()
    let storage = FakeStorage(load: .pending, recorder: recorder)
    let screen = Screen<CounterView, CounterIntent>(placeholder: .loading)
    let harness = CoreHarness(
      LayerCounter.App(
        screen: screen,
        environment: CounterEnvironment(storage: storage, log: LogRecorder(recorder: recorder))))
    await harness.start()
    screen.send(.increment)  // nothing loaded yet: the reducer skips it
    await harness.settle()
    #expect(screen.view == .loading)
    #expect(storage.completeLoad(.value(41)))
    await harness.settle()
    for _ in 0..<2 {
      screen.send(.increment)
      await harness.settle()
    }
    harness.expect(
      events: [
        .click(.increment), .loaded(41), .click(.increment), .saved(42), .click(.increment),
        .saved(43),
      ])
    #expect(harness.state?.count == 43)
    #expect(screen.view == .ready(count: 43))
    // Layer 2, the storage, gets each state's save request; it acts on each id once.
    harness.expect(
      layer: 2,
      received: [nil, Request(id: 1, 42), nil, Request(id: 3, 43), nil] as [Request<Int>?])
    harness.expect(
      layer: 2, emitted: [.loaded(41), .saved(42), .saved(43)] as [LayerCounter.AppEvent])
    #expect(
      recorder.drain() == [
        .load, .save(42), .log(CounterApp.savedMessage(42)), .save(43),
        .log(CounterApp.savedMessage(43)),
      ])
  }

  @Test func counterLogsAnUnreadableCountAndStartsAtZero() async {
    let recorder = CallRecorder()
    let harness = CoreHarness(
      LayerCounter.App(
        screen: Screen(placeholder: .loading),
        environment: CounterEnvironment(
          storage: FakeStorage(load: .value(-3), recorder: recorder),
          log: LogRecorder(recorder: recorder))))
    await harness.start()
    harness.expect(events: [.loaded(-3)])
    #expect(harness.state?.count == 0)
    #expect(recorder.drain() == [.load, .log(CounterApp.unreadableCountMessage)])
  }

  @Test func stopwatchTicksWhileTheStateSaysATimerRuns() async {
    let clock = VirtualClock()
    let screen = Screen<StopwatchView, StopwatchIntent>(placeholder: .initial)
    let harness = CoreHarness(
      LayerStopwatch.App(screen: screen, environment: StopwatchEnvironment(clock: clock)))
    await harness.start()
    screen.send(.start)
    await harness.settle()
    for _ in 0..<3 {
      clock.advance(by: StopwatchApp.tickInterval)
      await harness.settle()
    }
    screen.send(.stop)
    await harness.settle()
    clock.advance(by: .seconds(1))
    await harness.settle()
    let running = Request(id: 1, 1)
    harness.expect(
      layer: 1, received: [running, running, running, running, nil] as [Request<Int>?])
    harness.expect(
      layer: 1, emitted: Array(repeating: .tick(timer: 1), count: 3) as [LayerStopwatch.AppEvent])
    #expect(screen.view == StopwatchView(elapsedTenths: 3, isRunning: false, lapTenths: []))
    #expect(clock.sleeperCount == 0)
  }

  @Test func weatherDebouncesThenSearchesAndAnEmptyQueryCancelsTheSearch() async {
    let recorder = CallRecorder()
    let clock = VirtualClock()
    let service = FakeWeatherService(recorder: recorder)
    let screen = Screen<WeatherView, WeatherIntent>(placeholder: .initial)
    let harness = CoreHarness(
      LayerWeather.App(
        screen: screen, environment: WeatherEnvironment(service: service, clock: clock)))
    await harness.start()
    screen.send(.queryChanged("Par"))
    screen.send(.queryChanged("Paris"))
    await harness.settle()
    clock.advance(by: WeatherApp.debounce)
    await harness.settle()
    // Layer 1 debounces: the second term replaced the first, so only "Paris" came back.
    harness.expect(
      layer: 1,
      received: [Request(id: 1, "Par"), Request(id: 2, "Paris"), Request(id: 2, "Paris")]
        as [Request<String>?])
    harness.expect(layer: 2, received: [nil, nil, Request(id: 3, "Paris")] as [Request<String>?])
    let paris = Place(id: 7, name: "Paris", country: "France", latitude: 48.9, longitude: 2.4)
    #expect(service.answerSearch(term: "Paris", with: .success([paris])) == "Paris")
    await harness.settle()
    #expect(screen.view.rows == [WeatherView.Row(paris)])

    screen.send(.queryChanged("Rome"))
    await harness.settle()
    clock.advance(by: WeatherApp.debounce)
    await harness.settle()
    screen.send(.queryChanged(""))
    await harness.settle()
    harness.expect(
      layer: 2,
      received: [Request(id: 3, "Paris"), Request(id: 3, "Paris"), Request(id: 5, "Rome"), nil]
        as [Request<String>?])
    #expect(service.pendingCalls == [])
    #expect(screen.view == WeatherView(query: ""))
    #expect(recorder.drain().contains(.cancelled(.search("Rome"))))
  }

  @Test func contactsDismissalEndsTheChildsWorkWithoutTheAppCancellingIt() async {
    let recorder = CallRecorder()
    let service = FakeContactsService(recorder: recorder, holdsCalls: true)
    let ann = Contact(id: 1, name: "Ann")
    let screen = Screen<LayerContacts.ScreenModel, LayerContacts.UIEvent>(
      placeholder: LayerContacts.model(LayerContacts.AppState(contacts: [ann], launchPath: [])))
    let harness = CoreHarness(
      LayerContacts.App(
        screen: screen, screens: LayerContactScreens(),
        environment: ContactsEnvironment(service: service, contacts: [ann])))
    await harness.start()

    // The sheet (layer 2, its first presentation): a save in flight, then the form cancelled.
    await harness.send(.ui(.intent(.addTapped)), .ui(.intent(.form(.nameChanged("Bo")))))
    await harness.send(.ui(.intent(.form(.save))))
    var named = LayerAddForm.State(id: 1)
    named.name = "Bo"
    var saving = named
    saving.isSaving = true
    saving.create = Request(id: 1, "Bo")
    harness.expect(layer: 2, child: 1, received: [LayerAddForm.State(id: 1), named, saving])
    await harness.send(.ui(.intent(.form(.cancel))), dismissing: \.form)
    #expect(harness.endedByLastDismissal == ["layer 2 · 1 › work without an id"])
    #expect(recorder.drain() == [.create("Bo"), .cancelled(.create("Bo"))])

    // The stack (layer 3, one machine per screen): a screen loading, then popped.
    await harness.send(.ui(.intent(.open(contactID: 1))))
    harness.expect(
      layer: 3, child: 1, received: [LayerContactScreen.State(arriving: ann, request: 2)])
    await harness.send(.ui(.intent(.back)), dismissing: \.stack[id: 1])
    #expect(harness.endedByLastDismissal == ["layer 3 · 1 › work without an id"])
    #expect(recorder.drain() == [.details(1), .cancelled(.details(1))])
    harness.expect(layer: 3, child: 1, emitted: [LayerContactScreen.Answer]())
    harness.stop()
  }
}
