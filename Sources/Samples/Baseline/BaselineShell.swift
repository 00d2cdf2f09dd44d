import ArchitectureSpec

// side-by-side: shell wiring
/// The shell in plain Swift: the baseline's counter, stopwatch and weather models held by one
/// model, their messages and effects wrapped, and each child's effects run by that child's own
/// effect runner. Nothing of a child is written again here.
public final class BaselineShell: Sendable {
  typealias Counter = BaselineCounter.Model
  typealias Stopwatch = BaselineStopwatch.Model
  typealias Weather = BaselineWeather.Model

  // side-by-side: shell state
  struct Model: LoopModel {
    // side-by-side: shell intents
    enum Message {
      case select(ShellTab)
      case resetAll
      case counter(Counter.Message)
      case stopwatch(Stopwatch.Message)
      case weather(Weather.Message)
    }

    // side-by-side: shell effects
    /// The children's effects of one message, in the order the children made them.
    struct Effect {
      var counter: Counter.Effect?
      var stopwatch: Stopwatch.Effect?
      var weather: [Weather.Effect] = []
    }

    // side-by-side: shell state
    var tab = ShellTab.counter
    var counter = Counter()
    var stopwatch: Stopwatch
    var weather: Weather
    var touched = TouchedChildren<ShellTab>()
    let defects: BaselineDefects

    init(defects: BaselineDefects) {
      self.defects = defects
      stopwatch = Stopwatch(defects: [])
      weather = Weather(defects: [])
    }

    // side-by-side: shell update+effects
    mutating func handle(_ message: Message) -> Effect? {
      var effect = Effect()
      switch message {
      case .select(let tab):
        self.tab = tab
        return nil
      case .counter(let message):
        touched.append(.counter)
        effect.counter = counter.handle(message)
      case .stopwatch(let message):
        // Mutation point (tests only): a hidden stopwatch ignores its ticks.
        if case .tick = message, tab != .stopwatch, defects.contains(.pausesHiddenTabs) {
          return nil
        }
        touched.append(.stopwatch)
        let laps = stopwatch.laps.count
        effect.stopwatch = stopwatch.handle(message)
        // H4: an accepted lap also increments the counter, in this same message.
        if stopwatch.laps.count > laps, !defects.contains(.incrementsAfterLap) {
          touched.append(.counter)
          effect.counter = counter.handle(.intent(.increment))
        }
      case .weather(let message):
        touched.append(.weather)
        effect.weather = weather.handle(message).map { [$0] } ?? []
      case .resetAll:
        // H5: the three children's resets, and the weather's selection, in one message.
        touched.removeAll()
        touched.append(contentsOf: ShellTab.allCases)
        effect.counter = counter.handle(.intent(.reset))
        effect.stopwatch = stopwatch.handle(.intent(.reset))
        effect.weather = [
          weather.handle(.intent(.queryChanged(""))), weather.clearSelection(),
        ].compactMap { $0 }
      }
      return effect
    }

    // side-by-side: shell wiring
    var view: ShellView {
      ShellView(
        tab: tab, counter: counter.view, stopwatch: stopwatch.view, weather: weather.view,
        placeName: weather.selected?.name)
    }

    mutating func takeTouchedChildren() -> [ShellTab]? { touched.take() }
    mutating func reuseTouchedChildren(_ children: consuming [ShellTab]) {
      touched.reuse(consume children)
    }

    func childView(_ tab: ShellTab) -> ShellChildView {
      switch tab {
      case .counter: .counter(counter.view)
      case .stopwatch: .stopwatch(stopwatch.view)
      case .weather: .weather(weather.view)
      }
    }
    // side-by-side: end
  }

  // side-by-side: shell wiring
  private let loop: MessageLoop<Model>
  private let counter: CounterEffects
  private let stopwatch: StopwatchEffects
  private let weather: WeatherEffects
  private let defects: BaselineDefects

  /// Creates the shell; nothing happens until it is started.
  public convenience init(environment: ShellEnvironment) {
    self.init(environment: environment, defects: [])
  }

