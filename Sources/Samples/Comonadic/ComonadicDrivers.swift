import ArchitectureSpec
import Comonadic
import Workloads

extension ClosureDriver {
  /// A store component as a driver: built at once (it does nothing until sent an input),
  /// observed by view, and started by `start`.
  init<Environment, S, Input>(
    _ component: StoreComponent<Environment, S, Input, App.View>,
    intent: @escaping @Sendable (App.Intent) -> Input, appear: Input? = nil
  ) {
    // A store component with an `Equatable` view calls its observers when the view changed.
    self.init(
      subscribe: component.subscribe, send: component.send, view: { component.view },
      stop: component.stop, intent: intent, appear: appear)
  }

  /// A Moore component as a driver, like a store component.
  init<Environment, Message, Value, Input>(
    _ component: MooreComponent<Environment, Message, Value, Input, App.View>,
    intent: @escaping @Sendable (App.Intent) -> Input, appear: Input? = nil
  ) {
    // A Moore component notifies after every input; the kit wants changed views only.
    self.init(
      subscribe: { component.subscribe(distinctViews($0)) }, send: component.send,
      view: { component.view }, stop: component.stop, intent: intent, appear: appear)
  }

  private init<Input: Sendable>(
    subscribe: @escaping @Sendable (@escaping @Sendable (App.View) -> Void) -> Subscription,
    send: @escaping @Sendable (Input) -> Void, view: @escaping @Sendable () -> App.View,
    stop: @escaping @Sendable () -> Void, intent: @escaping @Sendable (App.Intent) -> Input,
    appear: Input?
  ) {
    self.init(
      start: { observer in
        _ = subscribe(observer)
        if let appear { send(appear) }
      }, send: { send(intent($0)) }, view: view, stop: stop)
  }
}

// side-by-side: counter wiring
extension Implementation where App == CounterApp {
  /// The counter as a comonadic component over a `Store`.
  public static var comonadic: Implementation {
    Implementation(architecture: "comonadic") { environment in
      ClosureDriver<CounterApp>(
        ComonadicCounter.component(environment: environment), intent: { .intent($0) },
        appear: .appear)
    }
  }
  // side-by-side: end

