import ArchitectureSpec

// side-by-side: counter wiring
struct BaselineCounterDriver: AppDriver {
  typealias App = CounterApp
  let runtime: BaselineCounter
  func start(observer: @escaping @Sendable (CounterView) -> Void) async {
    runtime.start(observer: observer)
  }
  func send(_ intent: CounterIntent) { runtime.send(intent) }
  var view: CounterView { get async { runtime.view } }
  func idle() async {}
  func stop() async { runtime.stop() }
}
// side-by-side: end

// side-by-side: stopwatch wiring
struct BaselineStopwatchDriver: AppDriver {
  typealias App = StopwatchApp
  let runtime: BaselineStopwatch
  func start(observer: @escaping @Sendable (StopwatchView) -> Void) async {
    runtime.start(observer: observer)
  }
  func send(_ intent: StopwatchIntent) { runtime.send(intent) }
  var view: StopwatchView { get async { runtime.view } }
  func idle() async {}
  func stop() async { runtime.stop() }
}
// side-by-side: end

// side-by-side: weather wiring
struct BaselineWeatherDriver: AppDriver {
  typealias App = WeatherApp
  let runtime: BaselineWeather
  func start(observer: @escaping @Sendable (WeatherView) -> Void) async {
    runtime.start(observer: observer)
  }
  func send(_ intent: WeatherIntent) { runtime.send(intent) }
  var view: WeatherView { get async { runtime.view } }
  func idle() async {}
  func stop() async { runtime.stop() }
}
// side-by-side: end

// side-by-side: counter wiring
extension Implementation where App == CounterApp {
  /// The plain-Swift reference counter.
  public static var baseline: Implementation { .baseline(defects: []) }

  package static func baseline(defects: BaselineDefects) -> Implementation {
    Implementation(architecture: defects.isEmpty ? "baseline" : "mutant") {
      BaselineCounterDriver(runtime: BaselineCounter(environment: $0, defects: defects))
    }
  }
}
// side-by-side: end

// side-by-side: stopwatch wiring
extension Implementation where App == StopwatchApp {
  /// The plain-Swift reference stopwatch.
  public static var baseline: Implementation { .baseline(defects: []) }

  package static func baseline(defects: BaselineDefects) -> Implementation {
    Implementation(architecture: defects.isEmpty ? "baseline" : "mutant") {
      BaselineStopwatchDriver(runtime: BaselineStopwatch(environment: $0, defects: defects))
    }
  }
}
// side-by-side: end

// side-by-side: weather wiring
extension Implementation where App == WeatherApp {
  /// The plain-Swift reference weather app.
  public static var baseline: Implementation { .baseline(defects: []) }

  package static func baseline(defects: BaselineDefects) -> Implementation {
    Implementation(architecture: defects.isEmpty ? "baseline" : "mutant") {
      BaselineWeatherDriver(runtime: BaselineWeather(environment: $0, defects: defects))
    }
  }
}
// side-by-side: end
