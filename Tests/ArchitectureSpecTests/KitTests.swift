import ArchitectureSpec
import Baseline
import Foundation
import Testing

@Suite("The conformance kit")
struct KitTests {
  static let apps = [
    AppDescription(CounterApp.self), AppDescription(StopwatchApp.self),
    AppDescription(WeatherApp.self), AppDescription(TodosApp.self), AppDescription(ShellApp.self),
    AppDescription(ContactsApp.self),
  ]

  static let scenarios: [(app: String, name: String, rules: [Rule])] =
    CounterApp.scenarios.map { ("counter", $0.name, $0.rules) }
    + StopwatchApp.scenarios.map { ("stopwatch", $0.name, $0.rules) }
    + WeatherApp.scenarios.map { ("weather", $0.name, $0.rules) }
    + TodosApp.scenarios.map { ("todos", $0.name, $0.rules) }
    + ShellApp.scenarios.map { ("shell", $0.name, $0.rules) }
    + ContactsApp.scenarios.map { ("contacts", $0.name, $0.rules) }

  @Test func everyRuleHasAScenario() {
    let covered = Set(Self.apps.flatMap(\.rules))
    let missing = Rule.coveredByScenarios.filter { !covered.contains($0) }
    #expect(missing.isEmpty, "rules without a scenario: \(missing)")
  }

  @Test func scenarioNamesAreUniquePerAppAndStartWithARuleTheyCover() {
    let names = Self.scenarios.map { "\($0.app)/\($0.name)" }
    #expect(Set(names).count == names.count)
    for scenario in Self.scenarios.map({ ($0.name, $0.rules) }) {
      let prefix = scenario.0.prefix { $0 != "." }.uppercased()
      #expect(scenario.1.map(\.rawValue).contains(prefix), "\(scenario.0) is tagged \(scenario.1)")
    }
  }

  @Test func aKnownDeviationThatPassesIsAnError() async {
    let scenario = CounterApp.scenarios[0]
    let stale = KnownDeviation(
      architecture: "baseline", app: "counter", scenario: scenario.name, reason: "was broken")
    let report = await Conformance.report(
      Implementation<CounterApp>.baseline, reference: .baseline, scenarios: [scenario],
      knownDeviations: [stale])
    #expect(
      report.failures.map(\.message) == [
        "known deviation no longer reproduces (was broken); remove it from the list"
      ])
  }

  @Test func aKnownDeviationThatFailsIsAccepted() async throws {
    let scenario = try #require(CounterApp.scenarios.first { $0.name == "c5.save-then-log" })
    let known = KnownDeviation(
      architecture: "mutant", app: "counter", scenario: scenario.name, reason: "swapped")
    let report = await Conformance.report(
      Implementation<CounterApp>.baseline(defects: .logsBeforeSaving), reference: .baseline,
      scenarios: [scenario],
      knownDeviations: [known])
    #expect(report.failures.isEmpty)
    #expect(report.knownDeviations == [known])
    #expect(report.passed == 0)
  }

  @Test func expectationsReportTheStepAndTheDifference() async {
    let wrong = Scenario<CounterApp>(
      "c4.wrong", rules: [.c4],
      steps: [.send(.increment), .expectView(.ready(count: 2)), .expectCalls([.load])])
    let result = await ScenarioRunner.run(wrong, on: .baseline)
    #expect(
      result.failures == [
        #"step 2 (expect view Count: 2 [- reset]): view differs: count: expected 2, actual 1; text: expected "Count: 2", actual "Count: 1""#,
        """
        step 3 (expect calls [load]): calls differ:
          calls differ at #2:
            expected [load] (1)
            actual   [load, → save(1), log("count: 1")] (3)
        """,
      ])
  }

  @Test func viewDifferencesUnwrapOptionals() async {
    let wrong = Scenario<WeatherApp>(
      "w1.wrong", rules: [.w1], steps: [.expectView(WeatherView(selectedPlaceID: 3))])
    let result = await ScenarioRunner.run(wrong, on: .baseline)
    #expect(
      result.failures == [
        "step 1 (expect view query \"\", status idle, selected 3, °C): "
          + "view differs: selectedPlaceID: expected 3, actual nil"
      ])
  }

  @Test func traceRoundTripsThroughJSONLines() async throws {
    let scenario = try #require(WeatherApp.scenarios.first { $0.name == "w7.forecast-text" })
    let trace = await ScenarioRunner.run(scenario, on: .baseline).trace
    let lines = trace.jsonLines()
    #expect(lines.split(separator: "\n").count == scenario.steps.filter(\.isAction).count + 1)
    #expect(try Trace<WeatherView>(jsonLines: lines) == trace)
  }

  /// `arch trace` prints the same trace the tests compare: both must equal this golden file.
  @Test func traceMatchesTheGoldenFile() async throws {
    let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Golden/counter.c6.failed-save-keeps-count.jsonl")
    let expected = try String(contentsOf: golden, encoding: .utf8)
    let scenario = try #require(
      CounterApp.scenarios.first { $0.name == "c6.failed-save-keeps-count" })
    let trace = await ScenarioRunner.run(scenario, on: .baseline).trace
    #expect(trace.jsonLines() + "\n" == expected)
  }
}