  /// The counter as a comonadic component over a `Moore` machine.
  public static var comonadicMoore: Implementation {
    Implementation(architecture: "comonadic-moore") { environment in
      ClosureDriver<CounterApp>(
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
      ClosureDriver<StopwatchApp>(
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
      ClosureDriver<WeatherApp>(
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
    let notify = setup.notify
    for _ in 0..<(setup.observers + setup.fanout) { component.subscribe { notify($0) } }
  }

  public func send(_ action: TallyAction, times: Int) {
    for _ in 0..<times { component.send(action) }
  }

  public var state: TallyState { component.state }

  public func stop() { component.stop() }
}

/// A view observer that hears only changed views: a Moore component and a child notify after
/// every action.
private func distinctViews<View: Equatable & Sendable>(
  _ observer: @escaping @Sendable (View) -> Void
) -> @Sendable (View) -> Void {
  let last = Lock<View?>(nil)
  return { view in
    // Unwrapped, then compared: `!=` on two optionals switches over the pair, whose type
    // generic code looks up each call.
    let isNew = last.withLock { last in
      if let seen = last, seen == view { return false }
      last = view
      return true
    }
    if isNew { observer(view) }
  }
}

// side-by-side: todos wiring
final class ComonadicTodosDriver: AppDriver, Sendable {
  typealias App = TodosApp
  let component: ComonadicTodos.Component
  private let pending = PendingObservers<Int, TodoRowView?>()

  init(environment: TodosEnvironment) {
    component = ComonadicTodos.component(environment: environment)
  }

  func start(observer: @escaping @Sendable (TodosView) -> Void) async {
    component.subscribe(observer)
    for (id, observer) in pending.start() { observeRow(id, observer) }
    component.send(.appear)
  }

  func observe(_ id: Int, observer: @escaping @Sendable (TodoRowView?) -> Void) async {
    if pending.defer(id, observer) { return }
    observeRow(id, observer)
  }

  /// One row as a child of the list: its view on each change, and `nil` once when it leaves
  /// the list (R11).
  private func observeRow(_ id: Int, _ observer: @escaping @Sendable (TodoRowView?) -> Void) {
    let gone = Once()
    let render:
      @Sendable (ComonadicTodoRow.State?, @escaping @Sendable (TodoRowIntent) -> Void) ->
        TodoRowView? = { row, _ in row.map { ComonadicTodoRow.render(id: id, $0) } }
    let input: @Sendable (TodoRowIntent) -> ComonadicTodos.Input = { .intent(.row(id: id, $0)) }
    let row = component.child(forEach: \.rows, id: id, input: input, render: render)
    row.subscribe { view in
      guard !gone.isSet else { return }
      if view == nil { gone.set() }
      observer(view)
    }
  }

  func send(_ intent: TodosIntent) { component.send(.intent(intent)) }
  func send(_ intent: TodoRowIntent, to id: Int) { component.send(.intent(.row(id: id, intent))) }
  var view: TodosView { get async { component.view } }
  func idle() async {}  // every effect runs on environment.executor, which the kit watches
  func stop() async { component.stop() }
}

extension Implementation where App == TodosApp {
  /// The todos list as a comonadic component.
  public static var comonadic: Implementation {
    Implementation(architecture: "comonadic") { ComonadicTodosDriver(environment: $0) }
  }
}
// side-by-side: end

// side-by-side: shell wiring
final class ComonadicShellDriver: AppDriver, Sendable {
  typealias App = ShellApp
  let component: ComonadicShell.Component
  private let pending = PendingObservers<ShellTab, ShellChildView>()

  init(environment: ShellEnvironment) {
    component = ComonadicShell.component(environment: environment)
  }

  func start(observer: @escaping @Sendable (ShellView) -> Void) async {
    component.subscribe(observer)
    for (tab, observer) in pending.start() { observeTab(tab, observer) }
    component.send(.counter(.appear))
  }

  func observe(_ tab: ShellTab, observer: @escaping @Sendable (ShellChildView) -> Void) async {
    if pending.defer(tab, observer) { return }
    observeTab(tab, observer)
  }

  /// One tab as a child of the shell, called when its view changes.
  private func observeTab(_ tab: ShellTab, _ observer: @escaping @Sendable (ShellChildView) -> Void)
  {
    let render:
      @Sendable (ComonadicShell.State, @escaping @Sendable (ShellIntent) -> Void) ->
        ShellChildView = { state, _ in ComonadicShell.childView(tab, state) }
    component.child(state: \.self, input: shellInput, render: render)
      .subscribe(distinctViews(observer))
  }

  func send(_ intent: ShellIntent) { component.send(shellInput(intent)) }
  /// An intent sent through a child's scope is the shell's intent for that child.
  func send(_ intent: ShellIntent, to tab: ShellTab) {
    switch (tab, intent) {
    case (.counter, .counter), (.stopwatch, .stopwatch), (.weather, .weather): send(intent)
    default: break
    }
  }
  var view: ShellView { get async { component.view } }
  func idle() async {}
  func stop() async { component.stop() }
}

/// The shell's input for a shell intent.
@Sendable private func shellInput(_ intent: ShellIntent) -> ComonadicShell.Input {
  switch intent {
  case .select(let tab): .select(tab)
  case .counter(let intent): .counter(.intent(intent))
  case .stopwatch(let intent): .stopwatch(intent)
  case .weather(let intent): .weather(intent)
  case .resetAll: .resetAll
  }
}

extension Implementation where App == ShellApp {
  /// The shell as a comonadic component.
  public static var comonadic: Implementation {
    Implementation(architecture: "comonadic") { ComonadicShellDriver(environment: $0) }
  }
}
// side-by-side: end

// side-by-side: contacts wiring
/// Connects the contacts component to the kit: screens are observed one by one as children of
/// the stack (`child(forEach:id:)`), and the form's scope is `child(presented:)`, which belongs to
/// the presentation it was taken from (R13).
final class ComonadicContactsDriver: AppDriver, Sendable {
  typealias App = ContactsApp
  let component: ComonadicContacts.Component
  private let pending = PendingObservers<Int, ScreenView?>()

  init(environment: ContactsEnvironment) {
    component = ComonadicContacts.component(environment: environment)
  }

  func start(observer: @escaping @Sendable (ContactsView) -> Void) async {
    component.subscribe(observer)
    await startUnobserved()
  }

  func startUnobserved() async {
    for (id, observer) in pending.start() { observeScreen(id, observer) }
    component.send(.appear)
  }

  /// Screens are observed by screen id; the form is seen in the root view only.
  func observe(_ child: ContactsChild, observer: @escaping @Sendable (ScreenView?) -> Void) async {
    guard case .screen(let id) = child else { return observer(nil) }
    if pending.defer(id, observer) { return }
    observeScreen(id, observer)
  }

  /// One screen as a child of the stack: its view on each change, and `nil` once when it
  /// leaves the stack (R11, R13).
  private func observeScreen(_ id: Int, _ observer: @escaping @Sendable (ScreenView?) -> Void) {
    let gone = Once()
    let render:
      @Sendable (ComonadicContactScreen.State?, @escaping @Sendable (ScreenIntent) -> Void) ->
        ScreenView? = { screen, _ in screen.map { ComonadicContactScreen.render(id: id, $0) } }
    let screen = component.child(
      forEach: \.stack, id: id, input: { .intent(.screen(id: id, $0)) }, render: render)
    screen.subscribe { view in
      guard !gone.isSet else { return }
      if view == nil { gone.set() }
      observer(view)
    }
  }

  func send(_ intent: ContactsIntent) { component.send(.intent(intent)) }
  func send(_ intent: ContactsChildIntent, to child: ContactsChild) { scope(child)(intent) }

  func scope(_ child: ContactsChild) -> @Sendable (ContactsChildIntent) -> Void {
    switch child {
    case .form:
      let form = component.child(
        presented: \.form, input: { .intent(.form($0)) }, render: { form, _ in form })
      return { if case .form(let intent) = $0 { form.send(intent) } }
    case .screen(let id):
      // A screen id is never reused: the app's input for that screen is its scope.
      return { [component] in
        if case .screen(let intent) = $0 { component.send(.intent(.screen(id: id, intent))) }
      }
    }
  }

  var view: ContactsView { get async { component.view } }
  func idle() async {}  // every effect runs on environment.executor, which the kit watches
  func stop() async { component.stop() }
}

extension Implementation where App == ContactsApp {
  /// The contacts app as a comonadic component.
  public static var comonadic: Implementation {
    Implementation(architecture: "comonadic") { ComonadicContactsDriver(environment: $0) }
  }
}
// side-by-side: end
