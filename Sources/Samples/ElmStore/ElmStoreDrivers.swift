import ArchitectureSpec
import ElmStore
import Workloads

/// Connects an ElmStore app to the conformance kit: the store is built at once (it does nothing
/// until dispatched to), observed by view, and started by `start`.
struct ElmStoreDriver<App: SpecApp, State: Equatable & Sendable, Action: Sendable>:
  AppDriver
where App.Child == NoChild, App.ChildIntent == NoChild {
  let store: Store<State, Action>
  let render: @Sendable (State) -> App.View
  let intent: @Sendable (App.Intent) -> Action
  let startAction: Action?

  func start(observer: @escaping @Sendable (App.View) -> Void) async {
    store.subscribe(render, observer)
    if let startAction { store.dispatch(startAction) }
  }
  func send(_ intent: App.Intent) { store.dispatch(self.intent(intent)) }
  var view: App.View { get async { render(store.state) } }
  func idle() async {}  // every effect runs on environment.executor, which the kit watches
  func stop() async { store.stop() }
}

// side-by-side: counter wiring
extension Implementation where App == CounterApp {
  /// The counter on ElmStore.
  public static var elmStore: Implementation {
    Implementation(architecture: "elm-store") { environment in
      ElmStoreDriver<CounterApp, ElmCounter.State, ElmCounter.Action>(
        store: ElmCounter.makeStore(environment: environment), render: ElmCounter.view,
        intent: { .intent($0) }, startAction: .load)
    }
  }
}
// side-by-side: end

// side-by-side: stopwatch wiring
extension Implementation where App == StopwatchApp {
  /// The stopwatch on ElmStore.
  public static var elmStore: Implementation {
    Implementation(architecture: "elm-store") { environment in
      ElmStoreDriver<StopwatchApp, ElmStopwatch.State, ElmStopwatch.Action>(
        store: ElmStopwatch.makeStore(environment: environment), render: ElmStopwatch.view,
        intent: { .intent($0) }, startAction: nil)
    }
  }
}
// side-by-side: end

// side-by-side: weather wiring
extension Implementation where App == WeatherApp {
  /// The weather app on ElmStore.
  public static var elmStore: Implementation {
    Implementation(architecture: "elm-store") { environment in
      ElmStoreDriver<WeatherApp, ElmWeather.State, ElmWeather.Action>(
        store: ElmWeather.makeStore(environment: environment), render: ElmWeather.view,
        intent: { .intent($0) }, startAction: nil)
    }
  }
}
// side-by-side: end

/// The benchmark counter on a store: ``tally(_:_:)`` as the update, observers as subscribers.
public final class ElmStoreTally: TallySubject {
  let store: Store<TallyState, TallyAction>

  public init(_ setup: TallySetup) {
    store = Store(state: setup.state, update: tally)
    for _ in 0..<(setup.observers + setup.fanout) { store.subscribe(setup.notify) }
  }

  public func send(_ action: TallyAction, times: Int) {
    for _ in 0..<times { store.dispatch(action) }
  }

  public var state: TallyState { store.state }

  public func stop() { store.stop() }
}
