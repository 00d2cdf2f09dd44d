import Foundation

/// An app `arch stress` can drive: an environment that answers at once and records every call
/// in a ``StressProbe``, the intents two threads send, and the children to observe.
public protocol StressApp: SpecApp {
  /// An environment whose calls end at once (or after the ``StressClock``'s short sleeps) and
  /// are recorded in `probe`.
  static func stressEnvironment(_ probe: StressProbe) -> Environment
  /// What the sending threads pick their intents from.
  static var stressIntents: [Intent] { get }
  /// The children observed on their own (R11) during a try.
  static var stressChildren: [Child] { get }
}

extension StressApp where Child == NoChild {
  public static var stressChildren: [Child] { [] }
}

/// Counter storage that keeps the last count, and a log that only records.
struct StressCounterStorage: CounterStorage, AppLog {
  let probe: StressProbe

  func load() async throws -> Int? {
    probe.environment("load")
    return 3
  }

  func save(_ count: Int) async throws { probe.environment("save") }

  func log(_ message: String) { probe.environment("log") }
}

struct StressWeatherService: WeatherService {
  let probe: StressProbe

  func search(_ term: String) async throws -> [Place] {
    probe.environment("search")
    try Task.checkCancellation()
    return [
      Place(id: 1, name: "Berlin", country: "DE", latitude: 52.5, longitude: 13.4),
      Place(id: 2, name: "Bern", country: "CH", latitude: 46.9, longitude: 7.4),
    ]
  }

  func forecast(for place: Place) async throws -> Forecast {
    probe.environment("forecast")
    try Task.checkCancellation()
    return Forecast(temperature: 21.5, weatherCode: 3, windSpeed: 12)
  }
}

struct StressTodoStorage: TodoStorage, AppLog {
  let probe: StressProbe

  func loadTodos() async throws -> [TodoRecord]? {
    probe.environment("loadTodos")
    return (1...3).map { TodoRecord(id: $0, title: "row \($0)", done: $0 == 2) }
  }

  func saveTodos(_ todos: [TodoRecord]) async throws { probe.environment("saveTodos") }

  func log(_ message: String) { probe.environment("log") }
}

extension CounterApp: StressApp {
  public static func stressEnvironment(_ probe: StressProbe) -> CounterEnvironment {
    let storage = StressCounterStorage(probe: probe)
    return CounterEnvironment(storage: storage, log: storage)
  }

  public static var stressIntents: [CounterIntent] { [.increment, .increment, .decrement, .reset] }
}

extension StopwatchApp: StressApp {
  public static func stressEnvironment(_ probe: StressProbe) -> StopwatchEnvironment {
    StopwatchEnvironment(clock: StressClock(probe: probe))
  }

  public static var stressIntents: [StopwatchIntent] {
    [.start, .lap, .lap, .stop, .start, .reset]
  }
}

extension WeatherApp: StressApp {
  public static func stressEnvironment(_ probe: StressProbe) -> WeatherEnvironment {
    WeatherEnvironment(
      service: StressWeatherService(probe: probe), clock: StressClock(probe: probe))
  }

  public static var stressIntents: [WeatherIntent] {
    [
      .queryChanged("B"), .queryChanged("Be"), .queryChanged("Ber"), .select(placeID: 1), .retry,
      .toggleUnit,
    ]
  }
}

extension TodosApp: StressApp {
  public static func stressEnvironment(_ probe: StressProbe) -> TodosEnvironment {
    let storage = StressTodoStorage(probe: probe)
    return TodosEnvironment(storage: storage, log: storage)
  }

  public static var stressIntents: [TodosIntent] {
    [
      .draftChanged("milk"), .add, .row(id: 1, .toggle), .row(id: 2, .toggle), .toggleAll,
      .row(id: 3, .beginEdit), .row(id: 3, .editChanged("bread")), .row(id: 3, .commitEdit),
      .filter(.active), .filter(.all), .clearCompleted,
    ]
  }

  public static var stressChildren: [Int] { [1, 2, 3] }
}

extension ShellApp: StressApp {
  public static func stressEnvironment(_ probe: StressProbe) -> ShellEnvironment {
    let storage = StressCounterStorage(probe: probe)
    return ShellEnvironment(
      storage: storage, log: storage, service: StressWeatherService(probe: probe),
      clock: StressClock(probe: probe))
  }

  public static var stressIntents: [ShellIntent] {
    [
      .counter(.increment), .stopwatch(.start), .stopwatch(.lap), .weather(.queryChanged("Be")),
      .select(.weather), .select(.stopwatch), .counter(.decrement), .resetAll,
    ]
  }

  public static var stressChildren: [ShellTab] { ShellTab.allCases }
}
