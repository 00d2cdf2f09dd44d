import ArchitectureSpec
import IOLoop
import Workloads

extension ClosureDriver {
  /// An IOLoop program as a driver, through its screen: views come out of the screen handler,
  /// intents go in as screen inputs.
  init(
    screen: Screen<App.View>, begin: @escaping @Sendable () -> Void,
    intent: @escaping @Sendable (App.Intent) -> Void,
    currentView: @escaping @Sendable () -> App.View, end: @escaping @Sendable () -> Void
  ) {
    self.init(
      start: { observer in
        screen.attach(observer)
        begin()
      }, send: intent,
      // What the screen shows: the view of the state now, without building it again.
      view: { screen.current(or: currentView) }, stop: end)
  }
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
      return ClosureDriver<CounterApp>(
        screen: screen, begin: main.start,
        intent: { main.send($0, from: ScreenIO<CounterView, CounterIntent>.self) },
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
      return ClosureDriver<StopwatchApp>(
        screen: screen, begin: main.start,
        intent: { main.send($0, from: ScreenIO<StopwatchView, StopwatchIntent>.self) },
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
      return ClosureDriver<WeatherApp>(
        screen: screen, begin: main.start, intent: { main.send($0, from: IOWeather.Screen.self) },
        currentView: { main.state.view }, end: main.stop)
    }
  }
}
// side-by-side: end

/// The benchmark counter as a pure app: ``tally(_:_:)`` on a copy. Its actions come in through
/// a screen; observers follow the program's state (`Main.observe`), so a step asks for no
/// output.
public struct TallyApp: PureApp, Equatable {
  public var tally: TallyState

  public init(tally: TallyState) { self.tally = tally }

  /// The default tally; the benchmark starts from its set-up instead.
  public static func start() -> (TallyApp, IOOutputs<ScreenIO<TallyState, TallyAction>>) {
    (TallyApp(tally: TallyState()), .none)
  }

  @inlinable
  public func run(input: IOInput<ScreenIO<TallyState, TallyAction>>) -> (
    TallyApp, IOOutputs<ScreenIO<TallyState, TallyAction>>
  ) {
    guard let action = input.value(from: ScreenIO<TallyState, TallyAction>.self) else {
      return (self, .none)
    }
    var next = self
    Workloads.tally(&next.tally, action)
    return (next, .none)
  }
}

/// The benchmark counter on an IOLoop program; observers (and the fan-out's) watch its state.
public final class IOLoopTally: TallySubject {
  let main: Main<TallyApp, ScreenHandler<TallyState, TallyAction>>

  public init(_ setup: TallySetup) {
    main = Main(state: TallyApp(tally: setup.state), handlers: ScreenHandler(Screen()))
    // Whole-program observers: the program compares each step's state once for all of them.
    let notify = setup.notify
    for _ in 0..<(setup.observers + setup.fanout) { main.observe { notify($0.tally) } }
    main.start()
  }

  public func send(_ action: TallyAction, times: Int) {
    for _ in 0..<times { main.send(action, from: ScreenIO<TallyState, TallyAction>.self) }
  }

  public var state: TallyState { main.state.tally }

  public func stop() { main.stop() }
}

// side-by-side: todos wiring
/// Connects the todos program to the kit: the list's view and each row's view are observed on
/// the program (a row observer is called only when its row's view changes).
final class IOTodosDriver: AppDriver, Sendable {
  typealias App = TodosApp
  let main:
    Main<
      IOTodos, InputOnlyHandler<TodosIntentIO>,
      ProgramsHandler<Int, IOTodoRow, InputOnlyHandler<TodoRowIO>>, LogHandler, TodoStorageHandler
    >
  private let pending = PendingObservers<Int, TodoRowView?>()

  init(environment: TodosEnvironment) {
    main = Main(
      app: IOTodos.self,
      handlers: InputOnlyHandler(),
      ProgramsHandler(IOTodoRow.self, id: Int.self, handlers: InputOnlyHandler<TodoRowIO>()),
      LogHandler(environment.log), TodoStorageHandler(environment.storage),
      executor: environment.executor)
  }

