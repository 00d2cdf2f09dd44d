import ArchitectureSpec
import LayerCore
import Synchronization
import Workloads

/// Connects a LayerCore flow to the conformance kit: the kit plays the user at the app's
/// screen, so intents travel the way a tap would, through the UI layer's machine.
struct LayerCoreDriver<App: SpecApp, C: Core>: AppDriver
where App.Child == NoChild, App.ChildIntent == NoChild {
  let core: C
  let screen: Screen<App.View, App.Intent>
  let flow = FlowBox<C>()
  let executor: (any TaskExecutor)?

  func start(observer: @escaping @Sendable (App.View) -> Void) async {
    screen.observe(observer)
    flow.start(core, executor: executor)
  }
  func send(_ intent: App.Intent) { screen.send(intent) }
  var view: App.View { get async { screen.view } }
  func idle() async {}  // all work runs on the environment's executor, which the kit watches
  func stop() async { flow.stop() }
}

// side-by-side: counter wiring
extension Implementation where App == CounterApp {
  /// The counter on LayerCore.
  public static var layerCore: Implementation {
    Implementation(architecture: "layer-core") { environment in
      let screen = Screen<CounterView, CounterIntent>(placeholder: .loading)
      return LayerCoreDriver<CounterApp, LayerCounter.App>(
        core: LayerCounter.App(screen: screen, environment: environment), screen: screen,
        executor: environment.executor)
    }
  }
}
// side-by-side: end

// side-by-side: stopwatch wiring
extension Implementation where App == StopwatchApp {
  /// The stopwatch on LayerCore.
  public static var layerCore: Implementation {
    Implementation(architecture: "layer-core") { environment in
      let screen = Screen<StopwatchView, StopwatchIntent>(placeholder: .initial)
      return LayerCoreDriver<StopwatchApp, LayerStopwatch.App>(
        core: LayerStopwatch.App(screen: screen, environment: environment), screen: screen,
        executor: environment.executor)
    }
  }
}
// side-by-side: end

// side-by-side: weather wiring
extension Implementation where App == WeatherApp {
  /// The weather app on LayerCore.
  public static var layerCore: Implementation {
    Implementation(architecture: "layer-core") { environment in
      let screen = Screen<WeatherView, WeatherIntent>(placeholder: .initial)
      return LayerCoreDriver<WeatherApp, LayerWeather.App>(
        core: LayerWeather.App(screen: screen, environment: environment), screen: screen,
        executor: environment.executor)
    }
  }
}
// side-by-side: end

/// The running flow of a driver, started once.
final class FlowBox<C: Core>: Sendable {
  private let flow = Mutex<Flow<C>?>(nil)

  func start(_ core: C, executor: (any TaskExecutor)?) {
    let started = core.start(executor: executor)
    flow.withLock { $0 = started }
  }

  func stop() { flow.withLock { $0 }?.stop() }
}

/// The benchmark counter as a core with three layers — a screen, a store and a log — that each
/// map the state to one value; observers are further layers that call the workload's `notify`,
/// and the `fanout` workloads add layers.
public final class LayerCoreTally: TallySubject {
  public static var fanout: Fanout { .layers }

  struct App: Core {
    let observers: Int
    let extraLayers: Int
    let notify: @Sendable (TallyState) -> Void

    /// The benchmark's actions, and the set-up's state to start from.
    enum Event: Sendable {
      case restore(TallyState)
      case action(TallyAction)
    }

    var layers: [Layer<TallyState, Event>] {
      let notify = notify
      let watch = Layer<TallyState, Event>.consumer(~Watch(), mapper: { notify($0) })
      return [
        .consumer(~Remember(), mapper: { $0.count }), .consumer(~Remember(), mapper: { $0.count }),
        .consumer(~Remember(), mapper: { $0.count }),
      ]
        + Array(repeating: watch, count: observers)
        + Array(repeating: .consumer(~Remember(), mapper: { $0.count }), count: extraLayers)
    }

    @inlinable
    func reduce(state: TallyState?, event: Event) -> ReducerResult<TallyState> {
      guard case .action(let action) = event, var next = state else {
        guard case .restore(let restored) = event else { return .skip }
        return .set(restored)
      }
      let old = next.count
      tally(&next, action)
      return next.count == old ? .skip : .set(next)
    }
  }

  /// A machine that keeps the last value it was given.
  final class Remember: ChildMachine {
    let last = Atomic(0)
    func process(input: Int?, callback: Handler<Never>) {
      if let input { last.store(input, ordering: .relaxed) }
    }
  }

  /// A machine whose layer's mapper did the work.
  struct Watch: ChildMachine {
    func process(input: Void?, callback: Handler<Never>) {}
  }

  let flow: Flow<App>

  public init(_ setup: TallySetup) {
    let app = App(observers: setup.observers, extraLayers: setup.fanout, notify: setup.notify)
    flow = app.start()
    flow.send(.restore(setup.state))
  }

  public func send(_ action: TallyAction, times: Int) {
    for _ in 0..<times { flow.send(.action(action)) }
  }

  public var state: TallyState { flow.state ?? TallyState() }

  public func stop() { flow.stop() }
}
