import ArchitectureSpec
import Comonadic
import Synchronization
import Workloads

/// Connects a component to the conformance kit: built at once (it does nothing until sent an
/// input), observed by view, and started by `start`.
struct ComonadicDriver<App: SpecApp>: AppDriver
where App.Child == NoChild, App.ChildIntent == NoChild {
  let subscribe: @Sendable (@escaping @Sendable (App.View) -> Void) -> Void
  let sendIntent: @Sendable (App.Intent) -> Void
  let currentView: @Sendable () -> App.View
  let appear: @Sendable () -> Void
  let stopComponent: @Sendable () -> Void

  init<Environment, S, Input>(
    _ component: StoreComponent<Environment, S, Input, App.View>,
    intent: @escaping @Sendable (App.Intent) -> Input, appear: Input? = nil
  ) {
    subscribe = { component.subscribe($0) }
    sendIntent = { component.send(intent($0)) }
    currentView = { component.view }
    self.appear = { if let appear { component.send(appear) } }
    stopComponent = { component.stop() }
  }

  init<Environment, Message, Value, Input>(
    _ component: MooreComponent<Environment, Message, Value, Input, App.View>,
    intent: @escaping @Sendable (App.Intent) -> Input, appear: Input? = nil
  ) {
    subscribe = { component.subscribe($0) }
    sendIntent = { component.send(intent($0)) }
    currentView = { component.view }
    self.appear = { if let appear { component.send(appear) } }
    stopComponent = { component.stop() }
  }

  func start(observer: @escaping @Sendable (App.View) -> Void) async {
    // The component notifies after every state change; the kit wants changed views only.
    let last = Mutex<App.View?>(nil)
    subscribe { view in
      let isNew = last.withLock { last in
        defer { last = view }
        return last != view
      }
      if isNew { observer(view) }
    }
    appear()
  }

  func send(_ intent: App.Intent) { sendIntent(intent) }
  var view: App.View { get async { currentView() } }
  func idle() async {}  // every effect runs on environment.executor, which the kit watches
  func stop() async { stopComponent() }
}

// side-by-side: counter wiring
extension Implementation where App == CounterApp {
  /// The counter as a comonadic component over a `Store`.
  public static var comonadic: Implementation {
    Implementation(architecture: "comonadic") { environment in
      ComonadicDriver<CounterApp>(
        ComonadicCounter.component(environment: environment), intent: { .intent($0) },
        appear: .appear)
    }
  }
  // side-by-side: end

  /// The counter as a comonadic component over a `Moore` machine.
  public static var comonadicMoore: Implementation {
    Implementation(architecture: "comonadic-moore") { environment in
      ComonadicDriver<CounterApp>(
        MooreCounter.component(environment: environment), intent: { .intent($0) },
        appear: .appear)
    }
  }
}

// side-by-side: stopwatch wiring
extension Implementation where App == StopwatchApp {
  /// The stopwatch as a comonadic component.
  public static var comonadic: Implementation {
    Implementation(architecture: "comonadic") { environment in
      ComonadicDriver<StopwatchApp>(
        ComonadicStopwatch.component(environment: environment), intent: { $0 })
    }
  }
}
// side-by-side: end

// side-by-side: weather wiring
extension Implementation where App == WeatherApp {
  /// The weather app as a comonadic component.
  public static var comonadic: Implementation {
    Implementation(architecture: "comonadic") { environment in
      ComonadicDriver<WeatherApp>(
        ComonadicWeather.component(environment: environment), intent: { $0 })
    }
  }
}
// side-by-side: end

/// The benchmark counter as a component: ``tally(_:_:)`` as a pure dispatcher, observers as
/// subscribers.
public final class ComonadicTally: TallySubject {
  typealias Component = StoreComponent<Void, TallyState, TallyAction, TallyState>
  let component: Component

  /// The tally as Bow Arch users write a dispatcher: each input is one state action.
  static let dispatcher = StateDispatcher<Void, TallyState, TallyAction>.pure { action in
    switch action {
    case .increment: .mutate { tally(&$0, .increment) }
    case .touch: .none
    }
  }

  public init(_ setup: TallySetup) {
    component = Component(
      initialState: setup.state, environment: (), dispatcher: Self.dispatcher,
      render: { state, _ in state })
    for _ in 0..<(setup.observers + setup.fanout) { component.subscribe(setup.notify) }
  }

  public func send(_ action: TallyAction, times: Int) {
    for _ in 0..<times { component.send(action) }
  }

  public var state: TallyState { component.state }

  public func stop() { component.stop() }
}