  func start(observer: @escaping @Sendable (TodosView) -> Void) async {
    main.observe({ $0.view }, observer)
    for (id, observer) in pending.start() { observeRow(id, observer) }
    main.start()
  }

  func observe(_ id: Int, observer: @escaping @Sendable (TodoRowView?) -> Void) async {
    if pending.defer(id, observer) { return }
    observeRow(id, observer)
  }

  /// One row's view, and `nil` once when it leaves the list (R11): the program calls this only
  /// when that row changes.
  private func observeRow(_ id: Int, _ observer: @escaping @Sendable (TodoRowView?) -> Void) {
    let gone = Once()
    let render: @Sendable (IOTodoRow?) -> TodoRowView? = { $0?.view(id: id) }
    main.observe(\.rows, id: id, render) { view in
      guard !gone.isSet else { return }
      if view == nil { gone.set() }
      observer(view)
    }
  }

  func send(_ intent: TodosIntent) { main.send(intent, from: TodosIntentIO.self) }
  /// An intent sent through a row's scope: the row program's input, tagged with its id.
  func send(_ intent: TodoRowIntent, to id: Int) {
    main.send(IOTodos.Rows.Input(id: id, input: IOInput(intent)), from: IOTodos.Rows.self)
  }
  var view: TodosView { get async { main.state.view } }
  func idle() async {}  // all work runs on environment.executor, which the kit watches
  func stop() async { main.stop() }
}

extension Implementation where App == TodosApp {
  /// The todos list on IOLoop.
  public static var ioLoop: Implementation {
    Implementation(architecture: "io-loop") { IOTodosDriver(environment: $0) }
  }
}
// side-by-side: end

// side-by-side: shell wiring
/// Connects the shell program to the kit. The children's own screens are not shown: the shell
/// and each tab are observed on the program.
final class IOShellDriver: AppDriver, Sendable {
  typealias App = ShellApp
  let main:
    Main<
      IOShell, InputOnlyHandler<ShellIntentIO>,
      ProgramHandler<
        IOCounter, ScreenHandler<CounterView, CounterIntent>, LogHandler, StorageHandler
      >, ProgramHandler<IOStopwatch, ScreenHandler<StopwatchView, StopwatchIntent>, TimerHandler>,
      ProgramHandler<
        IOWeather, ScreenHandler<WeatherView, WeatherIntent>, DebounceHandler, SearchHandler,
        ForecastHandler
      >
    >
  private let pending = PendingObservers<ShellTab, ShellChildView>()

  init(environment: ShellEnvironment) {
    main = Main(
      app: IOShell.self,
      handlers: InputOnlyHandler(),
      ProgramHandler(
        IOCounter.self, handlers: ScreenHandler(Screen()), LogHandler(environment.log),
        StorageHandler(environment.storage)),
      ProgramHandler(
        IOStopwatch.self, handlers: ScreenHandler(Screen()), TimerHandler(clock: environment.clock)),
      ProgramHandler(
        IOWeather.self, handlers: ScreenHandler(Screen()),
        DebounceHandler(clock: environment.clock), SearchHandler(service: environment.service),
        ForecastHandler(service: environment.service)),
      executor: environment.executor)
  }

  func start(observer: @escaping @Sendable (ShellView) -> Void) async {
    main.observe({ $0.view }, observer)
    for (tab, observer) in pending.start() { observeTab(tab, observer) }
    main.start()
  }

  func observe(_ tab: ShellTab, observer: @escaping @Sendable (ShellChildView) -> Void) async {
    if pending.defer(tab, observer) { return }
    observeTab(tab, observer)
  }

  private func observeTab(_ tab: ShellTab, _ observer: @escaping @Sendable (ShellChildView) -> Void)
  {
    main.observe({ $0.childView(tab) }, observer)
  }

  func send(_ intent: ShellIntent) { main.send(intent, from: ShellIntentIO.self) }
  /// An intent sent through a child's scope is the shell's intent for that child.
  func send(_ intent: ShellIntent, to tab: ShellTab) {
    switch (tab, intent) {
    case (.counter, .counter), (.stopwatch, .stopwatch), (.weather, .weather): send(intent)
    default: break
    }
  }
  var view: ShellView { get async { main.state.view } }
  func idle() async {}
  func stop() async { main.stop() }
}

