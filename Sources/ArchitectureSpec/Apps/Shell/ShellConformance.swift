import Foundation

/// How a shell run's fakes behave before any step: the counter's load, and cancellation.
public typealias ShellSetup = CounterSetup

/// The shell's fakes: the counter's and the weather's (the stopwatch needs only the clock).
public struct ShellFakes: AppFakes {
  public let counter: CounterFakes
  public let weather: WeatherFakes

  public init(_ setup: ShellSetup, context: FakeContext) {
    counter = CounterFakes(setup, context: context)
    weather = WeatherFakes(context: context)
  }

  public func abandonPendingCalls() {
    counter.abandonPendingCalls()
    weather.abandonPendingCalls()
  }
}

/// What a scenario does to the shell's fakes: what it would do to a child's.
public enum ShellFakeAction: Sendable, Hashable, CustomStringConvertible {
  case counter(CounterFakeAction)
  case weather(WeatherFakeAction)

  public var description: String {
    switch self {
    case .counter(let action): action.description
    case .weather(let action): action.description
    }
  }
}

extension ShellApp: ConformanceApp {
  public typealias Setup = ShellSetup

  public static func makeFakes(_ setup: ShellSetup, context: FakeContext) -> ShellFakes {
    ShellFakes(setup, context: context)
  }

  public static func environment(from fakes: ShellFakes, context: FakeContext)
    -> ShellEnvironment
  {
    ShellEnvironment(
      storage: fakes.counter.storage, log: fakes.counter.log, service: fakes.weather.service,
      clock: context.clock, executor: context.executor)
  }

  public static func perform(_ action: ShellFakeAction, on fakes: ShellFakes) {
    switch action {
    case .counter(let action): action.perform(on: fakes.counter)
    case .weather(let action): action.perform(on: fakes.weather)
    }
  }

  /// The child's own view as JSON, keys sorted (the trace already names the child).
  public static func traceText(of childView: ShellChildView) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let data =
      switch childView {
      case .counter(let view): try? encoder.encode(view)
      case .stopwatch(let view): try? encoder.encode(view)
      case .weather(let view): try? encoder.encode(view)
      }
    return data.map { String(decoding: $0, as: UTF8.self) } ?? "?"
  }
}

extension Step where App == ShellApp {
  /// Completes the counter's pending load.
  public static func completeLoad(_ result: FakeStorage.LoadScript) -> Step {
    .fake(.counter(.completeLoad(result)))
  }
  /// Makes the counter's next save fail.
  public static var failNextSave: Step { .fake(.counter(.failNextSave)) }
  /// Answers the oldest pending search (for `term`, if given).
  public static func answerSearch(term: String? = nil, _ answer: SearchAnswer) -> Step {
    .fake(.weather(.answerSearch(term: term, answer)))
  }
  /// Answers the oldest pending forecast (for `placeID`, if given).
  public static func answerForecast(placeID: Int? = nil, _ answer: ForecastAnswer) -> Step {
    .fake(.weather(.answerForecast(placeID: placeID, answer)))
  }
  /// Sends a child's intent through the child's scope.
  public static func scoped(_ intent: ShellIntent) -> Step {
    .sendToChild(intent.child ?? .counter, intent)
  }
}
