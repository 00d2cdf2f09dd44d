extension WeatherApp {
  public static var scenarios: [Scenario<WeatherApp>] { weatherScenarios }

  public static func randomProgram(using random: inout SeededRandom) -> Scenario<WeatherApp> {
    let queries = [
      "ber", "Ber", " ber ", "bern", "", "  ", "par", "b", String(repeating: "x", count: 120),
    ]
    let results: [SearchAnswer] = [
      .places([berlin, bern]), .places([bern]), .places([]), .failure, .places(manyPlaces),
    ]
    var steps: [Step<WeatherApp>] = []
    for _ in 0..<Int.random(in: 1...30, using: &random) {
      let query = queries.randomElement(using: &random) ?? ""
      let answer = results.randomElement(using: &random) ?? .failure
      let forecast = random.pick([
        (3, ForecastAnswer.forecast(sunny)), (1, .forecast(frosty)), (1, .failure),
      ])
      let id = [berlin.id, bern.id, paris.id, 99].randomElement(using: &random) ?? 99
      let ms = random.pick([(3, 300), (2, 100), (1, 299), (1, 1_000), (1, 0)])
      steps.append(
        random.pick([
          (5, .send(.queryChanged(query))), (5, .advance(.milliseconds(ms))),
          (4, .answerSearch(answer)),
          (3, .send(.select(placeID: id))), (3, .answerForecast(forecast)), (1, .send(.retry)),
          (1, .send(.toggleUnit)),
        ]))
    }
    if random.pick([(5, false), (1, true)]) { steps += [.stop, .answerSearch(.places([paris]))] }
    let honors = random.pick([(3, true), (1, false)])
    return Scenario(
      "random weather program", rules: [], setup: BasicSetup(honorsCancellation: honors),
      steps: steps)
  }
}

private let berlin = Place(
  id: 1, name: "Berlin", country: "Germany", latitude: 52.52, longitude: 13.41)
private let bern = Place(
  id: 2, name: "Bern", country: "Switzerland", latitude: 46.95, longitude: 7.45)
private let paris = Place(id: 3, name: "Paris", country: "France", latitude: 48.85, longitude: 2.35)
private let manyPlaces = (10...21).map {
  Place(id: $0, name: "Town \($0)", country: "Land", latitude: 0, longitude: 0)
}
private let sunny = Forecast(temperature: 12.3, weatherCode: 2, windSpeed: 10.5)
private let frosty = Forecast(temperature: -0.05, weatherCode: 71, windSpeed: 3.25)

private func rows(_ places: [Place]) -> [WeatherView.Row] { places.map(WeatherView.Row.init) }

/// The view after `ber` was searched and answered with Berlin and Bern.
private let found = WeatherView(query: "ber", rows: rows([berlin, bern]))

/// Steps that search `ber` and answer with Berlin and Bern.
private let searchBer: [Step<WeatherApp>] = [
  .send(.queryChanged("ber")), .advance(.milliseconds(300)),
  .answerSearch(.places([berlin, bern])),
]

private func with(_ view: WeatherView, _ change: (inout WeatherView) -> Void) -> WeatherView {
  var view = view
  change(&view)
  return view
}

