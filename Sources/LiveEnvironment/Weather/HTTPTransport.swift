import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// An HTTP response: the status code and the body.
public struct HTTPResponse: Sendable, Hashable {
  public var status: Int
  public var body: Data

  public init(status: Int, body: Data) {
    self.status = status
    self.body = body
  }
}

/// What answers the weather service's GET requests: ``URLSessionTransport`` talks to the network,
/// ``RecordedOpenMeteo`` replays recorded responses offline.
///
/// Both feed the same decoding in ``OpenMeteoService``.
public protocol HTTPTransport: Sendable {
  /// Fetches `url`.
  ///
  /// - Throws: `CancellationError` when the task is cancelled, ``OpenMeteoError`` for
  ///   everything that went wrong before a whole response arrived.
  func get(_ url: URL) async throws -> HTTPResponse
}

/// GET requests through `URLSession` (FoundationNetworking on Linux), with one time limit for the
/// whole request.
public final class URLSessionTransport: HTTPTransport {
  /// How long a request may take, from sending it to the last byte of the body.
  public let timeout: Duration
  private let session: URLSession

  /// Creates a transport with its own ephemeral session: no cache, no cookies.
  ///
  /// - Parameter timeout: The limit for a whole request, enforced here: FoundationNetworking's
  ///   own timeouts only measure the time between two packets (in whole seconds), so a server
  ///   that trickles its answer would never time out.
  public init(timeout: Duration = .seconds(10)) {
    self.timeout = timeout
    let configuration = URLSessionConfiguration.ephemeral
    // A backstop only; the deadline in `get` fires first.
    let backstop = (timeout.seconds + 1).rounded(.up)
    configuration.timeoutIntervalForRequest = backstop
    configuration.timeoutIntervalForResource = backstop
    configuration.urlCache = nil
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    session = URLSession(configuration: configuration)
  }

  deinit {
    session.finishTasksAndInvalidate()
  }

  public func get(_ url: URL) async throws -> HTTPResponse {
    let host = url.host ?? url.absoluteString
    let timeout = timeout
    let session = session
    return try await withThrowingTaskGroup(of: HTTPResponse?.self) { group in
      group.addTask { try await Self.fetch(url, host: host, session: session, timeout: timeout) }
      group.addTask {
        try await Task.sleep(for: timeout)
        return nil
      }
      defer { group.cancelAll() }
      guard let first = try await group.next() else { throw CancellationError() }
      guard let response = first else { throw OpenMeteoError.timedOut(host: host, after: timeout) }
      return response
    }
  }

  private static func fetch(
    _ url: URL, host: String, session: URLSession, timeout: Duration
  ) async throws -> HTTPResponse {
    var request = URLRequest(
      url: url, cachePolicy: .reloadIgnoringLocalCacheData,
      timeoutInterval: session.configuration.timeoutIntervalForRequest)
    request.setValue("application/json", forHTTPHeaderField: "Accept")
    let (data, response): (Data, URLResponse)
    do {
      (data, response) = try await session.data(for: request)
    } catch let error as URLError {
      if error.code == .cancelled || Task.isCancelled { throw CancellationError() }
      throw OpenMeteoError(error, host: host, timeout: timeout)
    }
    guard let response = response as? HTTPURLResponse else {
      throw OpenMeteoError.transport(host: host, reason: "the answer is not HTTP")
    }
    return HTTPResponse(status: response.statusCode, body: data)
  }
}

extension OpenMeteoError {
  init(_ error: URLError, host: String, timeout: Duration) {
    switch error.code {
    case .timedOut:
      self = .timedOut(host: host, after: timeout)
    case .notConnectedToInternet, .cannotFindHost, .cannotConnectToHost, .dnsLookupFailed,
      .internationalRoamingOff, .dataNotAllowed:
      self = .unreachable(host: host, reason: error.localizedDescription)
    default:
      self = .transport(host: host, reason: error.localizedDescription)
    }
  }
}

extension Duration {
  /// The duration in seconds, as `TimeInterval`.
  var seconds: TimeInterval {
    let (seconds, attoseconds) = components
    return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
  }
}