  package init(environment: ShellEnvironment, defects: BaselineDefects) {
    self.defects = defects
    loop = MessageLoop(
      Model(defects: defects), defects: defects.intersection(.notifiesEveryChild),
      executor: environment.executor)
    counter = CounterEffects(environment: environment.counter, gate: loop.gate, defects: [])
    stopwatch = StopwatchEffects(environment: environment.stopwatch, defects: [])
    weather = WeatherEffects(environment: environment.weather, defects: [])
    // Results reach the loop, not this object: an effect never keeps the shell alive, so
    // releasing it stops it even while a result is being handled (R6).
    let deliver: @Sendable (Model.Message) -> Void = {
      [weak loop, weak counter, weak stopwatch, weak weather] message in
      guard let loop, let counter, let stopwatch, let weather else { return }
      loop.send(message, isIntent: false) {
        Self.perform($0, counter: counter, stopwatch: stopwatch, weather: weather)
      }
    }
    loop.performEffects { [counter, stopwatch, weather] in
      Self.perform($0, counter: counter, stopwatch: stopwatch, weather: weather)
    }
    counter.connect { deliver(.counter($0)) }
    stopwatch.connect { deliver(.stopwatch($0)) }
    weather.connect { deliver(.weather($0)) }
  }

  /// Released, the shell behaves as stopped.
  deinit { stop() }

  /// The current view.
  public var view: ShellView { loop.view }

  /// Starts the three children (H1): the counter's load is the only call.
  public func start(observer: @escaping @Sendable (ShellView) -> Void) {
    guard loop.start(observer: observer) else { return }
    counter.start()
    loop.drain { [counter, stopwatch, weather] in
      Self.perform($0, counter: counter, stopwatch: stopwatch, weather: weather)
    }
  }

  /// Sends an intent; safe from any thread.
  public func send(_ intent: ShellIntent) {
    switch intent {
    case .select(let tab): deliver(.select(tab), isIntent: true)
    case .counter(let intent): deliver(.counter(.intent(intent)), isIntent: true)
    case .stopwatch(let intent):
      let accepted = intent == .lap && loop.view.stopwatch.isRunning
      deliver(.stopwatch(.intent(intent)), isIntent: true)
      // Mutation point (tests only): the lap's increment as a second message.
      if accepted, defects.contains(.incrementsAfterLap) {
        deliver(.counter(.intent(.increment)), isIntent: true)
      }
    case .weather(let intent): deliver(.weather(.intent(intent)), isIntent: true)
    case .resetAll:
      // Mutation point (tests only): one message per child.
      if defects.contains(.resetsChildByChild) {
        deliver(.counter(.intent(.reset)), isIntent: true)
        deliver(.stopwatch(.intent(.reset)), isIntent: true)
        deliver(.weather(.intent(.queryChanged(""))), isIntent: true)
      } else {
        deliver(.resetAll, isIntent: true)
      }
    }
  }

  /// Observes one child: its view now, then its changes (R11).
  public func observe(_ tab: ShellTab, _ observer: @escaping @Sendable (ShellChildView) -> Void) {
    loop.observe(tab, observer)
  }

  /// Stops the whole app (H6): every child's work is cancelled.
  public func stop() {
    loop.stop()
    counter.stop()
    stopwatch.stop()
    weather.stop()
  }

  // side-by-side: shell effects
  private func deliver(_ message: Model.Message, isIntent: Bool = false) {
    loop.send(message, isIntent: isIntent) { [counter, stopwatch, weather] in
      Self.perform($0, counter: counter, stopwatch: stopwatch, weather: weather)
    }
  }

  private static func perform(
    _ effect: Model.Effect, counter: CounterEffects, stopwatch: StopwatchEffects,
    weather: WeatherEffects
  ) {
    if let effect = effect.counter { counter.perform(effect) }
    if let effect = effect.stopwatch { stopwatch.perform(effect) }
    for effect in effect.weather { weather.perform(effect) }
  }
  // side-by-side: end
}
