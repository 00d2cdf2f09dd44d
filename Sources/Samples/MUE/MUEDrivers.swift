import ArchitectureSpec
import MUE
import Workloads

extension ClosureDriver {
  /// A MUE loop as a driver: observed by view first, then started.
  init<U: Update, H: EffectHandler>(
    loop: Loop<U, H>, render: @escaping @Sendable (U.State) -> App.View
  ) where H.Effect == U.Effect, U.Event == App.Intent {
    self.init(
      start: { observer in
        loop.observe(render, observer)
        loop.start()
      }, send: { loop.send($0) }, view: { render(loop.state) }, stop: { loop.stop() })
  }
}

// side-by-side: counter wiring
extension Implementation where App == CounterApp {
  /// The counter on MUE.
  public static var mue: Implementation {
    Implementation(architecture: "mue") { environment in
      ClosureDriver<CounterApp>(
        loop: MUECounter.makeLoop(environment: environment), render: MUECounter.view)
    }
  }
}
// side-by-side: end

// side-by-side: stopwatch wiring
extension Implementation where App == StopwatchApp {
  /// The stopwatch on MUE.
  public static var mue: Implementation {
    Implementation(architecture: "mue") { environment in
      ClosureDriver<StopwatchApp>(
        loop: MUEStopwatch.makeLoop(environment: environment), render: MUEStopwatch.view)
    }
  }
}
// side-by-side: end

// side-by-side: weather wiring
extension Implementation where App == WeatherApp {
  /// The weather app on MUE.
  public static var mue: Implementation {
    Implementation(architecture: "mue") { environment in
      ClosureDriver<WeatherApp>(
        loop: MUEWeather.makeLoop(environment: environment), render: MUEWeather.view)
    }
  }
}
// side-by-side: end

/// The benchmark counter as a MUE update: ``tally(_:_:)`` on a copy, no effects.
public struct TallyUpdate: Update {
  public typealias Effect = NoEffect

  public init() {}

  @inlinable
  public func handle(event: TallyAction, _ state: TallyState) -> UpdateResult<TallyState, NoEffect>
  {
    var next = state
    tally(&next, event)
    return .newState(state: next)
  }

  public func handle(result: Never, _ state: TallyState) -> UpdateResult<TallyState, NoEffect> {}
}

/// The benchmark counter on a MUE loop; observers observe the loop.
public final class MUETally: TallySubject {
  let loop: Loop<TallyUpdate, HandleEffects<NoEffect>>

  public init(_ setup: TallySetup) {
    loop = Loop(update: TallyUpdate(), state: setup.state)
    let notify = setup.notify
    for _ in 0..<(setup.observers + setup.fanout) { loop.observe { notify($0) } }
    loop.start()
  }

  public func send(_ action: TallyAction, times: Int) {
    for _ in 0..<times { loop.send(action) }
  }

  public var state: TallyState { loop.state }

  public func stop() { loop.stop() }
}

// side-by-side: todos wiring
final class MUETodosDriver: AppDriver, Sendable {
  typealias App = TodosApp
  let loop: Loop<MUETodos.Update, MUETodos.EffectHandler>
  private let pending = PendingObservers<Int, TodoRowView?>()

  init(environment: TodosEnvironment) { loop = MUETodos.makeLoop(environment: environment) }

  func start(observer: @escaping @Sendable (TodosView) -> Void) async {
    loop.observe(MUETodos.view, observer)
    for (id, observer) in pending.start() { observeRow(id, observer) }
    loop.start()
  }

  func observe(_ id: Int, observer: @escaping @Sendable (TodoRowView?) -> Void) async {
    if pending.defer(id, observer) { return }
    observeRow(id, observer)
  }

  /// One row's view, and `nil` once when it leaves the list (R11): the loop calls this only
  /// when that row changes.
  private func observeRow(_ id: Int, _ observer: @escaping @Sendable (TodoRowView?) -> Void) {
    let gone = Once()
    let render: @Sendable (MUETodoRow.State?) -> TodoRowView? = {
      $0.map { MUETodoRow.view(id: id, $0) }
    }
    loop.observe(\.rows, id: id, render) { view in
      guard !gone.isSet else { return }
      if view == nil { gone.set() }
      observer(view)
    }
  }

