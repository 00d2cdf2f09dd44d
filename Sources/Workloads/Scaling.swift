import ArchitectureSpec
import Foundation

/// How cost grows with the size of the list: every list operation at every size, for every
/// contestant, with the fitted growth exponent, and the memory a large list holds. What
/// `arch compare --scaling` prints and writes.
public struct Scaling: Sendable, Codable {
  /// How the times were taken.
  public var setup: Comparison.Setup
  /// The list sizes, ascending.
  public var sizes: [Int]
  /// One entry per list operation, in ``ListWorkloads/Operation`` order.
  public var operations: [Curves]
  /// Memory after and during a load of the largest list, per contestant.
  public var memory: [MemoryUse]

  public init(setup: Comparison.Setup, sizes: [Int], operations: [Curves], memory: [MemoryUse]) {
    self.setup = setup
    self.sizes = sizes
    self.operations = operations
    self.memory = memory
  }

  /// Every contestant's cost curve for one operation.
  public struct Curves: Sendable, Codable {
    /// The operation's workload family: `todos.toggle`.
    public var name: String
    /// What one operation is: "toggle", "pass", ….
    public var unit: String
    public var curves: [Curve]

    /// The curve of `contestant`, if it took part.
    public func curve(of contestant: String) -> Curve? {
      curves.first { $0.contestant == contestant }
    }
  }

  /// One contestant's cost of one operation at each size.
  public struct Curve: Sendable, Codable {
    public var contestant: String
    /// Median nanoseconds per operation at each of ``Scaling/sizes`` (`nil`: not timed).
    public var nanoseconds: [Double?]
    /// Notifications per observer kind at each size, over its checked run.
    public var notifications: [NotificationsByKind?]
    /// Operations in that checked run, at each size.
    public var operations: [Int]
    /// The exponent *k* of the least-squares fit cost ∝ rows^*k* over every timed size: 0 is
    /// flat, 1 linear.
    public var exponent: Double?
    /// Why a size was not timed, when one was not.
    public var failure: String?
  }

  /// Builds the curves from a comparison of ``Workload/scaling``.
  public init(_ comparison: Comparison, memory: [MemoryUse]) {
    let sizes = ListWorkloads.sizes
    var operations: [Curves] = []
    for operation in ListWorkloads.Operation.allCases {
      let results = sizes.map { rows in
        comparison.workloads.first { $0.name == ListWorkloads.name(operation, rows: rows) }
      }
      let contestants = results.compactMap { $0 }.flatMap { $0.results.map(\.contestant) }
      var seen = Set<String>()
      let curves = contestants.filter { seen.insert($0).inserted }.map { contestant in
        let own = results.map { $0?.result(of: contestant) }
        let nanoseconds = own.map { $0?.nanoseconds?.median }
        let points = zip(sizes, nanoseconds).compactMap { rows, value in value.map { (rows, $0) } }
        return Curve(
          contestant: contestant, nanoseconds: nanoseconds,
          notifications: own.map { $0?.notificationsByKind },
          operations: results.map { $0?.operations ?? 0 },
          exponent: Self.exponent(points),
          failure: own.lazy.compactMap { $0?.failure ?? $0?.notTimed }.first)
      }
      operations.append(
        Curves(name: "\(TodosApp.name).\(operation.rawValue)", unit: operation.unit, curves: curves)
      )
    }
    self.init(setup: comparison.setup, sizes: sizes, operations: operations, memory: memory)
  }

  /// The least-squares slope of log(cost) against log(size): the growth exponent. `nil` for
  /// fewer than two points.
  public static func exponent(_ points: [(size: Int, cost: Double)]) -> Double? {
    let logs = points.filter { $0.cost > 0 }.map { (log(Double($0.size)), log($0.cost)) }
    guard logs.count >= 2 else { return nil }
    let meanX = logs.map(\.0).reduce(0, +) / Double(logs.count)
    let meanY = logs.map(\.1).reduce(0, +) / Double(logs.count)
    let covariance = logs.map { ($0.0 - meanX) * ($0.1 - meanY) }.reduce(0, +)
    let variance = logs.map { ($0.0 - meanX) * ($0.0 - meanX) }.reduce(0, +)
    return variance > 0 ? covariance / variance : nil
  }

  /// The median of `contestant` over the median of the baseline at `rows`.
  public func ratio(_ curves: Curves, _ contestant: String, rows: Int) -> Double? {
    guard let index = sizes.firstIndex(of: rows),
      let own = curves.curve(of: contestant)?.nanoseconds[index],
      let reference = curves.curve(of: Comparison.baselineName)?.nanoseconds[index],
      reference > 0
    else { return nil }
    return own / reference
  }
}

/// Memory a contestant's todos app holds for a loaded list, measured in a process of its own.
public struct MemoryUse: Sendable, Codable, Hashable {
  public var contestant: String
  /// The rows of the loaded todos list, or, for the counter (`arch memory --app counter`), how
  /// many counters were started and kept running.
  public var rows: Int
  /// Heap bytes in use after the load, with the runtime still running, minus before it was
  /// created (the stored records already existed).
  public var retainedBytes: Int
  /// The growth of resident memory from before the runtime was created to its high-water mark
  /// during the load (Linux: `VmHWM`); `nil` where the system does not report it.
  public var peakBytes: Int?

  public init(contestant: String, rows: Int, retainedBytes: Int, peakBytes: Int?) {
    self.contestant = contestant
    self.rows = rows
    self.retainedBytes = retainedBytes
    self.peakBytes = peakBytes
  }
}
