extension ShellApp {
  public static var scenarios: [Scenario<ShellApp>] { shellScenarios }

  /// A random program over the three children, tabs, resetAll and the fakes' answers.
  public static func randomProgram(using random: inout SeededRandom) -> Scenario<ShellApp> {
    let load = random.pick([
      (4, FakeStorage.LoadScript.value(Int.random(in: 0...3, using: &random))), (1, .value(nil)),
      (1, .failure), (2, .pending), (1, .value(CounterApp.maximumCount)),
    ])
    let queries = ["ber", "", "par", " ber "]
    var steps: [Step<ShellApp>] = []
    for _ in 0..<Int.random(in: 1...30, using: &random) {
      let tab = ShellTab.allCases.randomElement(using: &random) ?? .counter
      let query = queries.randomElement(using: &random) ?? ""
      let counter = CounterIntent.allCases.randomElement(using: &random) ?? .increment
      let stopwatch = StopwatchIntent.allCases.randomElement(using: &random) ?? .lap
      let id = [berlin.id, bern.id, 99].randomElement(using: &random) ?? 99
      let ms = random.pick([(3, 100), (2, 300), (1, 50), (1, 1_000)])
      let child: ShellIntent = random.pick([
        (3, .counter(counter)), (4, .stopwatch(stopwatch)), (3, .weather(.queryChanged(query))),
        (2, .weather(.select(placeID: id))), (1, .weather(.toggleUnit)), (1, .weather(.retry)),
      ])
      steps.append(
        random.pick([
          (6, .send(child)), (2, .scoped(child)), (2, .send(.select(tab))), (1, .send(.resetAll)),
          (5, .advance(.milliseconds(ms))), (2, .answerSearch(.places([berlin, bern]))),
          (1, .answerSearch(.failure)), (2, .answerForecast(.forecast(sunny))),
          (1, .answerForecast(.failure)), (1, .completeLoad(.value(2))), (1, .failNextSave),
          (1, .observe(tab)),
          (1, .sendFromObserver(.stopwatch(.lap), then: .stopwatch(.lap), times: 1)),
        ]))
    }
    if random.pick([(5, false), (1, true)]) {
      steps += [.stop, .answerSearch(.places([bern])), .advance(.seconds(1))]
    }
    let observed = ShellTab.allCases.filter { _ in random.pick([(1, true), (1, false)]) }
    return Scenario(
      "random shell program", rules: [],
      setup: ShellSetup(load: load, honorsCancellation: random.pick([(3, true), (1, false)])),
      observing: observed, steps: steps)
  }
}

private let berlin = Place(
  id: 1, name: "Berlin", country: "Germany", latitude: 52.52, longitude: 13.41)
private let bern = Place(
  id: 2, name: "Bern", country: "Switzerland", latitude: 46.95, longitude: 7.45)
private let sunny = Forecast(temperature: 12.3, weatherCode: 2, windSpeed: 10.5)

private func stopwatch(_ tenths: Int, running: Bool, laps: [Int] = []) -> StopwatchView {
  StopwatchView(elapsedTenths: tenths, isRunning: running, lapTenths: laps)
}

/// The shell's view of three child views, badges derived as SPEC §6 says.
private func shell(
  _ tab: ShellTab = .counter, counter: CounterView = .ready(count: 0),
  stopwatch: StopwatchView = .initial, weather: WeatherView = .initial, place: String? = nil
) -> ShellView {
  ShellView(tab: tab, counter: counter, stopwatch: stopwatch, weather: weather, placeName: place)
}

private let found = WeatherView(
  query: "ber", rows: [WeatherView.Row(berlin), WeatherView.Row(bern)])
private let loadedBerlin = WeatherView(
  query: "ber", rows: found.rows, selectedPlaceID: 1,
  weather: .loaded(berlin, sunny, unit: .celsius))

private let searchAndLoadBerlin: [Step<ShellApp>] = [
  .send(.weather(.queryChanged("ber"))), .advance(.milliseconds(300)),
  .answerSearch(.places([berlin, bern])), .send(.weather(.select(placeID: 1))),
  .answerForecast(.forecast(sunny)),
]

