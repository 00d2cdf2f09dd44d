/// One architecture's implementation of one app, with the app's type erased, so a catalog can
/// hold every app of every architecture in one list and tools can run them by name.
///
/// ```swift
/// let apps: [AppImplementation] = [.init(Implementation<CounterApp>.baseline), …]
/// ```
public struct AppImplementation: Sendable {
  /// The app's name: `counter`, `todos`, ….
  public let app: String
  /// The architecture's name.
  public let architecture: String
  private let implementation: any Sendable
  private let reporter:
    @Sendable (AppImplementation, Conformance.Options, [KnownDeviation]) async -> AppReport?
  private let tracer: @Sendable (String) async -> String?
  private let stresser: @Sendable (Int, UInt64) async -> Stress.Report?

  public init<App: ConformanceApp>(_ implementation: Implementation<App>) {
    app = App.name
    architecture = implementation.architecture
    self.implementation = implementation
    reporter = { reference, options, known in
      guard let reference = reference.implementation(of: App.self) else { return nil }
      return await Conformance.report(
        implementation, reference: reference, options: options, knownDeviations: known)
    }
    stresser = { tries, seed in
      await Conformance.raceProbe(implementation, tries: tries, seed: seed)
    }
    tracer = { name in
      guard let scenario = App.scenarios.first(where: { $0.name == name }) else { return nil }
      return await ScenarioRunner.run(scenario, on: implementation).trace.jsonLines()
    }
  }

  /// The typed implementation, when this is an implementation of `App`.
  public func implementation<App: SpecApp>(of app: App.Type) -> Implementation<App>? {
    implementation as? Implementation<App>
  }

  /// Checks this implementation against `reference`, which must implement the same app.
  ///
  /// - Returns: The report, or `nil` when `reference` implements another app.
  public func report(
    reference: AppImplementation, options: Conformance.Options,
    knownDeviations: [KnownDeviation] = []
  ) async -> AppReport? {
    await reporter(reference, options, knownDeviations)
  }

  /// Runs the stop-and-release race probe (``Stress``) `tries` times, or `nil` when the app has
  /// no stress environment.
  public func stress(tries: Int, seed: UInt64) async -> Stress.Report? {
    await stresser(tries, seed)
  }

  /// The trace of the scenario called `scenario`, as JSON lines, or `nil` when the app has no
  /// such scenario.
  public func trace(scenario: String) async -> String? { await tracer(scenario) }
}

/// An app the kit can run, by name: its scenarios and the rules they cover.
public struct AppDescription: Sendable {
  public let name: String
  public let scenarioNames: [String]
  public let rules: [Rule]

  public init<App: ConformanceApp>(_ app: App.Type) {
    name = App.name
    scenarioNames = App.scenarios.map(\.name)
    rules = Array(Set(App.scenarios.flatMap(\.rules))).sorted()
  }
}
