import Kernel

/// One call an app made to its environment, as the fakes record it.
public indirect enum EnvironmentCall: Hashable, Sendable, CustomStringConvertible {
  case load
  case save(Int)
  case log(String)
  case search(String)
  case forecast(placeID: Int)
  case loadTodos
  case saveTodos([TodoRecord])
  case create(String)
  case details(Int)
  /// The call was cancelled while it was pending.
  case cancelled(EnvironmentCall)

  public var description: String {
    switch self {
    case .load: "load"
    case .save(let count): "save(\(count))"
    case .log(let message): "log(\(quoted(message)))"
    case .search(let term): "search(\(quoted(term)))"
    case .forecast(let id): "forecast(\(id))"
    case .loadTodos: "loadTodos"
    case .saveTodos(let records): "saveTodos(\(describeList(records)))"
    case .create(let name): "create(\(quoted(name)))"
    case .details(let id): "details(\(id))"
    case .cancelled(let call): "cancelled \(call)"
    }
  }

  /// Whether this records a cancellation.
  public var isCancellation: Bool {
    if case .cancelled = self { true } else { false }
  }
}

/// A list of records as a trace shows it: in full up to 10 records, otherwise its length, its
/// last id and a digest of every record, so traces stay short and still tell lists apart.
func describeList(_ records: [TodoRecord]) -> String {
  guard records.count > 10 else { return "[\(records.map(\.description).joined(separator: ", "))]" }
  // FNV-1a over each record's text: the same in every process (unlike `hashValue`).
  var digest: UInt64 = 0xcbf2_9ce4_8422_2325
  for record in records {
    for byte in record.description.utf8 {
      digest = (digest ^ UInt64(byte)) &* 0x100_0000_01b3
    }
    digest = (digest ^ 0x0a) &* 0x100_0000_01b3
  }
  let hex = String(digest, radix: 16)
  let last = records.last.map { "#\($0.id)" } ?? ""
  return
    "\(records.count) items, last \(last), digest \(String(repeating: "0", count: 16 - hex.count))\(hex)"
}

/// The ordered record of every environment call of one run, shared by all fakes of that run.
public final class CallRecorder: Sendable {
  private let calls = Lock<[EnvironmentCall]>([])

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
