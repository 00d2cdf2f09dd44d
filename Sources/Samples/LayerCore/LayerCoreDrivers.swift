import ArchitectureSpec
import LayerCore
import Synchronization
import Workloads

extension ClosureDriver {
  /// A LayerCore flow as a driver: the kit plays the user at the app's screen, so intents
  /// travel the way a tap would, through the UI layer's machine.
  init(core: some Core, screen: Screen<App.View, App.Intent>, executor: (any TaskExecutor)?) {
    let flow = FlowBox()
    self.init(
      start: { observer in
        screen.observe(observer)
        flow.start(core, executor: executor)
      }, send: { screen.send($0) }, view: { screen.view }, stop: { flow.stop() })
  }
}

// side-by-side: counter wiring
extension Implementation where App == CounterApp {
  /// The counter on LayerCore.
  public static var layerCore: Implementation {
    Implementation(architecture: "layer-core") { environment in
      let screen = Screen<CounterView, CounterIntent>(placeholder: .loading)
      return ClosureDriver<CounterApp>(
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
      return ClosureDriver<StopwatchApp>(
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
      return ClosureDriver<WeatherApp>(
        core: LayerWeather.App(screen: screen, environment: environment), screen: screen,
        executor: environment.executor)
    }
  }
}
// side-by-side: end

// side-by-side: todos wiring
/// Connects the todos flow to the kit: the list's screen shows the root view, the rows' machine
/// each observed row's; intents go in through them as a tap would.
final class LayerTodosDriver: AppDriver, Sendable {
  typealias App = TodosApp
  let core: LayerTodos.App
  let screen = Screen<TodosView, TodosIntent>(placeholder: .loading)
  let rows = LayerTodoRows()
  let flow = FlowBox()
  let executor: (any TaskExecutor)?

  init(environment: TodosEnvironment) {
    core = LayerTodos.App(screen: screen, rows: rows, environment: environment)
    executor = environment.executor
  }

  func start(observer: @escaping @Sendable (TodosView) -> Void) async {
    screen.observe(observer)
    flow.start(core, executor: executor)
  }

  /// One row's view, and `nil` once when it is not or no longer in the list (R11). Asked
  /// before start, the rows' machine answers at its start.
  func observe(_ id: Int, observer: @escaping @Sendable (TodoRowView?) -> Void) async {
    let gone = Once()
    let view: @Sendable (LayerTodoRow.State?) -> TodoRowView? = {
      $0.map { LayerTodoRow.view(id: id, $0) }
    }
    rows.observe(id, view) { view in
      guard !gone.isSet else { return }
      if view == nil { gone.set() }
      observer(view)
    }
  }

  func send(_ intent: TodosIntent) { screen.send(intent) }
  func send(_ intent: TodoRowIntent, to id: Int) { rows.send(.row(id: id, intent)) }
  var view: TodosView { get async { screen.view } }
  func idle() async {}
  func stop() async { flow.stop() }
}

extension Implementation where App == TodosApp {
  /// The todos list on LayerCore.
  public static var layerCore: Implementation {
    Implementation(architecture: "layer-core") { LayerTodosDriver(environment: $0) }
  }
}
// side-by-side: end

// side-by-side: shell wiring
/// Connects the shell flow to the kit: the shell's screen and each child's.
final class LayerShellDriver: AppDriver, Sendable {
  typealias App = ShellApp
  let core: LayerShell.App
  let screens = LayerShell.Screens()
  let flow = FlowBox()
  let executor: (any TaskExecutor)?
  private let pending = PendingObservers<ShellTab, ShellChildView>()

  init(environment: ShellEnvironment) {
    core = LayerShell.App(screens: screens, environment: environment)
    executor = environment.executor
  }

  func start(observer: @escaping @Sendable (ShellView) -> Void) async {
    screens.shell.observe(observer)
    for (tab, observer) in pending.start() { observeTab(tab, observer) }
    flow.start(core, executor: executor)
  }

  func observe(_ tab: ShellTab, observer: @escaping @Sendable (ShellChildView) -> Void) async {
    if pending.defer(tab, observer) { return }
    observeTab(tab, observer)
  }

  private func observeTab(_ tab: ShellTab, _ observer: @escaping @Sendable (ShellChildView) -> Void)
  {
    switch tab {
    case .counter: screens.counter.observe { observer(.counter($0)) }
    case .stopwatch: screens.stopwatch.observe { observer(.stopwatch($0)) }
    case .weather: screens.weather.observe { observer(.weather($0)) }
    }
  }

  func send(_ intent: ShellIntent) { screens.shell.send(intent) }
  /// An intent sent through a child's scope goes in at that child's screen.
  func send(_ intent: ShellIntent, to tab: ShellTab) {
    switch (tab, intent) {
    case (.counter, .counter(let intent)): screens.counter.send(intent)
    case (.stopwatch, .stopwatch(let intent)): screens.stopwatch.send(intent)
    case (.weather, .weather(let intent)): screens.weather.send(intent)
    default: break
    }
  }
  var view: ShellView { get async { screens.shell.view } }
  func idle() async {}
  func stop() async { flow.stop() }
}

extension Implementation where App == ShellApp {
  /// The shell on LayerCore.
  public static var layerCore: Implementation {
    Implementation(architecture: "layer-core") { LayerShellDriver(environment: $0) }
  }
}
// side-by-side: end

/// The running flow of a driver, started once.
final class FlowBox: Sendable {
  private let stopFlow = Lock<(@Sendable () -> Void)?>(nil)

  @discardableResult
  func start<C: Core>(_ core: C, executor: (any TaskExecutor)?) -> Flow<C> {
    let started = core.start(executor: executor)
    stopFlow.withLock { $0 = { started.stop() } }
    return started
  }

  func stop() { stopFlow.withLock { $0 }?() }
}

/// The benchmark counter as a core whose layers are the workload's: its observers are layers
/// that call the workload's `notify`, and the `fanout` workloads add layers that each map the
/// state to one value. With neither (`dispatch`), the core has no layer, as the other
/// contestants' counters have no observer.
public final class LayerCoreTally: TallySubject {
  public static var fanout: Fanout { .layers }

  struct App: Core {
    let observers: Int
    let extraLayers: Int
    let notify: TallySink

    /// The benchmark's actions, and the set-up's state to start from.
    enum Event: Sendable {
      case restore(TallyState)
      case action(TallyAction)
    }

    var layers: [Layer<TallyState, Event>] {
      let notify = notify
      let watch = Layer<TallyState, Event>.consumer(~Watch(), mapper: { notify($0) })
      return Array(repeating: watch, count: observers)
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

// side-by-side: contacts wiring
/// Connects the contacts flow to the kit: the screen shows the view, the stack's machine the
/// single screens; the form's scope sends under the presentation shown when it was taken, which
/// the core ignores once that presentation ended (R13).
final class LayerContactsDriver: AppDriver, Sendable {
  typealias App = ContactsApp
  let core: LayerContacts.App
  let screen: Screen<LayerContacts.ScreenModel, LayerContacts.UIEvent>
  let screens = LayerContactScreens()
  let flow = FlowBox()
  let executor: (any TaskExecutor)?

  /// The flow's state now, once started.
  private let state = Lock<(@Sendable () -> LayerContacts.AppState?)?>(nil)

  init(environment: ContactsEnvironment) {
    // The screen shows the launch state from the first: the core starts with it. Unobserved,
    // it keeps no model (which holds the whole stack) and reads the flow's state when asked.
    let launch = LayerContacts.AppState(
      contacts: environment.contacts, launchPath: environment.launchPath)
    let state = state
    screen = Screen(
      placeholder: LayerContacts.model(launch),
      current: {
        guard let read = state.withLock({ $0 }), let now = read() else { return nil }
        return LayerContacts.model(now)
      }, shown: { $0.shown() })
    core = LayerContacts.App(screen: screen, screens: screens, environment: environment)
    executor = environment.executor
  }

  func start(observer: @escaping @Sendable (ContactsView) -> Void) async {
    screen.observe { observer($0.view) }
    await startUnobserved()
  }

  func startUnobserved() async {
    let started = flow.start(core, executor: executor)
    state.withLock { $0 = { started.state } }
  }

  /// One screen's view, and `nil` once when it is not or no longer on the stack (R11, R13).
  /// Asked before start, the stack's machine answers at its start.
  func observe(_ child: ContactsChild, observer: @escaping @Sendable (ScreenView?) -> Void) async {
    guard case .screen(let id) = child else { return observer(nil) }
    let gone = Once()
    let view: @Sendable (LayerContactScreen.State?) -> ScreenView? = {
      $0.map { LayerContactScreen.view(id: id, $0) }
    }
    screens.observe(id, view) { view in
      guard !gone.isSet else { return }
      if view == nil { gone.set() }
      observer(view)
    }
  }

  func send(_ intent: ContactsIntent) { screen.send(.intent(intent)) }
  func send(_ intent: ContactsChildIntent, to child: ContactsChild) { scope(child)(intent) }

  func scope(_ child: ContactsChild) -> @Sendable (ContactsChildIntent) -> Void {
    switch child {
    case .form:
      guard let presentation = screen.view.formPresentation else { return { _ in } }
      return { [screen] in
        if case .form(let intent) = $0 { screen.send(.form(presentation: presentation, intent)) }
      }
    case .screen(let id):
      return { [screens] in
        if case .screen(let intent) = $0 { screens.send(.screen(id: id, intent)) }
      }
    }
  }

  var view: ContactsView { get async { screen.view.view } }
  func idle() async {}
  func stop() async { flow.stop() }
}

extension Implementation where App == ContactsApp {
  /// The contacts app on LayerCore.
  public static var layerCore: Implementation {
    Implementation(architecture: "layer-core") { LayerContactsDriver(environment: $0) }
  }
}
// side-by-side: end