@Suite("Virtual clock")
struct VirtualClockTests {
  @Test func sleepersWakeInDeadlineOrderTiesInRegistrationOrder() async throws {
    let clock = VirtualClock()
    let executor = SettlingExecutor.acquire()
    defer { executor.release() }
    let woken = Lines()
    for (name, ms) in [("c", 300), ("a", 100), ("b1", 200), ("b2", 200)] {
      Task(executorPreference: executor) {
        try await clock.sleep(until: clock.now.advanced(by: .milliseconds(ms)))
        woken.append(name)
      }
      await executor.quiescence()
    }
    #expect(clock.sleeperCount == 4)
    while clock.wakeNext(notAfter: clock.now.advanced(by: .seconds(1))) {
      await executor.quiescence()
    }
    #expect(woken.all == ["a", "b1", "b2", "c"])
    #expect(clock.now == VirtualClock.Instant(offset: .milliseconds(300)))
  }

  @Test func aDeadlineEqualToNowHasPassed() async throws {
    let clock = VirtualClock()
    clock.advance(by: .seconds(1))
    try await clock.sleep(until: clock.now)
    #expect(clock.sleeperCount == 0)
  }

  @Test func cancellationWakesASleeperWithCancellationError() async throws {
    let clock = VirtualClock()
    let executor = SettlingExecutor.acquire()
    defer { executor.release() }
    let task = Task(executorPreference: executor) {
      try await clock.sleep(for: .seconds(5))
    }
    await executor.quiescence()
    #expect(clock.sleeperCount == 1)
    task.cancel()
    await #expect(throws: CancellationError.self) { try await task.value }
    #expect(clock.sleeperCount == 0)
    let deadline = VirtualClock.Instant(offset: .seconds(5))
    #expect(clock.calls == [.sleep(until: deadline), .cancelled(until: deadline)])
  }

  @Test func advanceMovesTimeEvenWithNoSleepers() {
    let clock = VirtualClock()
    clock.advance(by: .milliseconds(50))
    #expect(clock.now.offset == .milliseconds(50))
  }
}

@Suite("App rules as pure functions")
struct FormatTests {
  @Test(arguments: [
    (0, "0:00.0"), (599, "0:59.9"), (600, "1:00.0"), (36_615, "61:01.5"),
    (5_999_999, "9999:59.9"), (600_000_000_000_007, "1000000000000:00.7"),
  ])
  func stopwatchFormat(tenths: Int, text: String) {
    #expect(StopwatchApp.format(tenths: tenths) == text)
  }

  @Test(arguments: [
    (12.25, "12.3"), (-12.25, "-12.3"), (0.04, "0.0"), (-0.04, "0.0"), (10.5, "10.5"),
    (54.14, "54.1"),
  ])
  func oneDecimalRoundsHalfAwayFromZero(value: Double, text: String) {
    #expect(WeatherApp.oneDecimal(value) == text)
  }

  @Test(arguments: [
    (0, "Clear sky"), (1, "Mainly clear"), (2, "Partly cloudy"), (3, "Overcast"), (45, "Fog"),
    (48, "Fog"),
    (51, "Drizzle"), (55, "Drizzle"), (56, "Freezing drizzle"), (61, "Rain"), (66, "Freezing rain"),
    (71, "Snow"), (77, "Snow grains"), (80, "Rain showers"), (85, "Snow showers"),
    (95, "Thunderstorm"),
    (96, "Thunderstorm with hail"), (99, "Thunderstorm with hail"), (4, "Unknown conditions"),
    (-1, "Unknown conditions"),
  ])
  func weatherCodes(code: Int, text: String) {
    #expect(WeatherApp.conditions(code: code) == text)
  }

  @Test func searchTermIsTrimmedAndCut() {
    #expect(WeatherApp.searchTerm(for: "  Berlin \n") == "Berlin")
    #expect(WeatherApp.searchTerm(for: "   ") == "")
    #expect(WeatherApp.searchTerm(for: String(repeating: "é", count: 120)).count == 100)
  }

  @Test func searchTermTrimsBeforeItCutsWhateverTheQuery() {
    // The term as W2 states it: the whole query trimmed, then cut.
    func stated(_ query: String) -> String {
      let trimmed = query.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace)
      return String(String(trimmed.reversed()).prefix(WeatherApp.maximumTermLength))
    }
    let word = String(repeating: "a", count: 99)
    let queries = [
      "", " ", "Paris", "  Paris  ", word + " b", word + "  ", word + "   x", " " + word + " \n",
      String(repeating: " ", count: 300), String(repeating: "ab ", count: 200),
      String(repeating: "é", count: 150) + "   ", "\t" + word + "\u{2003}\u{2003}" + "z",
    ]
    for query in queries {
      #expect(WeatherApp.searchTerm(for: query) == stated(query), "\(query.debugDescription)")
    }
  }

  @Test func fahrenheitIsConvertedThenRounded() {
    let place = Place(id: 1, name: "Berlin", country: "Germany", latitude: 0, longitude: 0)
    let text = WeatherApp.forecastText(
      place: place, forecast: Forecast(temperature: 12.3, weatherCode: 2, windSpeed: 10.5),
      unit: .fahrenheit)
    #expect(text == "Berlin: 54.1°F, Partly cloudy, wind 10.5 km/h")
  }
}
