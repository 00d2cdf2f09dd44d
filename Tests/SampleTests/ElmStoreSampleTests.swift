import ArchitectureSpec
import ElmStore
import ElmStoreSamples
import ElmStoreTesting
import Testing

/// The ElmStore samples under ElmStore's own testing tool: how a user of the package tests an
/// app, step by step, next to the conformance kit's black-box scenarios.
@Suite struct ElmStoreSamplesUnderTestStore {
  @Test func counterLoadsSavesInOrderAndLogs() async {
    let recorder = CallRecorder()
    let storage = FakeStorage(load: .value(4), recorder: recorder)
    let environment = CounterEnvironment(storage: storage, log: LogRecorder(recorder: recorder))
    let store = TestStore(
      initialState: ElmCounter.State(), update: ElmCounter.update,
      effect: ElmCounter.effect(environment))

    await store.send(.load)
    await store.receive(.loaded(4)) {
      $0.isLoaded = true
      $0.count = 4
    }
    await store.send(.intent(.increment)) {
      $0.count = 5
      $0.countToSave = 5
    }
    await store.receive(.saved(5)) { $0.countToSave = nil }
    #expect(recorder.drain() == [.load, .save(5), .log(CounterApp.savedMessage(5))])

    storage.failNextSave()
    await store.send(.intent(.decrement)) {
      $0.count = 4
      $0.countToSave = 4
    }
    await store.receive(.saveFailed) {
      $0.countToSave = nil
      $0.lastSaveFailed = true
    }
    #expect(recorder.drain() == [.save(4), .log(CounterApp.saveFailedMessage)])
    // The saver runs until the store stops; a counter test says so rather than leaving it.
    store.exhaustivity = .off
    await store.finish()
  }

  @Test func contactsDismissalEndsTheChildsWorkWithoutTheAppCancellingIt() async {
    let recorder = CallRecorder()
    let service = FakeContactsService(recorder: recorder, holdsCalls: true)
    let ann = Contact(id: 1, name: "Ann")
    let store = TestStore(
      initialState: ElmContacts.State(contacts: [ann], launchPath: []),
      update: ElmContacts.update, effect: ElmContacts.effect(service))

    // The sheet: a save in flight, then the form is cancelled.
    await store.send(.intent(.addTapped)) {
      $0.presentations = 1
      $0.form = ElmAddForm.State(id: 1)
    }
    await store.send(.form(.intent(.nameChanged("Bo")))) { $0.form?.name = "Bo" }
    await store.send(.form(.intent(.save))) {
      $0.form?.isSaving = true
      $0.form?.titleToCreate = "Bo"
    }
    await store.send(.form(.intent(.cancel)), dismissing: \.form) { $0.form = nil }
    #expect(store.endedByLastDismissal == ["\\State.form #1 › create"])
    #expect(recorder.drain() == [.create("Bo"), .cancelled(.create("Bo"))])

    // The stack: a screen loading, then popped.
    await store.send(.intent(.open(contactID: 1))) {
      $0.stack.append(ElmContactScreen.State(contact: ann), id: 1)
      $0.nextScreenID = 2
      $0.screensToLoad = [1]
    }
    await store.send(.intent(.back), dismissing: \.stack[id: 1]) {
      $0.stack.remove(id: 1)
      $0.screensToLoad = []
    }
    #expect(store.endedByLastDismissal == ["\\State.stack[1] › details"])
    #expect(recorder.drain() == [.details(1), .cancelled(.details(1))])
    await store.finish()
  }

  @Test func counterIgnoresIntentsBeforeLoading() async {
    let recorder = CallRecorder()
    let storage = FakeStorage(load: .pending, recorder: recorder)
    let environment = CounterEnvironment(storage: storage, log: LogRecorder(recorder: recorder))
    let store = TestStore(
      initialState: ElmCounter.State(), update: ElmCounter.update,
      effect: ElmCounter.effect(environment))

    await store.send(.load)
    await store.send(.intent(.increment))
    #expect(storage.completeLoad(.failure))
    await store.receive(.loadFailed) { $0.isLoaded = true }
    #expect(recorder.drain().last == .log(CounterApp.unreadableCountMessage))
    store.exhaustivity = .off
    await store.finish()
  }

  @Test func stopwatchTicksOnTheVirtualClockAndStopsItsTimer() async {
    let clock = VirtualClock()
    let store = TestStore(
      initialState: ElmStopwatch.State(), update: ElmStopwatch.update,
      effect: ElmStopwatch.effect(StopwatchEnvironment(clock: clock)))

    await store.send(.intent(.start)) { $0.isRunning = true }
    // A second start keeps the running timer: one tick per interval, never two.
    await store.send(.intent(.start))
    clock.advance(by: StopwatchApp.tickInterval)
    await store.receive(.tick) { $0.tenths = 1 }
    await store.send(.intent(.lap)) { $0.laps = [1] }
    clock.advance(by: StopwatchApp.tickInterval)
    await store.receive(.tick) { $0.tenths = 2 }
    await store.send(.intent(.stop)) { $0.isRunning = false }
    #expect(clock.sleeperCount == 0)
    await store.send(.intent(.reset)) {
      $0.tenths = 0
      $0.laps = []
    }
    // Exhaustive: no tick is left unreceived and no timer is left running.
    await store.finish()
  }

  @Test func weatherSearchesTheLastQueryOnlyAndShowsTheForecast() async {
    let recorder = CallRecorder()
    let clock = VirtualClock()
    let service = FakeWeatherService(recorder: recorder)
    let store = TestStore(
      initialState: ElmWeather.State(), update: ElmWeather.update,
      effect: ElmWeather.effect(WeatherEnvironment(service: service, clock: clock)))
    let paris = Place(id: 1, name: "Paris", country: "France", latitude: 48.85, longitude: 2.35)
    let forecast = Forecast(temperature: 18.5, weatherCode: 1, windSpeed: 3)

    await store.send(.intent(.queryChanged("Par"))) {
      $0.query = "Par"
      $0.request = .debounce(term: "Par")
    }
    await store.send(.intent(.queryChanged("Paris"))) {
      $0.query = "Paris"
      $0.request = .debounce(term: "Paris")
    }
    clock.advance(by: WeatherApp.debounce)
    // Non-exhaustive for one step: `lastSearch` is the update's bookkeeping, not the test's.
    store.exhaustivity = .off
    await store.receive(.debounced(term: "Paris")) {
      $0.status = .searching
      $0.request = .search(term: "Paris")
    }
    store.exhaustivity = .on
    #expect(recorder.drain() == [.search("Paris")])

    service.answerSearch(term: "Paris", with: .success([paris]))
    await store.receive(.searched([paris])) {
      $0.places = [paris]
      $0.status = .idle
      $0.request = nil
    }
    await store.send(.intent(.select(placeID: paris.id))) {
      $0.selected = paris
      $0.weather = .loading
      $0.request = .forecast(paris)
    }
    service.answerForecast(placeID: paris.id, with: .success(forecast))
    await store.receive(.forecasted(forecast)) {
      $0.weather = .loaded(forecast)
      $0.request = nil
    }
    await store.finish()
  }
}