  func send(_ intent: TodosIntent) { loop.send(intent) }
  func send(_ intent: TodoRowIntent, to id: Int) { loop.send(.row(id: id, intent)) }
  var view: TodosView { get async { MUETodos.view(loop.state) } }
  func idle() async {}  // every effect runs on environment.executor, which the kit watches
  func stop() async { loop.stop() }
}

extension Implementation where App == TodosApp {
  /// The todos list on MUE.
  public static var mue: Implementation {
    Implementation(architecture: "mue") { MUETodosDriver(environment: $0) }
  }
}
// side-by-side: end

// side-by-side: shell wiring
final class MUEShellDriver: AppDriver, Sendable {
  typealias App = ShellApp
  let loop: Loop<MUEShell.Update, MUEShell.EffectHandler>
  private let pending = PendingObservers<ShellTab, ShellChildView>()

  init(environment: ShellEnvironment) { loop = MUEShell.makeLoop(environment: environment) }

  func start(observer: @escaping @Sendable (ShellView) -> Void) async {
    loop.observe(MUEShell.view, observer)
    for (tab, observer) in pending.start() { observeTab(tab, observer) }
    loop.start()
  }

  func observe(_ tab: ShellTab, observer: @escaping @Sendable (ShellChildView) -> Void) async {
    if pending.defer(tab, observer) { return }
    observeTab(tab, observer)
  }

  private func observeTab(_ tab: ShellTab, _ observer: @escaping @Sendable (ShellChildView) -> Void)
  {
    loop.observe({ MUEShell.childView(tab, $0) }, observer)
  }

  func send(_ intent: ShellIntent) { loop.send(intent) }
  /// An intent sent through a child's scope is the shell's intent for that child.
  func send(_ intent: ShellIntent, to tab: ShellTab) {
    switch (tab, intent) {
    case (.counter, .counter), (.stopwatch, .stopwatch), (.weather, .weather): loop.send(intent)
    default: break
    }
  }
  var view: ShellView { get async { MUEShell.view(loop.state) } }
  func idle() async {}
  func stop() async { loop.stop() }
}

extension Implementation where App == ShellApp {
  /// The shell on MUE.
  public static var mue: Implementation {
    Implementation(architecture: "mue") { MUEShellDriver(environment: $0) }
  }
}
// side-by-side: end

// side-by-side: contacts wiring
/// Connects the contacts loop to the kit: screens are observed one by one through
/// `loop.observe(_:id:_:)`, and the form's scope is `loop.handler(presented:)`, which belongs to
/// the presentation it was taken from (R13).
final class MUEContactsDriver: AppDriver, Sendable {
  typealias App = ContactsApp
  let loop: Loop<MUEContacts.Update, MUEContacts.EffectHandler>
  private let pending = PendingObservers<Int, ScreenView?>()

  init(environment: ContactsEnvironment) { loop = MUEContacts.makeLoop(environment: environment) }

  func start(observer: @escaping @Sendable (ContactsView) -> Void) async {
    loop.observe(MUEContacts.view, observer)
    await startUnobserved()
  }

  func startUnobserved() async {
    for (id, observer) in pending.start() { observeScreen(id, observer) }
    loop.start()
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
    let render: @Sendable (MUEContactScreen.State?) -> ScreenView? = {
      $0.map { MUEContactScreen.view(id: id, $0) }
    }
    loop.observe(\.stack, id: id, render) { view in
      guard !gone.isSet else { return }
      if view == nil { gone.set() }
      observer(view)
    }
  }

  func send(_ intent: ContactsIntent) { loop.send(intent) }
  func send(_ intent: ContactsChildIntent, to child: ContactsChild) { scope(child)(intent) }

  func scope(_ child: ContactsChild) -> @Sendable (ContactsChildIntent) -> Void {
    switch child {
    case .form:
      let form = loop.handler(presented: \.form)
      return { if case .form(let intent) = $0 { form?(.form(intent)) } }
    case .screen(let id):
      // A screen id is never reused: the app's event for that screen is its scope.
      return { [loop] in if case .screen(let intent) = $0 { loop.send(.screen(id: id, intent)) } }
    }
  }

  var view: ContactsView { get async { MUEContacts.view(loop.state) } }
  func idle() async {}
  func stop() async { loop.stop() }
}

extension Implementation where App == ContactsApp {
  /// The contacts app on MUE.
  public static var mue: Implementation {
    Implementation(architecture: "mue") { MUEContactsDriver(environment: $0) }
  }
}
// side-by-side: end