private let shellScenarios: [Scenario<ShellApp>] = [
  Scenario(
    "h6.subscribing-after-stop-calls-nothing", rules: [.h6, .r6, .r11],
    steps: [
      .send(.counter(.increment)), .stop, .observe(.counter), .observe(.stopwatch),
      .observe(.weather), .expectChildViews(.counter, []), .expectChildViews(.weather, []),
    ]),
  Scenario(
    "h1.initial", rules: [.h1, .r1, .r11], setup: ShellSetup(load: .pending),
    observing: [.counter, .stopwatch, .weather],
    steps: [
      .expectStepViews([.initial]), .expectView(.initial),
      .expectChildViews(.counter, [.counter(.loading)]),
      .expectChildViews(.stopwatch, [.stopwatch(.initial)]),
      .expectChildViews(.weather, [.weather(.initial)]),
      .expectCalls([.load]), .expectSleepers(0),
    ]),
  Scenario(
    "h1.load-answer-is-a-later-view", rules: [.h1, .c2], setup: ShellSetup(load: .value(3)),
    observing: [.counter],
    steps: [
      .expectStepViews([.initial, shell(counter: .ready(count: 3))]),
      .expectChildViews(.counter, [.counter(.loading), .counter(.ready(count: 3))]),
      .expectCalls([.load]),
    ]),
  Scenario(
    "h1.counter-badge-shows-zero", rules: [.h1],
    steps: [.expectView(ShellView(counterBadge: "0", counter: .ready(count: 0)))]),
  Scenario(
    "h2.counter-rules-hold-inside", rules: [.h2, .c4, .c5, .c6], setup: ShellSetup(load: .value(1)),
    steps: [
      .send(.counter(.increment)), .failNextSave, .send(.counter(.decrement)),
      .send(.counter(.decrement)), .send(.counter(.decrement)),
      .expectView(shell(counter: .ready(count: 0))),
      .expectCalls([
        .load, .save(2), .log("count: 2"), .save(1), .log(CounterApp.saveFailedMessage),
        .save(0), .log("count: 0"),
      ]),
    ]),
  Scenario(
    "h2.stopwatch-rules-hold-inside", rules: [.h2, .s2, .s3, .s8],
    steps: [
      .send(.stopwatch(.start)), .advance(.seconds(1)), .send(.stopwatch(.start)),
      .expectSleepers(1), .send(.stopwatch(.stop)), .advance(.seconds(1)),
      .expectView(
        ShellView(
          counterBadge: "0", counter: .ready(count: 0), stopwatch: stopwatch(10, running: false))),
    ]),
  Scenario(
    "h2.weather-rules-hold-inside", rules: [.h2, .w2, .w6, .w7, .w9],
    steps: searchAndLoadBerlin + [
      .expectView(shell(weather: loadedBerlin, place: "Berlin")),
      .send(.weather(.toggleUnit)),
      .expectView(
        shell(
          weather: WeatherView(
            query: "ber", rows: found.rows, selectedPlaceID: 1,
            weather: .loaded(berlin, sunny, unit: .fahrenheit), unit: .fahrenheit),
          place: "Berlin")),
      .expectCalls([.load, .search("ber"), .forecast(placeID: 1)]),
    ]),
  Scenario(
    "h2.intents-reach-children-on-any-tab", rules: [.h2, .h3],
    steps: [
      .send(.select(.weather)), .send(.counter(.increment)), .send(.stopwatch(.start)),
      .expectView(
        ShellView(
          tab: .weather, counterBadge: "1", stopwatchBadge: "running", counter: .ready(count: 1),
          stopwatch: stopwatch(0, running: true))),
      .expectCalls([.load, .save(1), .log("count: 1")]),
    ]),
  Scenario(
    "h3.select-only-changes-the-tab", rules: [.h3, .r11],
    observing: [.counter, .stopwatch, .weather],
    steps: [
      .send(.select(.stopwatch)), .expectStepViews([shell(.stopwatch)]),
      .expectChildViews(.counter, []), .expectChildViews(.stopwatch, []),
      .expectChildViews(.weather, []), .send(.select(.stopwatch)), .expectStepViews([]),
      .expectNotifications(0), .expectCalls([.load]),
    ]),
  Scenario(
    "h3.hidden-children-go-on", rules: [.h3, .s8, .w2],
    observing: [.stopwatch],
    steps: [
      .send(.stopwatch(.start)), .send(.weather(.queryChanged("ber"))), .send(.select(.counter)),
      .advance(.milliseconds(300)),
      .expectChildViews(
        .stopwatch,
        [
          .stopwatch(stopwatch(1, running: true)), .stopwatch(stopwatch(2, running: true)),
          .stopwatch(stopwatch(3, running: true)),
        ]),
      .expectCalls([.load, .search("ber")]),
      .send(.select(.weather)), .send(.select(.stopwatch)), .advance(.milliseconds(100)),
      .expectView(
        ShellView(
          tab: .stopwatch, counterBadge: "0", stopwatchBadge: "running", counter: .ready(count: 0),
          stopwatch: stopwatch(4, running: true),
          weather: WeatherView(query: "ber", status: .searching))),
      .expectSleepers(1), .expectCalls([]),
    ]),
  Scenario(
    "h3.hidden-load-lands", rules: [.h3, .h1], setup: ShellSetup(load: .pending),
    steps: [
      .send(.select(.weather)), .completeLoad(.value(5)),
      .expectView(shell(.weather, counter: .ready(count: 5))), .expectCalls([.load]),
    ]),
  Scenario(
    "h4.lap-increments-the-counter-in-one-view", rules: [.h4, .r11],
    observing: [.counter, .stopwatch],
    steps: [
      .send(.stopwatch(.start)), .advance(.milliseconds(200)), .send(.stopwatch(.lap)),
      .expectStepViews([
        shell(counter: .ready(count: 1), stopwatch: stopwatch(2, running: true, laps: [2]))
      ]),
      .expectChildViews(.counter, [.counter(.ready(count: 1))]),
      .expectChildViews(.stopwatch, [.stopwatch(stopwatch(2, running: true, laps: [2]))]),
      .expectCalls([.load, .save(1), .log("count: 1")]),
    ]),
  Scenario(
    "h4.lap-while-stopped-changes-nothing", rules: [.h4, .s5],
    steps: [
      .send(.stopwatch(.lap)), .expectStepViews([]), .expectCalls([.load]),
    ]),
  Scenario(
    "h4.lap-while-loading-drops-the-increment", rules: [.h4, .c3],
    setup: ShellSetup(load: .pending),
    steps: [
      .send(.stopwatch(.start)), .send(.stopwatch(.lap)), .completeLoad(.value(4)),
      .expectView(
        ShellView(
          counterBadge: "4", stopwatchBadge: "running", counter: .ready(count: 4),
          stopwatch: stopwatch(0, running: true, laps: [0]))),
      .expectCalls([.load]),
    ]),
  Scenario(
    "h4.lap-at-cap-drops-the-increment", rules: [.h4, .c4],
    setup: ShellSetup(load: .value(CounterApp.maximumCount)),
    steps: [
      .send(.stopwatch(.start)), .send(.stopwatch(.lap)),
      .expectView(
        shell(
          counter: .ready(count: CounterApp.maximumCount),
          stopwatch: stopwatch(0, running: true, laps: [0]))),
      .expectCalls([.load]),
    ]),
  Scenario(
    "h4.scoped-lap-is-the-shells-lap", rules: [.h4, .r11, .r12],
    steps: [
      .scoped(.stopwatch(.start)), .scoped(.stopwatch(.lap)),
      .expectView(
        shell(counter: .ready(count: 1), stopwatch: stopwatch(0, running: true, laps: [0]))),
      .expectCalls([.load, .save(1), .log("count: 1")]),
    ]),
  Scenario(
    "h5.reset-all-in-one-message", rules: [.h5, .r11], setup: ShellSetup(load: .value(2)),
    observing: [.counter, .stopwatch, .weather],
    steps: searchAndLoadBerlin + [
      .send(.weather(.toggleUnit)), .send(.stopwatch(.start)), .advance(.milliseconds(100)),
      .send(.weather(.queryChanged("bern"))), .advance(.milliseconds(300)),
      .send(.select(.weather)),
      .expectCalls([.load, .search("ber"), .forecast(placeID: 1), .search("bern")]),
      .send(.resetAll),
      .expectStepViews([
        ShellView(
          tab: .weather, counterBadge: "0", counter: .ready(count: 0),
          weather: WeatherView(unit: .fahrenheit))
      ]),
      .expectChildViews(.counter, [.counter(.ready(count: 0))]),
      .expectChildViews(.stopwatch, [.stopwatch(.initial)]),
      .expectChildViews(.weather, [.weather(WeatherView(unit: .fahrenheit))]),
      .expectCalls([.cancelled(.search("bern")), .save(0), .log("count: 0")]),
      .expectSleepers(0), .answerSearch(.places([bern])), .advance(.seconds(1)),
      .expectView(
        ShellView(
          tab: .weather, counterBadge: "0", counter: .ready(count: 0),
          weather: WeatherView(unit: .fahrenheit))),
    ]),
  Scenario(
    "h5.reset-all-cancels-debounce-and-forecast", rules: [.h5, .w2, .w6],
    steps: [
      .send(.weather(.queryChanged("ber"))), .advance(.milliseconds(300)),
      .answerSearch(.places([berlin, bern])), .send(.weather(.select(placeID: 2))),
      .send(.weather(.queryChanged("be"))), .send(.resetAll),
      .expectCalls([
        .load, .search("ber"), .forecast(placeID: 2), .cancelled(.forecast(placeID: 2)),
      ]),
      .advance(.seconds(1)), .send(.weather(.queryChanged("ber"))), .advance(.milliseconds(300)),
      .expectCalls([.search("ber")]),
    ]),
  Scenario(
    "h5.reset-all-leaves-a-loading-counter", rules: [.h5, .c3], setup: ShellSetup(load: .pending),
    steps: [
      .send(.stopwatch(.start)), .send(.resetAll), .completeLoad(.value(6)),
      .expectView(shell(counter: .ready(count: 6))), .expectCalls([.load]),
    ]),
  Scenario(
    "h5.reset-all-that-changes-nothing", rules: [.h5, .r10],
    steps: [
      .send(.select(.stopwatch)), .send(.resetAll), .expectStepViews([]), .expectNotifications(0),
      .expectCalls([.load]),
    ]),
  Scenario(
    "h6.stop-stops-every-child", rules: [.h6, .r6, .r5], setup: ShellSetup(load: .pending),
    observing: [.counter, .stopwatch, .weather],
    steps: [
      .send(.stopwatch(.start)), .send(.weather(.queryChanged("ber"))),
      .advance(.milliseconds(300)), .send(.weather(.queryChanged("berl"))), .stop,
      .expectCalls([.load, .search("ber"), .cancelled(.load), .cancelled(.search("ber"))]),
      .completeLoad(.value(3)), .answerSearch(.places([berlin])), .advance(.seconds(2)),
      .send(.counter(.increment)), .send(.resetAll), .expectChildViews(.counter, []),
      .expectCalls([]), .expectSleepers(0),
    ]),
  Scenario(
    "h6.late-answers-after-stop-are-ignored", rules: [.h6, .r6, .r5],
    setup: ShellSetup(load: .pending, honorsCancellation: false),
    steps: [
      .send(.weather(.queryChanged("ber"))), .advance(.milliseconds(300)), .stop,
      .completeLoad(.value(3)), .answerSearch(.places([berlin])),
      .expectView(shell(counter: .loading, weather: WeatherView(query: "ber", status: .searching))),
      .expectCalls([.load, .search("ber"), .cancelled(.load), .cancelled(.search("ber"))]),
    ]),
  Scenario(
    "h6.release-cancels-everything", rules: [.h6, .r6], setup: ShellSetup(load: .pending),
    steps: [
      .send(.stopwatch(.start)), .send(.weather(.queryChanged("ber"))),
      .advance(.milliseconds(300)), .release,
      .expectCalls([.load, .search("ber"), .cancelled(.load), .cancelled(.search("ber"))]),
      .expectSleepers(0),
    ]),
  Scenario(
    "r11.child-observers-see-only-their-child", rules: [.r11],
    observing: [.counter, .weather],
    steps: [
      .send(.stopwatch(.start)), .advance(.seconds(1)), .expectChildViews(.counter, []),
      .expectChildViews(.weather, []), .send(.counter(.increment)),
      .expectChildViews(.counter, [.counter(.ready(count: 1))]), .expectChildViews(.weather, []),
      .observe(.stopwatch),
      .expectChildViews(.stopwatch, [.stopwatch(stopwatch(10, running: true))]),
    ]),
  Scenario(
    "r2.observer-sends-are-queued", rules: [.r2, .h4],
    steps: [
      .send(.stopwatch(.start)),
      .sendFromObserver(.stopwatch(.lap), then: .stopwatch(.lap), times: 50),
      .expectView(
        shell(
          counter: .ready(count: 51),
          stopwatch: stopwatch(0, running: true, laps: Array(repeating: 0, count: 51)))),
    ]),
  Scenario(
    "r3.concurrent-sends", rules: [.r3],
    steps: [
      .sendConcurrently(.counter(.increment), senders: 4, each: 100),
      .expectView(shell(counter: .ready(count: 400))),
    ]),
]
