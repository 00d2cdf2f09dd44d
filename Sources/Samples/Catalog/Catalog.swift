import ArchitectureSpec
import Baseline
import ComonadicSamples
import ElmStoreSamples
import IOLoopSamples
import Kernel
import LayerCoreSamples
import MUESamples
import Workloads

/// One architecture's implementations of the spec's apps: one of the catalog's, or one of your
/// own handed to ``ArchitectureCommand/main(adding:)``.
///
/// ```swift
/// Architecture(name: "actor-counter", apps: [.init(Implementation<CounterApp>.actor)])
/// ```
public struct Architecture: Sendable {
  /// The name commands take (`--architecture NAME`) and reports show.
  public var name: String
  /// Its implementation of each app it implements so far, one line per app.
  public var apps: [AppImplementation]
  /// The runtime around the benchmark counter, for the synchronous workloads (`dispatch`,
  /// `observe`, `fanout`, …); without one, only the workloads of its apps run.
  public var tally: (any TallySubject.Type)?
  #if canImport(Observation)
    /// Its Observation adapter around a list and a count, for the `observation.*` workloads
    /// (the path a SwiftUI app takes); without one, those workloads skip it.
    public var observation: (any ObservationSubject.Type)?
  #endif

  public init(name: String, apps: [AppImplementation], tally: (any TallySubject.Type)? = nil) {
    self.name = name
    self.apps = apps
    self.tally = tally
  }

  /// Its implementation of `App`, if it has one yet.
  public func implementation<App: SpecApp>(of app: App.Type) -> Implementation<App>? {
    apps.lazy.compactMap { $0.implementation(of: App.self) }.first
  }

  /// Its implementation of the app called `name`, if it has one yet.
  public func implementation(named name: String) -> AppImplementation? {
    apps.first { $0.app == name }
  }

  /// The apps of the spec it does not implement yet.
  public var missingApps: [String] {
    Catalog.apps.map(\.name).filter { implementation(named: $0) == nil }
  }

  /// The three single-feature apps, which every architecture of this repository implements
  /// (one from another package may not: use ``implementation(of:)``).
  public var counter: Implementation<CounterApp> { required(CounterApp.self) }
  public var stopwatch: Implementation<StopwatchApp> { required(StopwatchApp.self) }
  public var weather: Implementation<WeatherApp> { required(WeatherApp.self) }

  private func required<App: SpecApp>(_ app: App.Type) -> Implementation<App> {
    guard let found = implementation(of: app) else {
      fatalError("'\(name)' has no \(App.name): use implementation(of:) for a partial one")
    }
    return found
  }

  /// What the benchmark workloads run for this architecture.
  public var contestant: Contestant {
    var contestant = Contestant(
      name: name, tally: tally, counter: implementation(of: CounterApp.self),
      stopwatch: implementation(of: StopwatchApp.self),
      weather: implementation(of: WeatherApp.self), todos: implementation(of: TodosApp.self),
      shell: implementation(of: ShellApp.self), contacts: implementation(of: ContactsApp.self))
    #if canImport(Observation)
      contestant.observation = observation
    #endif
    return contestant
  }
}

/// Every architecture in this repository, and what is known not to conform yet.
public enum Catalog {
  /// The apps of the spec, in the order reports list them.
  public static let apps: [AppDescription] = [
    AppDescription(CounterApp.self), AppDescription(StopwatchApp.self),
    AppDescription(WeatherApp.self), AppDescription(TodosApp.self), AppDescription(ShellApp.self),
    AppDescription(ContactsApp.self),
  ]

  /// The architectures, reference first, then the ones added from outside
  /// (``ArchitectureCommand/main(adding:)``). An app missing from an architecture's list is not
  /// implemented yet; `arch conformance` says so in one line.
  public static var architectures: [Architecture] { builtIn + added.withLock { $0 } }

  /// Architectures from other packages, added once at start by the command line's entry point.
  private static let added = Lock<[Architecture]>([])

  /// Adds architectures of other packages after the repository's own.
  package static func add(_ architectures: [Architecture]) {
    added.withLock { $0 += architectures }
  }

