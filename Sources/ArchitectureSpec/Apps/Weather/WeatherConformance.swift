/// The weather app's fakes: a service whose calls wait for the scenario's answers.
public struct WeatherFakes: AppFakes {
  public let service: FakeWeatherService

  public init(context: FakeContext) {
    service = FakeWeatherService(
      recorder: context.recorder, honorsCancellation: context.honorsCancellation)
  }

  public func abandonPendingCalls() { service.abandonPendingCalls() }
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

/// What a scenario does to the weather app's fakes.
public enum WeatherFakeAction: Sendable, Hashable, CustomStringConvertible {
  /// Answers the oldest pending search (for `term`, if given).
  case answerSearch(term: String?, SearchAnswer)
  /// Answers the oldest pending forecast (for `placeID`, if given).
  case answerForecast(placeID: Int?, ForecastAnswer)

  public var description: String {
    switch self {
    case .answerSearch(let term, let answer):
      "answer search\(term.map { "(\(quoted($0)))" } ?? "") with \(answer)"
    case .answerForecast(let id, let answer):
      "answer forecast\(id.map { "(\($0))" } ?? "") with \(answer)"
    }
  }

  func perform(on fakes: WeatherFakes) {
    switch self {
    case .answerSearch(let term, let answer):
      let result: Result<[Place], FakeFailure> =
        switch answer {
        case .places(let places): .success(places)
        case .failure: .failure(FakeFailure("search failed"))
        }
      fakes.service.answerSearch(term: term, with: result)
    case .answerForecast(let id, let answer):
      let result: Result<Forecast, FakeFailure> =
        switch answer {
        case .forecast(let forecast): .success(forecast)
        case .failure: .failure(FakeFailure("forecast failed"))
        }
      fakes.service.answerForecast(placeID: id, with: result)
    }
  }
}

extension WeatherApp: ConformanceApp {
  public static func makeFakes(_ setup: BasicSetup, context: FakeContext) -> WeatherFakes {
    WeatherFakes(context: context)
  }

  public static func environment(from fakes: WeatherFakes, context: FakeContext)
    -> WeatherEnvironment
  {
    WeatherEnvironment(service: fakes.service, clock: context.clock, executor: context.executor)
  }

  public static func perform(_ action: WeatherFakeAction, on fakes: WeatherFakes) {
    action.perform(on: fakes)
  }
}

extension Step where App == WeatherApp {
  /// Answers the oldest pending search (for `term`, if given).
  public static func answerSearch(term: String? = nil, _ answer: SearchAnswer) -> Step {
    .fake(.answerSearch(term: term, answer))
  }
  /// Answers the oldest pending forecast (for `placeID`, if given).
  public static func answerForecast(placeID: Int? = nil, _ answer: ForecastAnswer) -> Step {
    .fake(.answerForecast(placeID: placeID, answer))
  }
}
