/// The shell app (SPEC §6): the counter, the stopwatch and the weather app as child features of
/// one app with tabs.
public enum ShellApp: Sendable {
  /// The badge of the counter's tab: the count while ready, `""` while loading.
  public static func counterBadge(_ view: CounterView) -> String {
    view.status == .ready ? "\(view.count)" : ""
  }

  /// The badge of the stopwatch's tab: `running` while running.
  public static func stopwatchBadge(_ view: StopwatchView) -> String {
    view.isRunning ? "running" : ""
  }

  /// The badge of the weather's tab: the selected place's name while its weather is loaded.
  public static func weatherBadge(placeName: String?, weather: WeatherView.Weather) -> String {
    weather.kind == .loaded ? (placeName ?? "") : ""
  }
}

/// A tab of the shell, which is also how a child is addressed.
public enum ShellTab: String, Codable, Sendable, CaseIterable, Comparable, CustomStringConvertible {
  case counter
  case stopwatch
  case weather

  public var description: String { rawValue }

  public static func < (lhs: ShellTab, rhs: ShellTab) -> Bool {
    (allCases.firstIndex(of: lhs) ?? 0) < (allCases.firstIndex(of: rhs) ?? 0)
  }
}

/// What the user does in the shell.
public enum ShellIntent: Codable, Sendable, Hashable, CustomStringConvertible {
  case select(ShellTab)
  case counter(CounterIntent)
  case stopwatch(StopwatchIntent)
  case weather(WeatherIntent)
  case resetAll

  public var description: String {
    switch self {
    case .select(let tab): "select(\(tab))"
    case .counter(let intent): "counter(\(intent))"
    case .stopwatch(let intent): "stopwatch(\(intent))"
    case .weather(let intent): "weather(\(intent))"
    case .resetAll: "resetAll"
    }
  }

  /// The child an intent is for, if it is a child's.
  public var child: ShellTab? {
    switch self {
    case .counter: .counter
    case .stopwatch: .stopwatch
    case .weather: .weather
    case .select, .resetAll: nil
    }
  }
}

/// What a child's observer receives.
public enum ShellChildView: Codable, Sendable, Hashable, CustomStringConvertible {
  case counter(CounterView)
  case stopwatch(StopwatchView)
  case weather(WeatherView)

  public var description: String {
    switch self {
    case .counter(let view): "\(view)"
    case .stopwatch(let view): "\(view)"
    case .weather(let view): "\(view)"
    }
  }
}

/// Everything the shell shows: the tab, the badges and all three children's views (H1).
public struct ShellView: Codable, Sendable, Hashable, CustomStringConvertible {
  public var tab: ShellTab
  public var counterBadge: String
  public var stopwatchBadge: String
  public var weatherBadge: String
  public var counter: CounterView
  public var stopwatch: StopwatchView
  public var weather: WeatherView

  public init(
    tab: ShellTab = .counter, counterBadge: String = "", stopwatchBadge: String = "",
    weatherBadge: String = "", counter: CounterView = .loading,
    stopwatch: StopwatchView = .initial, weather: WeatherView = .initial
  ) {
    self.tab = tab
    self.counterBadge = counterBadge
    self.stopwatchBadge = stopwatchBadge
    self.weatherBadge = weatherBadge
    self.counter = counter
    self.stopwatch = stopwatch
    self.weather = weather
  }

  /// The view of three children, badges derived from them (`placeName` names the weather's
  /// selected place).
  public init(
    tab: ShellTab, counter: CounterView, stopwatch: StopwatchView, weather: WeatherView,
    placeName: String?
  ) {
    self.init(
      tab: tab, counterBadge: ShellApp.counterBadge(counter),
      stopwatchBadge: ShellApp.stopwatchBadge(stopwatch),
      weatherBadge: ShellApp.weatherBadge(placeName: placeName, weather: weather.weather),
      counter: counter, stopwatch: stopwatch, weather: weather)
  }

  /// The view at start (H1).
  public static let initial = ShellView()

  /// A child's view.
  public func child(_ tab: ShellTab) -> ShellChildView {
    switch tab {
    case .counter: .counter(counter)
    case .stopwatch: .stopwatch(stopwatch)
    case .weather: .weather(weather)
    }
  }

  public var description: String {
    let badges = [counterBadge, stopwatchBadge, weatherBadge].map { $0.isEmpty ? "-" : $0 }
    return "[\(tab)] badges \(badges.joined(separator: "|")); \(counter); \(stopwatch); \(weather)"
  }
}

/// The shell's side effects: the union of its children's, one clock for the stopwatch and the
/// weather.
public struct ShellEnvironment: Sendable {
  public var storage: any CounterStorage
  public var log: any AppLog
  public var service: any WeatherService
  public var clock: any Clock<Duration>
  /// The executor every task the runtime creates should prefer (`nil`: the default executor).
  public var executor: (any TaskExecutor)?

  public init(
    storage: any CounterStorage, log: any AppLog, service: any WeatherService,
    clock: any Clock<Duration>, executor: (any TaskExecutor)? = nil
  ) {
    self.storage = storage
    self.log = log
    self.service = service
    self.clock = clock
    self.executor = executor
  }

  /// The counter's part.
  public var counter: CounterEnvironment {
    CounterEnvironment(storage: storage, log: log, executor: executor)
  }

  /// The stopwatch's part.
  public var stopwatch: StopwatchEnvironment {
    StopwatchEnvironment(clock: clock, executor: executor)
  }

  /// The weather's part.
  public var weather: WeatherEnvironment {
    WeatherEnvironment(service: service, clock: clock, executor: executor)
  }
}

extension ShellApp: SpecApp {
  public typealias Intent = ShellIntent
  public typealias View = ShellView
  public typealias Environment = ShellEnvironment
  public typealias Child = ShellTab
  public typealias ChildView = ShellChildView
  /// Sent through a child's scope, a child's intent is the shell's intent for that child.
  public typealias ChildIntent = ShellIntent

  public static let name = "shell"
}
