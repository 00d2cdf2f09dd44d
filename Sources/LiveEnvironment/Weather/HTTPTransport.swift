import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
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

  /// Fetches `url`, failing with ``OpenMeteoError/tooLarge(host:announced:limit:)`` as soon as
  /// the body is known to be longer than `limit` bytes. The default implementation fetches the
  /// whole body first; ``URLSessionTransport`` stops the transfer at the byte past the limit.
  func get(_ url: URL, limit: Int) async throws -> HTTPResponse
}

extension HTTPTransport {
  public func get(_ url: URL, limit: Int) async throws -> HTTPResponse {
    let response = try await get(url)
    guard response.body.count <= limit else {
      throw OpenMeteoError.tooLarge(
        host: url.host ?? url.absoluteString, announced: nil, limit: limit)
    }
    return response
  }
}

/// GET requests through `URLSession` (FoundationNetworking on Linux), with one time limit for the
/// whole request and a limit on what a response may make the process hold (SPEC L2).
///
/// The body is read as it arrives: a response whose `Content-Length` is over the limit fails
/// before its body is read, and one that sends more fails when the byte past the limit arrives,
/// and its transfer stops there, chunked or not. Headers over 64 KiB fail too. So a server that
/// sends a gigabyte costs the process about the limit, not the gigabyte.
public final class URLSessionTransport: HTTPTransport {
  /// The most bytes of headers a response may have.
  public static let maximumHeaderSize = 64 * 1024

  /// How long a request may take, from sending it to the last byte of the body.
  public let timeout: Duration
  private let session: URLSession
  private let transfers: Transfers

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
    transfers = Transfers()
    session = URLSession(configuration: configuration, delegate: transfers, delegateQueue: nil)
  }

  deinit {
    session.finishTasksAndInvalidate()
  }

  public func get(_ url: URL) async throws -> HTTPResponse {
    try await get(url, limit: .max)
  }

  public func get(_ url: URL, limit: Int) async throws -> HTTPResponse {
    let host = url.host ?? url.absoluteString
    let timeout = timeout
    let session = session
    let transfers = transfers
    return try await withThrowingTaskGroup(of: HTTPResponse?.self) { group in
      group.addTask {
        try await Self.fetch(
          url, host: host, limit: limit, session: session, transfers: transfers, timeout: timeout)
      }
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
    _ url: URL, host: String, limit: Int, session: URLSession, transfers: Transfers,
    timeout: Duration
  ) async throws -> HTTPResponse {
    var request = URLRequest(
      url: url, cachePolicy: .reloadIgnoringLocalCacheData,
      timeoutInterval: session.configuration.timeoutIntervalForRequest)
    request.setValue("application/json", forHTTPHeaderField: "Accept")
    let task = session.dataTask(with: request)
    let transfer = Transfer(host: host, limit: limit, timeout: timeout)
    transfers.add(transfer, for: task.taskIdentifier)
    do {
      return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
          transfer.wait(continuation)
          task.resume()
        }
      } onCancel: {
        task.cancel()
      }
    } catch let failure as ConnectFailure {
      // A server that refuses the connection was reached: no "No network?" for it (SPEC L6).
      let port = url.port ?? (url.scheme == "https" ? 443 : 80)
      if ConnectFailure.isRefused(host: url.host ?? "", port: port) {
        throw OpenMeteoError.transport(host: host, reason: "connection refused")
      }
      throw OpenMeteoError(failure.underlying, host: host, timeout: timeout)
    }
  }
}

/// One request in flight: its response and body as they arrive, or why it failed, and the
/// caller waiting for it.
final class Transfer: Sendable {
  private struct State {
    var response: HTTPURLResponse?
    var body = Data()
    var outcome: Result<HTTPResponse, any Error>?
    var waiter: CheckedContinuation<HTTPResponse, any Error>?
  }

  let host: String
  let limit: Int
  let timeout: Duration
  private let state = LockedValue(State())

  init(host: String, limit: Int, timeout: Duration) {
    self.host = host
    self.limit = limit
    self.timeout = timeout
  }

  /// Hands the outcome to `continuation` when there is one (now, if it came first).
  func wait(_ continuation: CheckedContinuation<HTTPResponse, any Error>) {
    let outcome = state.withLock { state -> Result<HTTPResponse, any Error>? in
      guard let outcome = state.outcome else {
        state.waiter = continuation
        return nil
      }
      return outcome
    }
    if let outcome { continuation.resume(with: outcome) }
  }

  /// Whether `response` may be read: not when it announces more than the limit or its headers
  /// are over 64 KiB (the transfer has failed then).
  func accept(_ response: URLResponse) -> Bool {
    guard let response = response as? HTTPURLResponse else {
      finish(.failure(OpenMeteoError.transport(host: host, reason: "the answer is not HTTP")))
      return false
    }
    if response.expectedContentLength > limit {
      finish(
        .failure(
          OpenMeteoError.tooLarge(
            host: host, announced: Int(response.expectedContentLength), limit: limit)))
      return false
    }
    var headerSize = 0
    for (name, value) in response.allHeaderFields {
      headerSize += "\(name)".utf8.count + "\(value)".utf8.count + 4
    }
    if headerSize > URLSessionTransport.maximumHeaderSize {
      finish(
        .failure(
          OpenMeteoError.transport(
            host: host,
            reason: "the headers are over \(URLSessionTransport.maximumHeaderSize / 1024) KiB")))
      return false
    }
    state.withLock { $0.response = response }
    return true
  }