extension Implementation where App == ShellApp {
  /// The shell on IOLoop.
  public static var ioLoop: Implementation {
    Implementation(architecture: "io-loop") { IOShellDriver(environment: $0) }
  }
}
// side-by-side: end

// side-by-side: contacts wiring
/// Connects the contacts program to the kit: screens are observed one by one on the program;
/// the form's scope sends the form program's input under the presentation shown when it was
/// taken, which the program drops once that presentation ended (R13).
final class IOContactsDriver: AppDriver, Sendable {
  typealias App = ContactsApp
  let main:
    Main<
      IOContacts, InputOnlyHandler<ContactsIntentIO>,
      ProgramsHandler<Int, IOAddForm, InputOnlyHandler<FormIntentIO>, CreateContactHandler>,
      ProgramsHandler<Int, IOContactScreen, InputOnlyHandler<ScreenIntentIO>, DetailsHandler>
    >
  private let pending = PendingObservers<Int, ScreenView?>()

  init(environment: ContactsEnvironment) {
    let (state, outputs) = IOContacts.launching(
      contacts: environment.contacts, launchPath: environment.launchPath)
    main = Main(
      state: state, outputs: outputs,
      handlers: InputOnlyHandler(),
      ProgramsHandler(
        IOAddForm.self, id: Int.self, handlers: InputOnlyHandler<FormIntentIO>(),
        CreateContactHandler(service: environment.service)),
      ProgramsHandler(
        IOContactScreen.self, id: Int.self, handlers: InputOnlyHandler<ScreenIntentIO>(),
        DetailsHandler(service: environment.service)),
      executor: environment.executor)
  }

  func start(observer: @escaping @Sendable (ContactsView) -> Void) async {
    main.observe({ $0.view }, observer)
    await startUnobserved()
  }

  func startUnobserved() async {
    for (id, observer) in pending.start() { observeScreen(id, observer) }
    main.start()
  }

  /// Screens are observed by screen id; the form is seen in the root view only.
  func observe(_ child: ContactsChild, observer: @escaping @Sendable (ScreenView?) -> Void) async {
    guard case .screen(let id) = child else { return observer(nil) }
    if pending.defer(id, observer) { return }
    observeScreen(id, observer)
  }

  /// One screen's view, and `nil` once when it leaves the stack (R11, R13).
  private func observeScreen(_ id: Int, _ observer: @escaping @Sendable (ScreenView?) -> Void) {
    let gone = Once()
    let render: @Sendable (IOContactScreen?) -> ScreenView? = { $0?.view(id: id) }
    main.observe(\.stack, id: id, render) { view in
      guard !gone.isSet else { return }
      if view == nil { gone.set() }
      observer(view)
    }
  }

  func send(_ intent: ContactsIntent) { main.send(intent, from: ContactsIntentIO.self) }
  func send(_ intent: ContactsChildIntent, to child: ContactsChild) { scope(child)(intent) }

  func scope(_ child: ContactsChild) -> @Sendable (ContactsChildIntent) -> Void {
    switch child {
    case .form:
      let form = main.state.form
      guard form.isPresented else { return { _ in } }
      return { [main] in
        guard case .form(let intent) = $0 else { return }
        main.send(
          IOContacts.Form.Input(id: form.number, input: IOInput(intent, nil)),
          from: IOContacts.Form.self)
      }
    case .screen(let id):
      return { [main] in
        guard case .screen(let intent) = $0 else { return }
        main.send(
          IOContacts.Screens.Input(id: id, input: IOInput(intent, nil)),
          from: IOContacts.Screens.self)
      }
    }
  }

  var view: ContactsView { get async { main.state.view } }
  func idle() async {}
  func stop() async { main.stop() }
}

extension Implementation where App == ContactsApp {
  /// The contacts app on IOLoop.
  public static var ioLoop: Implementation {
    Implementation(architecture: "io-loop") { IOContactsDriver(environment: $0) }
  }
}
// side-by-side: end
