import Synchronization

/// One call an app made to its environment, as the fakes record it.
public indirect enum EnvironmentCall: Hashable, Sendable, CustomStringConvertible {
  case load
  case save(Int)
  case log(String)
  case search(String)
  case forecast(placeID: Int)
  /// The call was cancelled while it was pending.
  case cancelled(EnvironmentCall)

  public var description: String {
    switch self {
    case .load: "load"
    case .save(let count): "save(\(count))"
    case .log(let message): "log(\(quoted(message)))"
    case .search(let term): "search(\(quoted(term)))"
    case .forecast(let id): "forecast(\(id))"
    case .cancelled(let call): "cancelled \(call)"
    }
  }

  /// Whether this records a cancellation.
  public var isCancellation: Bool {
    if case .cancelled = self { true } else { false }
  }
}

/// The ordered record of every environment call of one run, shared by all fakes of that run.
public final class CallRecorder: Sendable {
  private let calls = Mutex<[EnvironmentCall]>([])

  public init() {}

  /// Appends a call.
  public func record(_ call: EnvironmentCall) {
    calls.withLock { $0.append(call) }
  }

  /// Every call so far, in order.
  public var all: [EnvironmentCall] { calls.withLock { $0 } }

  /// Removes and returns the calls recorded since the last `drain()`.
  public func drain() -> [EnvironmentCall] {
    calls.withLock { calls in
      defer { calls.removeAll(keepingCapacity: true) }
      return calls
    }
  }
}
