import ArchitectureSpec
import IOLoop
import Workloads

/// Connects an IOLoop program to the conformance kit through its screen: views come out of the
/// screen handler, intents go in as screen inputs.
struct IOLoopDriver<App: SpecApp>: AppDriver
where App.Child == NoChild, App.ChildIntent == NoChild {
  let screen: Screen<App.View>
  let begin: @Sendable () -> Void
  let intent: @Sendable (App.Intent) -> Void
  let currentView: @Sendable () -> App.View
  let end: @Sendable () -> Void

  func start(observer: @escaping @Sendable (App.View) -> Void) async {
    screen.attach(observer)
    begin()
  }
  func send(_ intent: App.Intent) { self.intent(intent) }
  var view: App.View { get async { currentView() } }
  func idle() async {}  // all work runs on environment.executor, which the kit watches
  func stop() async { end() }
}

// side-by-side: counter wiring
extension Implementation where App == CounterApp {
  /// The counter on IOLoop.
  public static var ioLoop: Implementation {
    Implementation(architecture: "io-loop") { environment in
      let screen = Screen<CounterView>()
      let main = Main(
        app: IOCounter.self,
        handlers: ScreenHandler<CounterView, CounterIntent>(screen),
        LogHandler(environment.log), StorageHandler(environment.storage),
        executor: environment.executor)
      return IOLoopDriver<CounterApp>(
        screen: screen, begin: main.start, intent: { main.send(IOInput($0, nil, nil)) },
        currentView: { main.state.view }, end: main.stop)
    }
  }
}
// side-by-side: end

// side-by-side: stopwatch wiring
extension Implementation where App == StopwatchApp {
  /// The stopwatch on IOLoop.
  public static var ioLoop: Implementation {
    Implementation(architecture: "io-loop") { environment in
      let screen = Screen<StopwatchView>()
      let main = Main(
        app: IOStopwatch.self,
        handlers: ScreenHandler<StopwatchView, StopwatchIntent>(screen),
        TimerHandler(clock: environment.clock), executor: environment.executor)
      return IOLoopDriver<StopwatchApp>(
        screen: screen, begin: main.start, intent: { main.send(IOInput($0, nil)) },
        currentView: { main.state.view }, end: main.stop)
    }
  }
}
// side-by-side: end

// side-by-side: weather wiring
extension Implementation where App == WeatherApp {
  /// The weather app on IOLoop.
  public static var ioLoop: Implementation {
    Implementation(architecture: "io-loop") { environment in
      let screen = Screen<WeatherView>()
      let main = Main(
        app: IOWeather.self,
        handlers: ScreenHandler<WeatherView, WeatherIntent>(screen),
        DebounceHandler(clock: environment.clock), SearchHandler(service: environment.service),
        ForecastHandler(service: environment.service), executor: environment.executor)
      return IOLoopDriver<WeatherApp>(
        screen: screen, begin: main.start, intent: { main.send(IOInput($0, nil, nil, nil)) },
        currentView: { main.state.view }, end: main.stop)
    }
  }
}
// side-by-side: end

/// The benchmark counter as a pure app: ``tally(_:_:)`` on a copy; a render output per change
/// only when someone watches.
public struct TallyApp: PureApp {
  public var tally: TallyState
  public var isWatched: Bool

  public init(tally: TallyState, isWatched: Bool) {
    self.tally = tally
    self.isWatched = isWatched
  }

  /// An unwatched tally of the default state; the benchmark starts from its set-up instead.
  public static func start() -> (TallyApp, IOOutputs<ScreenIO<TallyState, TallyAction>>) {
    (TallyApp(tally: TallyState(), isWatched: false), .none)
  }

  @inlinable
  public func run(input: IOInput<ScreenIO<TallyState, TallyAction>>) -> (
    TallyApp, IOOutputs<ScreenIO<TallyState, TallyAction>>
  ) {
    let sent: TallyAction? = input.values  // the one IO type's element
    guard let action = sent else { return (self, .none) }
    var next = self
    Workloads.tally(&next.tally, action)
    guard isWatched, next.tally != tally else { return (next, .none) }
    return (next, IOOutputs([next.tally]))
  }
}

/// The benchmark counter on an IOLoop program; observers watch its screen.
public final class IOLoopTally: TallySubject {
  let main: Main<TallyApp, ScreenHandler<TallyState, TallyAction>>

  public init(_ setup: TallySetup) {
    let screen = Screen<TallyState>()
    let watchers = setup.observers + setup.fanout
    let notify = setup.notify
    screen.attach { state in for _ in 0..<watchers { notify(state) } }
    let app = TallyApp(tally: setup.state, isWatched: watchers > 0)
    main = Main(
      state: app, outputs: IOOutputs(watchers > 0 ? [setup.state] : []),
      handlers: ScreenHandler(screen))
    main.start()
  }

  public func send(_ action: TallyAction, times: Int) {
    for _ in 0..<times { main.send(IOInput(action)) }
  }

  public var state: TallyState { main.state.tally }

  public func stop() { main.stop() }
}
