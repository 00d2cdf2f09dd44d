/// An app of the spec: its intents, its view and its environment, plus the scenarios that
/// check it. ``CounterApp``, ``StopwatchApp`` and ``WeatherApp`` conform.
public protocol ConformanceApp: Sendable {
  associatedtype Intent: Sendable, Hashable, Codable, CustomStringConvertible
  associatedtype View: Sendable, Hashable, Codable, CustomStringConvertible
  associatedtype Environment: Sendable

  /// The app's name on the command line and in reports: `counter`, `stopwatch`, `weather`.
  static var name: String { get }

  /// The environment of one run, built from that run's fakes.
  static func environment(from fakes: FakeEnvironment) -> Environment

  /// Every scenario of this app.
  static var scenarios: [Scenario<Self>] { get }

  /// A random program of actions for differential property testing.
  static func randomProgram(using random: inout SeededRandom) -> Scenario<Self>
}

/// What an architecture implements once per app so the kit can run scenarios against it.
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
public protocol AppDriver<App>: Sendable {
  associatedtype App: ConformanceApp

  /// Starts the runtime. `observer` receives the current view at once and then every view
  /// that changed after a processed message (R10).
  func start(observer: @escaping @Sendable (App.View) -> Void) async

  /// Sends an intent. Callable from any thread or task, also from inside `observer` (R2, R3).
  func send(_ intent: App.Intent)

  /// The view now.
  var view: App.View { get async }

  /// Returns when nothing is queued and no finite effect runs outside the environment's
  /// executor (R7).
  func idle() async

  /// Stops the runtime (R6).
  func stop() async
}

/// One architecture's way of running one app: a name and a driver factory.
public struct Implementation<App: ConformanceApp>: Sendable {
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
