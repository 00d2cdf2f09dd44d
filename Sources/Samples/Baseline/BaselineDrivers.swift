import ArchitectureSpec

// side-by-side: counter wiring
struct BaselineCounterDriver: AppDriver {
  typealias App = CounterApp
  let runtime: BaselineCounter
  func start(observer: @escaping @Sendable (CounterView) -> Void) async {
    runtime.start(observer: observer)
  }
  func send(_ intent: CounterIntent) { runtime.send(intent) }
  var view: CounterView { get async { runtime.view } }
  func idle() async {}
  func stop() async { runtime.stop() }
}
// side-by-side: end

// side-by-side: stopwatch wiring
struct BaselineStopwatchDriver: AppDriver {
  typealias App = StopwatchApp
  let runtime: BaselineStopwatch
  func start(observer: @escaping @Sendable (StopwatchView) -> Void) async {
    runtime.start(observer: observer)
  }
  func send(_ intent: StopwatchIntent) { runtime.send(intent) }
  var view: StopwatchView { get async { runtime.view } }
  func idle() async {}
  func stop() async { runtime.stop() }
}
// side-by-side: end

// side-by-side: weather wiring
struct BaselineWeatherDriver: AppDriver {
  typealias App = WeatherApp
  let runtime: BaselineWeather
  func start(observer: @escaping @Sendable (WeatherView) -> Void) async {
    runtime.start(observer: observer)
  }
  func send(_ intent: WeatherIntent) { runtime.send(intent) }
  var view: WeatherView { get async { runtime.view } }
  func idle() async {}
  func stop() async { runtime.stop() }
}
// side-by-side: end

// side-by-side: counter wiring
extension Implementation where App == CounterApp {
  /// The plain-Swift reference counter.
  public static var baseline: Implementation { .baseline(defects: []) }

  package static func baseline(defects: BaselineDefects) -> Implementation {
    Implementation(architecture: defects.isEmpty ? "baseline" : "mutant") {
      BaselineCounterDriver(runtime: BaselineCounter(environment: $0, defects: defects))
    }
  }
}
// side-by-side: end

// side-by-side: stopwatch wiring
extension Implementation where App == StopwatchApp {
  /// The plain-Swift reference stopwatch.
  public static var baseline: Implementation { .baseline(defects: []) }

  package static func baseline(defects: BaselineDefects) -> Implementation {
    Implementation(architecture: defects.isEmpty ? "baseline" : "mutant") {
      BaselineStopwatchDriver(runtime: BaselineStopwatch(environment: $0, defects: defects))
    }
  }
}
// side-by-side: end

// side-by-side: weather wiring
extension Implementation where App == WeatherApp {
  /// The plain-Swift reference weather app.
  public static var baseline: Implementation { .baseline(defects: []) }

  package static func baseline(defects: BaselineDefects) -> Implementation {
    Implementation(architecture: defects.isEmpty ? "baseline" : "mutant") {
      BaselineWeatherDriver(runtime: BaselineWeather(environment: $0, defects: defects))
    }
  }
}
// side-by-side: end

// side-by-side: todos wiring
struct BaselineTodosDriver: AppDriver {
  typealias App = TodosApp
  let runtime: BaselineTodos
  func start(observer: @escaping @Sendable (TodosView) -> Void) async {
    runtime.start(observer: observer)
  }
  func send(_ intent: TodosIntent) { runtime.send(intent) }
  func observe(_ id: Int, observer: @escaping @Sendable (TodoRowView?) -> Void) async {
    runtime.observe(row: id, observer)
  }
  // A row's scope sends the row's intents as `row(id, intent)`.
  func send(_ intent: TodoRowIntent, to id: Int) { runtime.send(.row(id: id, intent)) }
  var view: TodosView { get async { runtime.view } }
  func idle() async {}
  func stop() async { runtime.stop() }
}

extension Implementation where App == TodosApp {
  /// The plain-Swift reference todos list.
  public static var baseline: Implementation { .baseline(defects: []) }

  package static func baseline(defects: BaselineDefects) -> Implementation {
    Implementation(architecture: defects.isEmpty ? "baseline" : "mutant") {
      BaselineTodosDriver(runtime: BaselineTodos(environment: $0, defects: defects))
    }
  }
}
// side-by-side: end

// side-by-side: shell wiring
struct BaselineShellDriver: AppDriver {
  typealias App = ShellApp
  let runtime: BaselineShell
  func start(observer: @escaping @Sendable (ShellView) -> Void) async {
    runtime.start(observer: observer)
  }
  func send(_ intent: ShellIntent) { runtime.send(intent) }
  func observe(_ tab: ShellTab, observer: @escaping @Sendable (ShellChildView) -> Void) async {
    runtime.observe(tab, observer)
  }
  // A child's scope sends the child's intents as the shell's intent for that child.
  func send(_ intent: ShellIntent, to tab: ShellTab) {
    guard intent.child == tab else { return }
    runtime.send(intent)
  }
  var view: ShellView { get async { runtime.view } }
  func idle() async {}
  func stop() async { runtime.stop() }
}

extension Implementation where App == ShellApp {
  /// The plain-Swift reference shell.
  public static var baseline: Implementation { .baseline(defects: []) }

  package static func baseline(defects: BaselineDefects) -> Implementation {
    Implementation(architecture: defects.isEmpty ? "baseline" : "mutant") {
      BaselineShellDriver(runtime: BaselineShell(environment: $0, defects: defects))
    }
  }
}
// side-by-side: end

// side-by-side: contacts wiring
struct BaselineContactsDriver: AppDriver {
  typealias App = ContactsApp
  let runtime: BaselineContacts
  func start(observer: @escaping @Sendable (ContactsView) -> Void) async {
    runtime.start(observer: observer)
  }
  func startUnobserved() async { runtime.start(observer: nil) }
  func send(_ intent: ContactsIntent) { runtime.send(intent) }
  /// Screens are observed by screen id; the form is seen in the root view only.
  func observe(_ child: ContactsChild, observer: @escaping @Sendable (ScreenView?) -> Void) async {
    switch child {
    case .screen(let id): runtime.observe(screen: id, observer)
    case .form: observer(nil)
    }
  }
  // A screen's scope sends `screen(id, intent)`; the form's, `form(intent)`.
  func send(_ intent: ContactsChildIntent, to child: ContactsChild) {
    if let intent = intent.intent(through: child) { runtime.send(intent) }
  }
  /// The form's scope is the presentation shown when it was taken (R13).
  func scope(_ child: ContactsChild) -> @Sendable (ContactsChildIntent) -> Void {
    guard case .form = child else { return { [self] in send($0, to: child) } }
    let form = runtime.formScope()
    return { intent in if case .form(let intent) = intent { form(intent) } }
  }
  var view: ContactsView { get async { runtime.view } }
  func idle() async {}
  func stop() async { runtime.stop() }
}

extension Implementation where App == ContactsApp {
  /// The plain-Swift reference contacts app.
  public static var baseline: Implementation { .baseline(defects: []) }

  package static func baseline(defects: BaselineDefects) -> Implementation {
    Implementation(architecture: defects.isEmpty ? "baseline" : "mutant") {
      BaselineContactsDriver(runtime: BaselineContacts(environment: $0, defects: defects))
    }
  }
}
// side-by-side: end
