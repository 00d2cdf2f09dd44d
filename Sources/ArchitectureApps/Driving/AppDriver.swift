/// An app of the spec: its name, its intents, its view and its environment.
///
/// ``CounterApp``, ``StopwatchApp``, ``WeatherApp``, ``TodosApp`` and ``ShellApp`` conform. An
/// app with child features (`todos`, `shell`) also names how a child is addressed (``Child``),
/// what a child's observer receives (``ChildView``) and what an intent sent through a child's
/// scope is (``ChildIntent``), for scoped observation (SPEC R11). Apps without children keep the
/// defaults, ``NoChild``.
public protocol SpecApp: Sendable {
  associatedtype Intent: Sendable, Hashable, Codable, CustomStringConvertible
  associatedtype View: Sendable, Hashable, Codable, CustomStringConvertible
  associatedtype Environment: Sendable
  /// How a child feature is addressed: a row id, a tab.
  associatedtype Child: Sendable, Hashable, Comparable, Codable, CustomStringConvertible = NoChild
  /// What a child's observer receives: a row's view, or `nil` once the row is gone.
  associatedtype ChildView: Sendable, Hashable, Codable = NoChild
  /// What an intent sent through a child's scope carries.
  associatedtype ChildIntent: Sendable, Hashable, Codable, CustomStringConvertible = NoChild

  /// The app's name on the command line and in reports: `counter`, `stopwatch`, `weather`, ….
  static var name: String { get }
}

/// The child of an app that has none: no value exists.
public enum NoChild: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
  public init(from decoder: any Decoder) throws {
    throw DecodingError.dataCorrupted(
      DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "an app has no child")
    )
  }

  public func encode(to encoder: any Encoder) throws {}

  public var description: String { "" }
}

/// What an architecture implements once per app so the kit, the benchmarks and `arch run` can
/// drive it.
///
/// A driver owns one runtime. It is created with the environment and must not start anything
/// until ``start(observer:)`` (R1). For deterministic settling, create every task with
/// `Task(executorPreference: environment.executor)`; ``idle()`` covers anything the runtime
/// does elsewhere.
///
/// ```swift
/// struct MyCounterDriver: AppDriver {
///   let store: MyStore
///   init(environment: CounterEnvironment) { store = MyStore(environment) }
///   func start(observer: @escaping @Sendable (CounterView) -> Void) async {
///     store.subscribe(observer)
///     store.start()
///   }
///   func send(_ intent: CounterIntent) { store.dispatch(intent) }
///   var view: CounterView { get async { store.view } }
///   func idle() async { await store.idle() }
///   func stop() async { store.stop() }
/// }
/// ```
///
/// A runtime whose `send` is asynchronous (an actor store) implements ``send(_:)`` by handing
/// the intent to a task it starts with the environment's executor preference, in order; the
/// kit waits for that task like any other effect.
public protocol AppDriver<App>: Sendable {
  associatedtype App: SpecApp

  /// Starts the runtime. `observer` receives the current view at once and then every view
  /// that changed after a processed message (R10).
  func start(observer: @escaping @Sendable (App.View) -> Void) async

  /// Starts the runtime with no root observer: only child observers, if any, are called. An
  /// app whose root view holds every screen of a stack is measured this way (SPEC R13: with no
  /// root observer, pushing and popping a screen costs the same under 10 or 10,000 screens).
  /// The default starts with an observer that ignores every view, so the runtime still makes
  /// them; a driver whose library can run unobserved overrides it.
  func startUnobserved() async

  /// Sends an intent. Callable from any thread or task, also from inside `observer` (R2, R3).
  func send(_ intent: App.Intent)

  /// The view now.
  var view: App.View { get async }

  /// Returns when nothing is queued and no finite effect runs outside the environment's
  /// executor (R7).
  func idle() async

  /// Stops the runtime (R6).
  func stop() async

  /// Observes one child feature through the architecture's own scoping (R11): `observer`
  /// receives the child's current view (at start, if not started yet) and then only the
  /// child's changes.
  func observe(_ child: App.Child, observer: @escaping @Sendable (App.ChildView) -> Void) async

  /// Sends an intent through a child's scope (R11, R12).
  func send(_ intent: App.ChildIntent, to child: App.Child)

  /// A scope of `child` taken now, for a caller that keeps it: what it sends reaches the child
  /// as it is now, and nothing once that child was dismissed (R13), also while a later child of
  /// the same kind is presented (a scope of a dismissed add form stays dead). The default sends
  /// through ``send(_:to:)``, right for children whose address is never reused (rows, tabs,
  /// screens by screen id).
  func scope(_ child: App.Child) -> @Sendable (App.ChildIntent) -> Void

  /// The spec rules this driver's glue code, rather than the library itself, takes care of
  /// (for example a driver that queues intents because the library nests them). Reports list
  /// them next to the result, so readers can tell the library's work from the adapter's.
  var rulesMetByGlue: [String] { get }
}

extension AppDriver {
  public var rulesMetByGlue: [String] { [] }

  public func startUnobserved() async { await start(observer: { _ in }) }

  public func scope(_ child: App.Child) -> @Sendable (App.ChildIntent) -> Void {
    { [self] intent in send(intent, to: child) }
  }
}

extension AppDriver where App.Child == NoChild {
  public func observe(
    _ child: App.Child, observer: @escaping @Sendable (App.ChildView) -> Void
  ) async {}
}

extension AppDriver where App.ChildIntent == NoChild {
  public func send(_ intent: App.ChildIntent, to child: App.Child) {}
}

/// One architecture's way of running one app: a name and a driver factory.
public struct Implementation<App: SpecApp>: Sendable {
  /// The architecture's name: `baseline`, `io-loop`, `elm-store`, `mue`, `layer-core`,
  /// `comonadic`, or one of your own.
  public var architecture: String

  /// Creates a driver around a new, unstarted runtime.
  public var makeDriver: @Sendable (App.Environment) -> any AppDriver<App>

  public init(
    architecture: String, makeDriver: @escaping @Sendable (App.Environment) -> any AppDriver<App>
  ) {
    self.architecture = architecture
    self.makeDriver = makeDriver
  }
}