  /// The repository's own architectures, reference first, each with its Observation subject.
  package static let builtIn: [Architecture] = builtInApps.map { architecture in
    var architecture = architecture
    #if canImport(Observation)
      architecture.observation = observations[architecture.name]
    #endif
    return architecture
  }

  #if canImport(Observation)
    /// The Observation subject of each of the repository's architectures, by name.
    private static let observations: [String: any ObservationSubject.Type] = [
      "baseline": BaselineObservation.self, "elm-store": ElmStoreObservation.self,
      "mue": MUEObservation.self, "io-loop": IOLoopObservation.self,
      "layer-core": LayerCoreObservation.self, "comonadic": ComonadicObservation.self,
    ]
  #endif

  private static let builtInApps: [Architecture] = [
    Architecture(
      name: "baseline",
      apps: [
        .init(Implementation<CounterApp>.baseline), .init(Implementation<StopwatchApp>.baseline),
        .init(Implementation<WeatherApp>.baseline), .init(Implementation<TodosApp>.baseline),
        .init(Implementation<ShellApp>.baseline), .init(Implementation<ContactsApp>.baseline),
      ],
      tally: BaselineTally.self),
    Architecture(
      name: "elm-store",
      apps: [
        .init(Implementation<CounterApp>.elmStore), .init(Implementation<StopwatchApp>.elmStore),
        .init(Implementation<WeatherApp>.elmStore), .init(Implementation<TodosApp>.elmStore),
        .init(Implementation<ShellApp>.elmStore), .init(Implementation<ContactsApp>.elmStore),
      ],
      tally: ElmStoreTally.self),
    Architecture(
      name: "mue",
      apps: [
        .init(Implementation<CounterApp>.mue), .init(Implementation<StopwatchApp>.mue),
        .init(Implementation<WeatherApp>.mue), .init(Implementation<TodosApp>.mue),
        .init(Implementation<ShellApp>.mue), .init(Implementation<ContactsApp>.mue),
      ],
      tally: MUETally.self),
    Architecture(
      name: "io-loop",
      apps: [
        .init(Implementation<CounterApp>.ioLoop), .init(Implementation<StopwatchApp>.ioLoop),
        .init(Implementation<WeatherApp>.ioLoop), .init(Implementation<TodosApp>.ioLoop),
        .init(Implementation<ShellApp>.ioLoop), .init(Implementation<ContactsApp>.ioLoop),
      ],
      tally: IOLoopTally.self),
    Architecture(
      name: "layer-core",
      apps: [
        .init(Implementation<CounterApp>.layerCore),
        .init(Implementation<StopwatchApp>.layerCore),
        .init(Implementation<WeatherApp>.layerCore), .init(Implementation<TodosApp>.layerCore),
        .init(Implementation<ShellApp>.layerCore), .init(Implementation<ContactsApp>.layerCore),
      ],
      tally: LayerCoreTally.self),
    Architecture(
      name: "comonadic",
      apps: [
        .init(Implementation<CounterApp>.comonadic),
        .init(Implementation<StopwatchApp>.comonadic),
        .init(Implementation<WeatherApp>.comonadic), .init(Implementation<TodosApp>.comonadic),
        .init(Implementation<ShellApp>.comonadic), .init(Implementation<ContactsApp>.comonadic),
      ],
      tally: ComonadicTally.self),
  ]

  /// What the benchmark runner measures: every architecture, then the bare reducer.
  public static var contestants: [Contestant] { architectures.map(\.contestant) + [.bare] }

  /// The reference every trace is compared with: `baseline`.
  public static var reference: Architecture { builtIn[0] }

  /// The app names, in the order reports list them.
  public static var appNames: [String] { apps.map(\.name) }

  /// Failures accepted for now, with the reason. The goal is an empty list; an entry whose
  /// scenario passes is reported as an error.
  public static let knownDeviations: [KnownDeviation] = []

  /// The architecture called `name`, if there is one.
  public static func architecture(named name: String) -> Architecture? {
    architectures.first { $0.name == name }
  }
}
