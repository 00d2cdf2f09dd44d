import Foundation

/// The results of running workloads for contestants: what `arch compare` prints and writes.
public struct Comparison: Sendable, Codable {
  /// How the numbers were taken.
  public var setup: Setup
  /// One entry per workload, in ``Workload/all`` order.
  public var workloads: [WorkloadResults]

  public init(setup: Setup, workloads: [WorkloadResults]) {
    self.setup = setup
    self.workloads = workloads
  }

  /// How a comparison was run.
  public struct Setup: Sendable, Codable {
    public var samples: Int
    public var isQuick: Bool
    public var machine: String
    public var date: String

    public init(samples: Int, isQuick: Bool, machine: String, date: String) {
      self.samples = samples
      self.isQuick = isQuick
      self.machine = machine
      self.date = date
    }
  }

  /// Every contestant's result for one workload.
  public struct WorkloadResults: Sendable, Codable {
    public var name: String
    public var operation: String
    /// Operations per sample.
    public var operations: Int
    public var results: [ContestantResult]

    public init(name: String, operation: String, operations: Int, results: [ContestantResult]) {
      self.name = name
      self.operation = operation
      self.operations = operations
      self.results = results
    }

    /// The result of `contestant`, if it took part.
    public func result(of contestant: String) -> ContestantResult? {
      results.first { $0.contestant == contestant }
    }
  }

  /// One contestant's result for one workload.
  public struct ContestantResult: Sendable, Codable {
    public var contestant: String
    /// Nanoseconds per operation, when it was timed.
    public var nanoseconds: Summary?
    /// Observer notifications per operation.
    public var notificationsPerOperation: Double?
    /// Notifications per observer kind over the checked run, for the list workloads.
    public var notificationsByKind: NotificationsByKind?
    /// Why it was not timed, when the conformance gate excluded it.
    public var notTimed: String?
    /// What the workload's check found wrong, when it computed a wrong result; not timed then
    /// either.
    public var failure: String?

    public init(
      contestant: String, nanoseconds: Summary? = nil, notificationsPerOperation: Double? = nil,
      notTimed: String? = nil, failure: String? = nil
    ) {
      self.contestant = contestant
      self.nanoseconds = nanoseconds
      self.notificationsPerOperation = notificationsPerOperation
      self.notTimed = notTimed
      self.failure = failure
    }

    /// Whether it ran and was timed.
    public var isTimed: Bool { notTimed == nil && failure == nil }
  }

  /// The median time of `contestant` divided by the median time of `reference`, when both ran.
  public func ratio(_ workload: WorkloadResults, _ contestant: String, to reference: String)
    -> Double?
  {
    guard let own = workload.result(of: contestant)?.nanoseconds?.median,
      let other = workload.result(of: reference)?.nanoseconds?.median, other > 0
    else { return nil }
    return own / other
  }
}
