import ArchitectureApps

/// Why a request to Open-Meteo failed (W11). The app shows every one of them as a failed search
/// or a failed forecast; the description says what happened.
public enum OpenMeteoError: Error, Hashable, CustomStringConvertible {
  /// The host could not be reached: no network, an unknown host, a refused connection.
  case unreachable(host: String, reason: String)
  /// No whole answer within the time limit.
  case timedOut(host: String, after: Duration)
  /// The server answered with a status outside 200–299.
  case status(host: String, code: Int, reason: String?)
  /// The body is larger than the service accepts: its announced length (`Content-Length`), or
  /// `nil` when it sent more than the limit.
  case tooLarge(host: String, announced: Int?, limit: Int)
  /// The body is not UTF-8.
  case notUTF8(host: String)
  /// The body is not the JSON Open-Meteo sends: malformed, truncated or missing a field.
  case malformed(host: String, reason: String)
  /// Anything else the transport reported.
  case transport(host: String, reason: String)

  /// Whether the network, rather than the server, is the problem; offline use needs recorded
  /// responses then. A server that is slow to answer is reachable: a timeout is not one
  /// (SPEC L6).
  public var isConnectivityProblem: Bool {
    switch self {
    case .unreachable: true
    default: false
    }
  }

  public var description: String {
    switch self {
    case .unreachable(let host, let reason): "cannot reach \(host): \(reason)"
    case .timedOut(let host, let after): "\(host): no answer within \(Self.seconds(after)) s"
    case .status(let host, let code, let reason):
      // The server's words, with any line break shown rather than acted on (SPEC L1).
      "\(host) answered HTTP \(code)" + (reason.map { ": " + ScreenText.safe($0) } ?? "")
    case .tooLarge(let host, let announced?, let limit):
      "\(host) announced \(announced) bytes, more than the \(limit) accepted"
    case .tooLarge(let host, nil, let limit):
      "\(host) sent more than the \(limit) bytes accepted"
    case .notUTF8(let host): "\(host) sent a body that is not UTF-8"
    case .malformed(let host, let reason): "\(host) sent unexpected JSON: \(reason)"
    case .transport(let host, let reason): "request to \(host) failed: \(reason)"
    }
  }

  /// `duration` in seconds, in plain digits: `10`, `0.3`, `1.5`.
  static func seconds(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
    let whole = milliseconds / 1000
    var fraction = String(abs(milliseconds % 1000))
    guard fraction != "0" else { return "\(whole)" }
    fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
    while fraction.hasSuffix("0") { fraction.removeLast() }
    return "\(whole).\(fraction)"
  }
}