private let weatherScenarios: [Scenario<WeatherApp>] = [
  Scenario(
    "w1.initial", rules: [.w1, .r1],
    steps: [
      .expectView(
        WeatherView(
          query: "", status: .idle, rows: [], selectedPlaceID: nil, weather: .none, unit: .celsius)),
      .expectCalls([]),
    ]),
  Scenario(
    "w2.query-shown-verbatim-search-debounced", rules: [.w2, .r8],
    steps: [
      .send(.queryChanged("  Ber  ")), .expectView(WeatherView(query: "  Ber  ")),
      .advance(.milliseconds(299)), .expectCalls([]), .advance(.milliseconds(1)),
      .expectView(WeatherView(query: "  Ber  ", status: .searching)),
      .expectCalls([.search("Ber")]),
    ]),
  Scenario(
    "w2.debounce-restarts-on-change", rules: [.w2],
    steps: [
      .send(.queryChanged("B")), .advance(.milliseconds(200)), .send(.queryChanged("Be")),
      .advance(.milliseconds(200)), .expectCalls([]), .advance(.milliseconds(100)),
      .expectCalls([.search("Be")]),
    ]),
  Scenario(
    "w2.term-cut-to-100-characters", rules: [.w2],
    steps: [
      .send(.queryChanged(" " + String(repeating: "a", count: 150))), .advance(.milliseconds(300)),
      .expectCalls([.search(String(repeating: "a", count: 100))]),
    ]),
  Scenario(
    "w2.empty-term-cancels-debounce", rules: [.w2],
    steps: [
      .send(.queryChanged("ber")), .advance(.milliseconds(100)), .send(.queryChanged("   ")),
      .advance(.seconds(1)), .expectCalls([]), .expectView(WeatherView(query: "   ")),
    ]),
  Scenario(
    "w2.empty-term-cancels-search-and-clears", rules: [.w2, .r5],
    steps: searchBer + [
      .send(.queryChanged("bern")), .advance(.milliseconds(300)), .send(.queryChanged("")),
      .expectView(WeatherView(query: "")),
      .expectCalls([.search("ber"), .search("bern"), .cancelled(.search("bern"))]),
    ]),
  Scenario(
    "w2.empty-term-forgets-last-search", rules: [.w2, .w3],
    steps: searchBer + [
      .send(.queryChanged("")), .send(.queryChanged("ber")), .advance(.milliseconds(300)),
      .expectCalls([.search("ber"), .search("ber")]),
    ]),
  Scenario(
    "w2.rows-stay-while-searching", rules: [.w2],
    steps: searchBer + [
      .send(.queryChanged("bern")), .advance(.milliseconds(300)),
      .expectView(
        with(found) {
          $0.query = "bern"
          $0.status = .searching
        }),
      .answerSearch(.places([bern])), .expectView(WeatherView(query: "bern", rows: rows([bern]))),
    ]),
  Scenario(
    "w3.same-term-after-success-not-repeated", rules: [.w3],
    steps: searchBer + [
      .send(.queryChanged(" ber ")), .advance(.milliseconds(300)), .expectCalls([.search("ber")]),
      .expectView(with(found) { $0.query = " ber " }),
    ]),
  Scenario(
    "w3.same-term-in-flight-not-repeated", rules: [.w3],
    steps: [
      .send(.queryChanged("ber")), .advance(.milliseconds(300)), .send(.queryChanged("berl")),
      .advance(.milliseconds(100)), .send(.queryChanged("ber")), .advance(.milliseconds(300)),
      .expectCalls([.search("ber")]), .expectView(WeatherView(query: "ber", status: .searching)),
    ]),
  Scenario(
    "w3.same-term-after-failure-repeated", rules: [.w3, .r9],
    steps: [
      .send(.queryChanged("ber")), .advance(.milliseconds(300)), .answerSearch(.failure),
      .expectView(WeatherView(query: "ber", status: .failed)),
      .send(.queryChanged("ber ")), .advance(.milliseconds(300)),
      .expectCalls([.search("ber"), .search("ber")]),
    ]),
  Scenario(
    "w4.new-search-cancels-previous", rules: [.w4, .r5],
    steps: [
      .send(.queryChanged("ber")), .advance(.milliseconds(300)), .send(.queryChanged("bern")),
      .advance(.milliseconds(300)),
      .expectCalls([.search("ber"), .cancelled(.search("ber")), .search("bern")]),
      .answerSearch(.places([bern])), .expectView(WeatherView(query: "bern", rows: rows([bern]))),
    ]),
  Scenario(
    "w4.late-result-of-superseded-search-ignored", rules: [.w4, .r5],
    setup: BasicSetup(honorsCancellation: false),
    steps: [
      .send(.queryChanged("ber")), .advance(.milliseconds(300)), .send(.queryChanged("bern")),
      .advance(.milliseconds(300)), .answerSearch(term: "ber", .places([berlin])),
      .expectView(WeatherView(query: "bern", status: .searching)),
      .answerSearch(term: "bern", .places([bern])),
      .expectView(WeatherView(query: "bern", rows: rows([bern]))),
    ]),
  Scenario(
    "w5.rows-in-service-order-at-most-ten", rules: [.w5],
    steps: [
      .send(.queryChanged("town")), .advance(.milliseconds(300)),
      .answerSearch(.places(manyPlaces)),
      .expectView(WeatherView(query: "town", rows: rows(Array(manyPlaces.prefix(10))))),
    ]),
  Scenario(
    "w5.no-results", rules: [.w5],
    steps: searchBer + [
      .send(.queryChanged("xyz")), .advance(.milliseconds(300)), .answerSearch(.places([])),
      .expectView(WeatherView(query: "xyz", status: .noResults)),
    ]),
  Scenario(
    "w5.failed-search-clears-rows", rules: [.w5, .r9],
    steps: searchBer + [
      .send(.queryChanged("bern")), .advance(.milliseconds(300)), .answerSearch(.failure),
      .expectView(WeatherView(query: "bern", status: .failed)),
    ]),
  Scenario(
    "w6.select-requests-forecast", rules: [.w6],
    steps: searchBer + [
      .send(.select(placeID: 1)),
      .expectView(
        with(found) {
          $0.selectedPlaceID = 1
          $0.weather = .loading(berlin)
        }),
      .expectCalls([.search("ber"), .forecast(placeID: 1)]),
    ]),
  Scenario(
    "w6.unknown-place-ignored", rules: [.w6],
    steps: searchBer + [
      .send(.select(placeID: 3)), .expectView(found), .expectCalls([.search("ber")]),
    ]),
  Scenario(
    "w6.same-place-not-requested-again", rules: [.w6],
    steps: searchBer + [
      .send(.select(placeID: 1)), .send(.select(placeID: 1)), .answerForecast(.forecast(sunny)),
      .send(.select(placeID: 1)), .expectCalls([.search("ber"), .forecast(placeID: 1)]),
    ]),
  Scenario(
    "w6.other-place-cancels-forecast", rules: [.w6, .r5],
    steps: searchBer + [
      .send(.select(placeID: 1)), .send(.select(placeID: 2)),
      .expectCalls([
        .search("ber"), .forecast(placeID: 1), .cancelled(.forecast(placeID: 1)),
        .forecast(placeID: 2),
      ]),
      .expectView(
        with(found) {
          $0.selectedPlaceID = 2
          $0.weather = .loading(bern)
        }),
    ]),
  Scenario(
    "w6.late-forecast-of-other-place-ignored", rules: [.w6, .r5],
    setup: BasicSetup(honorsCancellation: false),
    steps: searchBer + [
      .send(.select(placeID: 1)), .send(.select(placeID: 2)),
      .answerForecast(placeID: 1, .forecast(sunny)),
      .expectView(
        with(found) {
          $0.selectedPlaceID = 2
          $0.weather = .loading(bern)
        }),
      .answerForecast(placeID: 2, .forecast(sunny)),
      .expectView(
        with(found) {
          $0.selectedPlaceID = 2
          $0.weather = .loaded(bern, sunny, unit: .celsius)
        }),
    ]),
  Scenario(
    "w7.forecast-text", rules: [.w7],
    steps: searchBer + [
      .send(.select(placeID: 1)), .answerForecast(.forecast(sunny)),
      .expectView(
        with(found) {
          $0.selectedPlaceID = 1
          $0.weather = WeatherView.Weather(
            kind: .loaded, text: "Berlin: 12.3°C, Partly cloudy, wind 10.5 km/h")
        }),
    ]),
  Scenario(
    "w7.rounding-half-away-from-zero", rules: [.w7],
    steps: searchBer + [
      .send(.select(placeID: 2)), .answerForecast(.forecast(frosty)),
      .expectView(
        with(found) {
          $0.selectedPlaceID = 2
          $0.weather = WeatherView.Weather(kind: .loaded, text: "Bern: -0.1°C, Snow, wind 3.3 km/h")
        }),
    ]),
  Scenario(
    "w7.forecast-failure", rules: [.w7, .r9],
    steps: searchBer + [
      .send(.select(placeID: 1)), .answerForecast(.failure),
      .expectView(
        with(found) {
          $0.selectedPlaceID = 1
          $0.weather = .failed(berlin)
        }),
    ]),
  Scenario(
    "w8.retry-after-failure", rules: [.w8],
    steps: searchBer + [
      .send(.select(placeID: 1)), .answerForecast(.failure), .send(.retry),
      .expectView(
        with(found) {
          $0.selectedPlaceID = 1
          $0.weather = .loading(berlin)
        }),
      .answerForecast(.forecast(sunny)), .send(.retry),
      .expectCalls([.search("ber"), .forecast(placeID: 1), .forecast(placeID: 1)]),
    ]),
  Scenario(
    "w8.retry-ignored-otherwise", rules: [.w8],
    steps: searchBer + [
      .send(.retry), .send(.select(placeID: 1)), .send(.retry),
      .expectCalls([.search("ber"), .forecast(placeID: 1)]),
    ]),
  Scenario(
    "w9.toggle-unit-re-renders", rules: [.w9],
    steps: searchBer + [
      .send(.select(placeID: 1)), .answerForecast(.forecast(sunny)), .send(.toggleUnit),
      .expectView(
        with(found) {
          $0.selectedPlaceID = 1
          $0.unit = .fahrenheit
          $0.weather = WeatherView.Weather(
            kind: .loaded, text: "Berlin: 54.1°F, Partly cloudy, wind 10.5 km/h")
        }),
      .send(.toggleUnit), .expectCalls([.search("ber"), .forecast(placeID: 1)]),
    ]),
  Scenario(
    "w9.fahrenheit-rounds-in-exact-decimal", rules: [.w9, .w7],
    steps: searchBer + [
      .send(.select(placeID: 1)),
      .answerForecast(.forecast(Forecast(temperature: 12.25, weatherCode: 0, windSpeed: 0.05))),
      .send(.toggleUnit),
      .expectView(
        with(found) {
          $0.selectedPlaceID = 1
          $0.unit = .fahrenheit
          // 12.25 × 9/5 + 32 = 54.05 exactly: half away from zero is 54.1 (binary gives 54.0).
          $0.weather = WeatherView.Weather(
            kind: .loaded, text: "Berlin: 54.1°F, Clear sky, wind 0.1 km/h")
        }),
      .send(.select(placeID: 2)),
      .answerForecast(.forecast(Forecast(temperature: -17.75, weatherCode: 0, windSpeed: 1))),
      .expectView(
        with(found) {
          $0.selectedPlaceID = 2
          $0.unit = .fahrenheit
          $0.weather = WeatherView.Weather(
            kind: .loaded, text: "Bern: 0.1°F, Clear sky, wind 1.0 km/h")
        }),
    ]),
  Scenario(
    "w7.numbers-in-plain-digits-never-negative-zero", rules: [.w7, .w9],
    steps: searchBer + [
      .send(.select(placeID: 1)),
      .answerForecast(.forecast(Forecast(temperature: -0.04, weatherCode: 3, windSpeed: 1e-7))),
      .expectView(
        with(found) {
          $0.selectedPlaceID = 1
          $0.weather = WeatherView.Weather(
            kind: .loaded, text: "Berlin: 0.0°C, Overcast, wind 0.0 km/h")
        }),
      .send(.select(placeID: 2)),
      .answerForecast(.forecast(Forecast(temperature: -17.8, weatherCode: 3, windSpeed: 1e20))),
      .send(.toggleUnit),
      .expectView(
        with(found) {
          $0.selectedPlaceID = 2
          $0.unit = .fahrenheit
          $0.weather = WeatherView.Weather(
            kind: .loaded, text: "Bern: 0.0°F, Overcast, wind 100000000000000000000.0 km/h")
        }),
    ]),
  Scenario(
    "w9.query-change-keeps-selection", rules: [.w9],
    steps: searchBer + [
      .send(.select(placeID: 1)), .answerForecast(.forecast(sunny)), .send(.queryChanged("")),
      .expectView(
        WeatherView(query: "", selectedPlaceID: 1, weather: .loaded(berlin, sunny, unit: .celsius))),
    ]),
  Scenario(
    "w10.weather-codes", rules: [.w10],
    steps: searchBer + [
      .send(.select(placeID: 1)),
      .answerForecast(.forecast(Forecast(temperature: 0, weatherCode: 45, windSpeed: 0))),
      .send(.select(placeID: 2)),
      .answerForecast(.forecast(Forecast(temperature: 0, weatherCode: 99, windSpeed: 0))),
      .expectView(
        with(found) {
          $0.selectedPlaceID = 2
          $0.weather = WeatherView.Weather(
            kind: .loaded, text: "Bern: 0.0°C, Thunderstorm with hail, wind 0.0 km/h")
        }),
      .send(.select(placeID: 1)),
      .answerForecast(.forecast(Forecast(temperature: 0, weatherCode: 4, windSpeed: 0))),
      .expectView(
        with(found) {
          $0.selectedPlaceID = 1
          $0.weather = WeatherView.Weather(
            kind: .loaded, text: "Berlin: 0.0°C, Unknown conditions, wind 0.0 km/h")
        }),
    ]),
  Scenario(
    "r4.result-applied-to-present-state", rules: [.r4],
    steps: searchBer + [
      .send(.select(placeID: 1)), .send(.toggleUnit), .send(.queryChanged("be")),
      .answerForecast(.forecast(sunny)),
      .expectView(
        with(found) {
          $0.query = "be"
          $0.selectedPlaceID = 1
          $0.unit = .fahrenheit
          $0.weather = .loaded(berlin, sunny, unit: .fahrenheit)
        }),
    ]),
  Scenario(
    "r6.stop-cancels-in-flight", rules: [.r6, .r5],
    steps: [
      .send(.queryChanged("ber")), .advance(.milliseconds(300)), .stop,
      .expectCalls([.search("ber"), .cancelled(.search("ber"))]),
      .send(.queryChanged("bern")), .advance(.seconds(1)), .expectCalls([]),
      .expectView(WeatherView(query: "ber", status: .searching)),
    ]),
  Scenario(
    "r6.result-after-stop-ignored", rules: [.r6, .r5],
    setup: BasicSetup(honorsCancellation: false),
    steps: [
      .send(.queryChanged("ber")), .advance(.milliseconds(300)), .stop,
      .answerSearch(.places([berlin])), .expectView(WeatherView(query: "ber", status: .searching)),
    ]),
  Scenario(
    "r6.release-cancels-in-flight", rules: [.r6],
    steps: searchBer + [
      .send(.select(placeID: 1)), .send(.queryChanged("bern")), .release,
      .expectCalls([.search("ber"), .forecast(placeID: 1), .cancelled(.forecast(placeID: 1))]),
      .expectSleepers(0),
    ]),
]
