/// The counter app (SPEC §2): a persisted count with increment, decrement and reset.
public enum CounterApp: Sendable {
  /// The largest count the app holds (C2, C4).
  public static let maximumCount = 1_000_000_000

  /// The counts storage may return and the app accepts (C2).
  public static let validCounts = 0...maximumCount

  /// Logged when storage returned nothing usable (C2).
  public static let unreadableCountMessage = "storage: ignored unreadable count"

  /// Logged when a save failed (C6).
  public static let saveFailedMessage = "storage: save failed"

  /// Logged after a successful save of `count` (C5).
  public static func savedMessage(_ count: Int) -> String { "count: \(count)" }
}

/// What the user does in the counter app.
public enum CounterIntent: String, Codable, Sendable, CaseIterable, CustomStringConvertible {
  case increment
  case decrement
  case reset

  public var description: String { rawValue }
}

/// Everything the counter shows (C1, C7).
public struct CounterView: Codable, Sendable, Hashable, CustomStringConvertible {
  /// Whether the stored count has been read yet.
  public enum Status: String, Codable, Sendable {
    case loading
    case ready
  }

  public var status: Status
  public var count: Int
  public var text: String
  public var canDecrement: Bool
  public var canReset: Bool

  public init(status: Status, count: Int, text: String, canDecrement: Bool, canReset: Bool) {
    self.status = status
    self.count = count
    self.text = text
    self.canDecrement = canDecrement
    self.canReset = canReset
  }

  /// The view while the stored count is being read: nothing enabled.
  public static let loading = CounterView(
    status: .loading, count: 0, text: "Loading…", canDecrement: false, canReset: false)

  /// The view of a loaded count.
  public static func ready(count: Int) -> CounterView {
    CounterView(
      status: .ready, count: count, text: "Count: \(count)", canDecrement: count > 0,
      canReset: count > 0)
  }

  public var description: String { status == .loading ? text : "\(text) [\(flags)]" }

  private var flags: String {
    [canDecrement ? "-" : "", canReset ? "reset" : ""].filter { !$0.isEmpty }.joined(separator: " ")
  }
}

/// Where the counter keeps its count between runs.
public protocol CounterStorage: Sendable {
  /// Reads the stored count; `nil` when nothing was stored yet.
  func load() async throws -> Int?
  /// Replaces the stored count.
  func save(_ count: Int) async throws
}

/// A line-oriented log.
public protocol AppLog: Sendable {
  /// Appends one message.
  func log(_ message: String)
}

/// The counter's side effects.
public struct CounterEnvironment: Sendable {
  public var storage: any CounterStorage
  public var log: any AppLog
  /// The executor every task the runtime creates should prefer (`nil`: the default executor).
  ///
  /// The conformance kit passes a serial executor it can observe, which is how it knows,
  /// without sleeping, that every effect has either finished or is waiting on the environment.
  public var executor: (any TaskExecutor)?

  public init(storage: any CounterStorage, log: any AppLog, executor: (any TaskExecutor)? = nil) {
    self.storage = storage
    self.log = log
    self.executor = executor
  }
}

extension CounterApp: SpecApp {
  public typealias Intent = CounterIntent
  public typealias View = CounterView
  public typealias Environment = CounterEnvironment

  public static let name = "counter"
}