  /// Adds `data` to the body; returns `false` (the transfer has failed) once it is over the
  /// limit.
  func receive(_ data: Data) -> Bool {
    let isOver = state.withLock { state -> Bool in
      guard state.outcome == nil else { return true }
      guard state.body.count + data.count <= limit else { return true }
      state.body.append(data)
      return false
    }
    if isOver {
      finish(.failure(OpenMeteoError.tooLarge(host: host, announced: nil, limit: limit)))
    }
    return !isOver
  }

  /// The transfer ended, with `error` or a whole body.
  func complete(_ error: (any Error)?) {
    if let error {
      if let error = error as? URLError {
        if error.code == .cancelled {
          finish(.failure(CancellationError()))
        } else if error.code == .cannotConnectToHost {
          // Refused and unreachable look alike here; the caller tells them apart.
          finish(.failure(ConnectFailure(underlying: error)))
        } else {
          finish(.failure(OpenMeteoError(error, host: host, timeout: timeout)))
        }
      } else {
        finish(.failure(OpenMeteoError.transport(host: host, reason: "\(error)")))
      }
      return
    }
    let response = state.withLock { state -> HTTPResponse? in
      state.response.map { HTTPResponse(status: $0.statusCode, body: state.body) }
    }
    finish(
      response.map { .success($0) }
        ?? .failure(OpenMeteoError.transport(host: host, reason: "the answer is not HTTP")))
  }

  /// Settles the outcome once (the first one counts) and resumes the caller if it waits.
  private func finish(_ outcome: Result<HTTPResponse, any Error>) {
    let waiter = state.withLock { state -> CheckedContinuation<HTTPResponse, any Error>? in
      guard state.outcome == nil else { return nil }
      state.outcome = outcome
      state.body = Data()  // nothing more is kept for a settled transfer
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.resume(with: outcome)
  }
}

/// The session's delegate: hands each task's events to its ``Transfer``.
final class Transfers: NSObject, URLSessionDataDelegate, Sendable {
  private let transfers = LockedValue<[Int: Transfer]>([:])

  func add(_ transfer: Transfer, for task: Int) {
    transfers.withLock { $0[task] = transfer }
  }

  private func transfer(_ task: URLSessionTask) -> Transfer? {
    transfers.withLock { $0[task.taskIdentifier] }
  }

  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
  ) {
    guard let transfer = transfer(dataTask), transfer.accept(response) else {
      completionHandler(.cancel)
      // FoundationNetworking keeps reading unless the task itself is cancelled.
      dataTask.cancel()
      return
    }
    completionHandler(.allow)
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    guard let transfer = transfer(dataTask) else { return }
    if !transfer.receive(data) { dataTask.cancel() }
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?
  ) {
    let transfer = transfers.withLock { $0.removeValue(forKey: task.taskIdentifier) }
    transfer?.complete(error)
  }
}

/// A connection that could not be made: refused by the host, or no route to it.
struct ConnectFailure: Error {
  let underlying: URLError

  /// Whether a connection to `host`:`port` is refused now (the host answers, nothing listens),
  /// as opposed to the host or its network not answering at all. Waits at most a second.
  static func isRefused(host: String, port: Int) -> Bool {
    var hints = addrinfo()
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    var found: UnsafeMutablePointer<addrinfo>?
    guard getaddrinfo(host, String(port), &hints, &found) == 0, let first = found else {
      return false
    }
    defer { freeaddrinfo(first) }
    var entry: UnsafeMutablePointer<addrinfo>? = first
    while let address = entry {
      defer { entry = address.pointee.ai_next }
      let socketDescriptor = socket(
        address.pointee.ai_family, address.pointee.ai_socktype | Int32(SOCK_NONBLOCK.rawValue),
        address.pointee.ai_protocol)
      guard socketDescriptor >= 0 else { continue }
      defer { close(socketDescriptor) }
      if connect(socketDescriptor, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 {
        return false  // it listens now
      }
      if errno == ECONNREFUSED { return true }
      guard errno == EINPROGRESS else { continue }
      var poller = pollfd(fd: socketDescriptor, events: Int16(POLLOUT), revents: 0)
      guard poll(&poller, 1, 1000) == 1 else { continue }
      var status: Int32 = 0
      var length = socklen_t(MemoryLayout<Int32>.size)
      getsockopt(socketDescriptor, SOL_SOCKET, SO_ERROR, &status, &length)
      if status == ECONNREFUSED { return true }
    }
    return false
  }
}

/// A value behind a pthread mutex (`NSLock`), which ThreadSanitizer understands.
final class LockedValue<Value>: @unchecked Sendable {
  // @unchecked: `value` is only touched while `lock` is held.
  private let lock = NSLock()
  private var value: Value

  init(_ value: Value) { self.value = value }

  func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
    lock.lock()
    defer { lock.unlock() }
    return body(&value)
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
