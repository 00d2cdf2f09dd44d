import ArchitectureSpec
import ElmStore
import Synchronization
import Workloads

extension ClosureDriver {
  /// An ElmStore app as a driver: the store is built at once (it does nothing until dispatched
  /// to), observed by view, and started by `start`.
  init<State: Equatable & Sendable, Action: Sendable>(
    store: Store<State, Action>, render: @escaping @Sendable (State) -> App.View,
    intent: @escaping @Sendable (App.Intent) -> Action, startAction: Action?
  ) {
    self.init(
      start: { observer in
        store.subscribe(render, observer)
        if let startAction { store.dispatch(startAction) }
      }, send: { store.dispatch(intent($0)) }, view: { render(store.state) },
      stop: { store.stop() })
  }
}

// side-by-side: counter wiring
extension Implementation where App == CounterApp {
  /// The counter on ElmStore.
  public static var elmStore: Implementation {
    Implementation(architecture: "elm-store") { environment in
      ClosureDriver<CounterApp>(
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
      ClosureDriver<StopwatchApp>(
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
      ClosureDriver<WeatherApp>(
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
    let notify = setup.notify
    for _ in 0..<(setup.observers + setup.fanout) { store.subscribe { notify($0) } }
  }

  public func send(_ action: TallyAction, times: Int) {
    for _ in 0..<times { store.dispatch(action) }
  }

  public var state: TallyState { store.state }

  public func stop() { store.stop() }
}

// side-by-side: todos wiring
/// Connects the todos store to the kit: rows are observed and sent to through
/// `store.scope(forEach:id:action:)`; observers asked for before start are subscribed at start.
final class ElmTodosDriver: AppDriver, Sendable {
  typealias App = TodosApp
  let store: Store<ElmTodos.State, ElmTodos.Action>
  private let pending = PendingObservers<Int, TodoRowView?>()

  init(environment: TodosEnvironment) { store = ElmTodos.makeStore(environment: environment) }

  func row(_ id: Int) -> ScopedStore<ElmTodoRow.State?, TodoRowIntent> {
    store.scope(forEach: \.rows, id: id) { .intent(.row(id: $0, $1)) }
  }

  func start(observer: @escaping @Sendable (TodosView) -> Void) async {
    store.subscribe(ElmTodos.view, observer)
    for (id, observer) in pending.start() { subscribe(id, observer) }
    store.dispatch(.load)
  }

  func observe(_ id: Int, observer: @escaping @Sendable (TodoRowView?) -> Void) async {
    if pending.defer(id, observer) { return }
    subscribe(id, observer)
  }

  /// A row's observer: its view, `nil` once when it is gone, then nothing (R11).
  private func subscribe(_ id: Int, _ observer: @escaping @Sendable (TodoRowView?) -> Void) {
    let gone = Once()
    let render: @Sendable (ElmTodoRow.State?) -> TodoRowView? = {
      $0.map { ElmTodoRow.view(id: id, $0) }
    }
    row(id).subscribe(render) { view in
      guard !gone.isSet else { return }
      if view == nil { gone.set() }
      observer(view)
    }
  }

  func send(_ intent: TodosIntent) { store.dispatch(.intent(intent)) }
  func send(_ intent: TodoRowIntent, to id: Int) { row(id).dispatch(intent) }
  var view: TodosView { get async { ElmTodos.view(store.state) } }
  func idle() async {}  // every effect runs on environment.executor, which the kit watches
  func stop() async { store.stop() }
}

extension Implementation where App == TodosApp {
  /// The todos list on ElmStore.
  public static var elmStore: Implementation {
    Implementation(architecture: "elm-store") { ElmTodosDriver(environment: $0) }
  }
}
// side-by-side: end

// side-by-side: shell wiring
/// Connects the shell store to the kit: each child is observed and sent to through
/// `store.scope(state:action:)`.
final class ElmShellDriver: AppDriver, Sendable {
  typealias App = ShellApp
  let store: Store<ElmShell.State, ElmShell.Action>
  private let pending = PendingObservers<ShellTab, ShellChildView>()

  init(environment: ShellEnvironment) { store = ElmShell.makeStore(environment: environment) }

  func start(observer: @escaping @Sendable (ShellView) -> Void) async {
    store.subscribe(ElmShell.view, observer)
    for (tab, observer) in pending.start() { subscribe(tab, observer) }
    store.dispatch(.counter(.load))
  }

  func observe(_ tab: ShellTab, observer: @escaping @Sendable (ShellChildView) -> Void) async {
    if pending.defer(tab, observer) { return }
    subscribe(tab, observer)
  }

  private func subscribe(_ tab: ShellTab, _ observer: @escaping @Sendable (ShellChildView) -> Void)
  {
    switch tab {
    case .counter:
      store.scope(state: \.counter, action: ElmShell.Action.counter).subscribe(
        { .counter(ElmCounter.view($0)) }, observer)
    case .stopwatch:
      store.scope(state: \.stopwatch, action: ElmShell.Action.stopwatch).subscribe(
        { .stopwatch(ElmStopwatch.view($0)) }, observer)
    case .weather:
      store.scope(state: \.weather, action: ElmShell.Action.weather).subscribe(
        { .weather(ElmWeather.view($0)) }, observer)
    }
  }

  func send(_ intent: ShellIntent) {
    switch intent {
    case .select(let tab): store.dispatch(.select(tab))
    case .counter(let intent): store.dispatch(.counter(.intent(intent)))
    case .stopwatch(let intent): store.dispatch(.stopwatch(.intent(intent)))
    case .weather(let intent): store.dispatch(.weather(.intent(intent)))
    case .resetAll: store.dispatch(.resetAll)
    }
  }

  /// Through the child's scope: the child's own action, embedded by the scope.
  func send(_ intent: ShellIntent, to tab: ShellTab) {
    switch (tab, intent) {
    case (.counter, .counter(let intent)):
      store.scope(state: \.counter, action: ElmShell.Action.counter).dispatch(.intent(intent))
    case (.stopwatch, .stopwatch(let intent)):
      store.scope(state: \.stopwatch, action: ElmShell.Action.stopwatch).dispatch(.intent(intent))
    case (.weather, .weather(let intent)):
      store.scope(state: \.weather, action: ElmShell.Action.weather).dispatch(.intent(intent))
    default: break
    }
  }

  var view: ShellView { get async { ElmShell.view(store.state) } }
  func idle() async {}
  func stop() async { store.stop() }
}

extension Implementation where App == ShellApp {
  /// The shell on ElmStore.
  public static var elmStore: Implementation {
    Implementation(architecture: "elm-store") { ElmShellDriver(environment: $0) }
  }
}
// side-by-side: end

// side-by-side: contacts wiring
/// Connects the contacts store to the kit: screens are observed and sent to through
/// `store.scope(forEach:id:action:)`, the form through `store.scope(ifLet:action:)`, which
/// belongs to the presentation it was taken from (R13).
final class ElmContactsDriver: AppDriver, Sendable {
  typealias App = ContactsApp
  let store: Store<ElmContacts.State, ElmContacts.Action>
  private let pending = PendingObservers<Int, ScreenView?>()

  init(environment: ContactsEnvironment) { store = ElmContacts.makeStore(environment: environment) }

  func screen(_ id: Int) -> ScopedStore<ElmContactScreen.State?, ElmContactScreen.Action> {
    store.scope(forEach: \.stack, id: id) { .screen(id: $0, $1) }
  }

  func start(observer: @escaping @Sendable (ContactsView) -> Void) async {
    store.subscribe(ElmContacts.view, observer)
    await startUnobserved()
  }

  func startUnobserved() async {
    for (id, observer) in pending.start() { subscribe(id, observer) }
    store.dispatch(.start)
  }

  /// Screens are observed by screen id; the form is seen in the root view only.
  func observe(_ child: ContactsChild, observer: @escaping @Sendable (ScreenView?) -> Void) async {
    guard case .screen(let id) = child else { return observer(nil) }
    if pending.defer(id, observer) { return }
    subscribe(id, observer)
  }

  /// A screen's observer: its view, `nil` once when it is gone, then nothing (R11, R13).
  private func subscribe(_ id: Int, _ observer: @escaping @Sendable (ScreenView?) -> Void) {
    let gone = Once()
    let render: @Sendable (ElmContactScreen.State?) -> ScreenView? = {
      $0.map { ElmContactScreen.view(id: id, $0) }
    }
    screen(id).subscribe(render) { view in
      guard !gone.isSet else { return }
      if view == nil { gone.set() }
      observer(view)
    }
  }

  func send(_ intent: ContactsIntent) { store.dispatch(.intent(intent)) }

  func send(_ intent: ContactsChildIntent, to child: ContactsChild) { scope(child)(intent) }

  func scope(_ child: ContactsChild) -> @Sendable (ContactsChildIntent) -> Void {
    switch child {
    case .form:
      let form = store.scope(ifLet: \.form) { ElmContacts.Action.form($0) }
      return { if case .form(let intent) = $0 { form?.dispatch(.intent(intent)) } }
    case .screen(let id):
      let screen = screen(id)
      return { if case .screen(let intent) = $0 { screen.dispatch(.intent(intent)) } }
    }
  }

  var view: ContactsView { get async { ElmContacts.view(store.state) } }
  func idle() async {}
  func stop() async { store.stop() }
}

extension Implementation where App == ContactsApp {
  /// The contacts app on ElmStore.
  public static var elmStore: Implementation {
    Implementation(architecture: "elm-store") { ElmContactsDriver(environment: $0) }
  }
}
// side-by-side: end
