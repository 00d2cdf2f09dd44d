import ArchitectureSpec

/// A workload: the same operations, run identically for every contestant, with a check of the
/// result.
public struct Workload: Sendable {
  /// The name, with dots: `dispatch`, `observe.100`, `state.size.1000`, ….
  public var name: String
  /// The spec app whose conformance gates this workload: `counter`, `stopwatch`, `weather`,
  /// `todos`, `shell` or `contacts`; the synchronous workloads (``runsTally``) are gated by `counter`.
  public var app: String
  /// What one operation is, for reports: "intent", "tick", "keystroke", ….
  public var operation: String
  /// How many operations a full run performs; quick runs and measurements may use fewer.
  public var operations: Int
  /// Prepares a run of `operations` operations for `contestant`, or returns `nil` when the
  /// contestant has nothing this workload can run.
  public var prepare: @Sendable (_ contestant: Contestant, _ operations: Int) async -> Trial?
  /// Whether it runs the contestant's ``Contestant/tally`` rather than one of its apps.
  public var runsTally: Bool
  /// Whether it runs the contestant's ``Contestant/observation`` (its Observation adapter, on
  /// the main actor) rather than one of its apps.
  public var runsObservation: Bool

  public init(
    name: String, app: String, operation: String, operations: Int, runsTally: Bool = false,
    runsObservation: Bool = false, prepare: @escaping @Sendable (Contestant, Int) async -> Trial?
  ) {
    self.name = name
    self.app = app
    self.operation = operation
    self.operations = operations
    self.runsTally = runsTally
    self.runsObservation = runsObservation
    self.prepare = prepare
  }

  /// Whether `contestant` has what this workload runs: its tally subject, or the app.
  public func isApplicable(to contestant: Contestant) -> Bool {
    if runsTally { return contestant.tally != nil }
    if runsObservation { return contestant.hasObservation }
    return switch app {
    case CounterApp.name: contestant.counter != nil
    case StopwatchApp.name: contestant.stopwatch != nil
    case WeatherApp.name: contestant.weather != nil
    case TodosApp.name: contestant.todos != nil
    case ShellApp.name: contestant.shell != nil
    case ContactsApp.name: contestant.contacts != nil
    default: false
    }
  }

  /// The workload called `name`, if there is one.
  public static func named(_ name: String) -> Workload? {
    all.first { $0.name == name } ?? scaling.first { $0.name == name }
  }

  /// The standard workloads, in report order: what `arch compare` runs and package-benchmark
  /// registers. The list workloads run here at 100 and 10,000 rows; ``scaling`` has every size.
  public static let all: [Workload] =
    TallyWorkloads.all + [
      AppWorkloads.ticks, AppWorkloads.ticksWithLaps(10), AppWorkloads.ticksWithLaps(1_000),
      AppWorkloads.ticksWithLaps(10_000),
      AppWorkloads.typing, AppWorkloads.roundtrip, AppWorkloads.lifecycle,
      AppWorkloads.counterIncrements,
    ]
    + ListWorkloads.Operation.allCases.flatMap { operation in
      [100, 10_000].map { ListWorkloads.workload(operation, rows: $0) }
    }
    + ShellWorkloads.all + NavigationWorkloads.all + observation

  /// The Observation workloads, where the Observation module exists.
  static var observation: [Workload] {
    #if canImport(Observation)
      ObservationWorkloads.all
    #else
      []
    #endif
  }

  /// The list workloads at every size (``ListWorkloads/sizes``), by operation then size: what
  /// `arch compare --scaling` fits growth curves to.
  public static let scaling: [Workload] = ListWorkloads.all
}

/// One prepared run: the part to measure, then the check of its result.
///
/// Only ``run`` is timed or counted; building the runtime and checking the result are not.
public struct Trial: Sendable {
  /// Performs the operations.
  public var run: @Sendable () async -> Void
  /// Checks the result and tears down; throws when the contestant computed something wrong.
  public var finish: @Sendable () async throws(WorkloadFailure) -> Outcome

  public init(
    run: @escaping @Sendable () async -> Void,
    finish: @escaping @Sendable () async throws(WorkloadFailure) -> Outcome
  ) {
    self.run = run
    self.finish = finish
  }

  /// Runs and finishes.
  public func callAsFunction() async throws(WorkloadFailure) -> Outcome {
    await run()
    return try await finish()
  }
}

/// What a checked run observed.
public struct Outcome: Sendable, Hashable, Codable {
  /// Operations performed.
  public var operations: Int
  /// Observer notifications caused by the operations (not counting the ones on subscribe), when
  /// the workload counts them.
  public var notifications: Int?

  /// Notifications per observer kind (root, changed rows, unchanged rows), for the list
  /// workloads.
  public var byKind: NotificationsByKind?

  public init(operations: Int, notifications: Int? = nil, byKind: NotificationsByKind? = nil) {
    self.operations = operations
    self.notifications = notifications
    self.byKind = byKind
  }

  /// Notifications per operation, or `nil` for a run of none.
  public var notificationsPerOperation: Double? {
    guard let notifications, operations > 0 else { return nil }
    return Double(notifications) / Double(operations)
  }
}

/// A contestant computed the wrong result; it is not timed.
public struct WorkloadFailure: Error, Sendable, CustomStringConvertible {
  public var description: String
  public init(_ description: String) { self.description = description }
}
