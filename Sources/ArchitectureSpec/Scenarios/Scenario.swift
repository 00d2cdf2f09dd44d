/// A named list of steps, tagged with the spec rules it checks.
///
/// Every run starts the runtime first; steps then act on it or check it. Each action waits for
/// idle before the next step (R7), and time passes only in ``Step/advance(_:)``.
///
/// ```swift
/// Scenario<CounterApp>(
///   "c4.increment", rules: [.c4, .c5],
///   steps: [.send(.increment), .expectView(.ready(count: 1)),
///           .expectCalls([.load, .save(1), .log("count: 1")])])
/// ```
public struct Scenario<App: ConformanceApp>: Sendable, CustomStringConvertible {
  public var name: String
  public var rules: [Rule]
  public var setup: FakeSetup
  public var steps: [Step<App>]

  public init(_ name: String, rules: [Rule], setup: FakeSetup = FakeSetup(), steps: [Step<App>]) {
    self.name = name
    self.rules = rules
    self.setup = setup
    self.steps = steps
  }

  public var description: String {
    var lines = ["\(name) [\(rules.map(\.rawValue).joined(separator: ", "))]"]
    if setup != FakeSetup() {
      lines.append(
        "  setup: load \(setup.load)\(setup.honorsCancellation ? "" : ", cancellation ignored")")
    }
    for (index, step) in steps.enumerated() { lines.append("  \(index + 1). \(step)") }
    return lines.joined(separator: "\n")
  }
}

/// How the fake weather service answers a search.
public enum SearchAnswer: Sendable, Hashable, CustomStringConvertible {
  case places([Place])
  case failure

  public var description: String {
    switch self {
    case .places(let places): "[\(places.map(\.name).joined(separator: ", "))]"
    case .failure: "an error"
    }
  }
}

/// How the fake weather service answers a forecast request.
public enum ForecastAnswer: Sendable, Hashable, CustomStringConvertible {
  case forecast(Forecast)
  case failure

  public var description: String {
    switch self {
    case .forecast(let f): "\(f.temperature)°C code \(f.weatherCode) wind \(f.windSpeed)"
    case .failure: "an error"
    }
  }
}

/// One step of a scenario: an action on the runtime or the environment, or an expectation.
public enum Step<App: ConformanceApp>: Sendable, CustomStringConvertible {
  /// Sends an intent.
  case send(App.Intent)
  /// Sends `intent` from `senders` threads at once, `each` times per thread (R3).
  case sendConcurrently(App.Intent, senders: Int, each: Int)
  /// Sends `intent`; then, from inside the observer, sends `then` on each of the next
  /// `times` notifications, so every message is produced while another is processed (R2).
  case sendFromObserver(App.Intent, then: App.Intent, times: Int)
  /// Advances the virtual clock, processing everything due by the new time.
  case advance(Duration)
  /// Completes the pending storage load.
  case completeLoad(FakeStorage.LoadScript)
  /// Makes the next save fail.
  case failNextSave
  /// Answers the oldest pending search (for `term`, if given).
  case answerSearch(term: String? = nil, SearchAnswer)
  /// Answers the oldest pending forecast (for `placeID`, if given).
  case answerForecast(placeID: Int? = nil, ForecastAnswer)
  /// Stops the runtime.
  case stop
  /// Drops every reference to the runtime without stopping it.
  case release
  /// Expects the view to equal this.
  case expectView(App.View)
  /// Expects exactly these environment calls since the previous `expectCalls` (or the start).
  case expectCalls([EnvironmentCall])
  /// Expects this many tasks sleeping on the clock (a running timer is one).
  case expectSleepers(Int)

  /// Whether the step acts, rather than checks; actions appear in the trace.
  public var isAction: Bool {
    switch self {
    case .expectView, .expectCalls, .expectSleepers: false
    default: true
    }
  }

  public var description: String {
    switch self {
    case .send(let intent): "send \(intent)"
    case .sendConcurrently(let intent, let senders, let each):
      "send \(intent) from \(senders) threads × \(each)"
    case .sendFromObserver(let intent, let then, let times):
      "send \(intent), then \(then) from the observer × \(times)"
    case .advance(let duration): "advance \(milliseconds(duration)) ms"
    case .completeLoad(let result): "load returns \(result)"
    case .failNextSave: "next save fails"
    case .answerSearch(let term, let answer):
      "answer search\(term.map { "(\(quoted($0)))" } ?? "") with \(answer)"
    case .answerForecast(let id, let answer):
      "answer forecast\(id.map { "(\($0))" } ?? "") with \(answer)"
    case .stop: "stop"
    case .release: "release"
    case .expectView(let view): "expect view \(view)"
    case .expectCalls(let calls):
      "expect calls [\(calls.map(\.description).joined(separator: ", "))]"
    case .expectSleepers(let count): "expect \(count) sleeper\(count == 1 ? "" : "s")"
    }
  }
}

func milliseconds(_ duration: Duration) -> Int64 {
  duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
}
