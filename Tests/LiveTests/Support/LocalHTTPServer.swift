import Foundation
import Kernel

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An HTTP/1.1 server on 127.0.0.1 for tests, over POSIX sockets: each connection gets one
/// reply, chosen by the test from the request's target, and is closed.
final class LocalHTTPServer: Sendable {
  /// What the server does with a request.
  enum Reply: Sendable {
    /// A whole response with this status and body.
    case response(status: Int, body: [UInt8])
    /// These bytes exactly (for broken responses), then close.
    case raw([UInt8])
    /// Nothing, until the server stops.
    case silence
    /// Headers promising a large body, then one byte of it every 100 ms until the client
    /// hangs up: never idle long enough for a per-packet timeout.
    case trickle
    /// A 200 response of `bytes` spaces, sent in 64 KiB pieces every 2 ms, until all
    /// are sent or the client hangs up: with `Content-Length` when `announced`
    /// is given (it may lie), else chunked or ended by closing the connection.
    case stream(bytes: Int, announced: Int? = nil, chunked: Bool = false)
    /// A 200 response with `size` bytes of extra headers and a small JSON body.
    case largeHeaders(size: Int)

    static func json(_ text: String, status: Int = 200) -> Reply {
      .response(status: status, body: Array(text.utf8))
    }
  }

  /// The port the server listens on.
  let port: UInt16
  private let listener: Int32
  private let handler: @Sendable (String) -> Reply
  private let state = Lock(State())

  private struct State {
    var targets: [String] = []
    var openConnections: Set<Int32> = []
    var isStopped = false
    var streamEndings: [StreamEnding] = []
    var endingWaiters: [(count: Int, continuation: CheckedContinuation<[StreamEnding], Never>)] =
      []
  }

  /// How a ``Reply/stream(bytes:announced:chunked:)`` reply ended: how many body bytes got into
  /// the connection, and whether they were all of them (`false`: the client hung up first, or
  /// the server stopped).
  struct StreamEnding: Equatable, Sendable {
    var sent: Int
    var isComplete: Bool
  }

  /// The request targets received so far (`/v1/search?name=…`), in order.
  var targets: [String] { state.withLock { $0.targets } }

  /// How the first `count` stream replies ended, once they all have: a stream ends when all of
  /// its bytes are sent, when the client hangs up, or when the server stops. What a test
  /// checks then is final, whatever the time the client took to hang up.
  func streamEndings(count: Int) async -> [StreamEnding] {
    await withCheckedContinuation { continuation in
      let endings = state.withLock { state -> [StreamEnding]? in
        guard state.streamEndings.count < count else { return state.streamEndings }
        state.endingWaiters.append((count, continuation))
        return nil
      }
      if let endings { continuation.resume(returning: endings) }
    }
  }

  /// The server's base URL: `http://127.0.0.1:PORT`.
  var url: URL { loopbackURL(port: port) }

  /// Starts a server that answers every request with `handler(target)`.
  init(_ handler: @escaping @Sendable (String) -> Reply) throws {
    self.handler = handler
    (listener, port) = try loopbackSocket(listening: true)
    let thread = Thread { [self] in acceptLoop() }
    thread.name = "LocalHTTPServer.accept"
    thread.start()
  }

  /// Stops accepting and closes every connection still open (silent ones included).
  func stop() {
    let connections = state.withLock { state in
      state.isStopped = true
      return state.openConnections
    }
    shutdown(listener, Int32(SHUT_RDWR))
    for connection in connections { shutdown(connection, Int32(SHUT_RDWR)) }
  }

  private func acceptLoop() {
    while true {
      let connection = accept(listener, nil, nil)
      if connection < 0 {
        if errno == EINTR { continue }
        break
      }
      let accepted = state.withLock { state in
        guard !state.isStopped else { return false }
        state.openConnections.insert(connection)
        return true
      }
      guard accepted else {
        close(connection)
        break
      }
      let thread = Thread { [self] in serve(connection) }
      thread.start()
    }
    close(listener)
  }

  private func serve(_ connection: Int32) {
    defer {
      state.withLock { _ = $0.openConnections.remove(connection) }
      close(connection)
    }
    guard let target = readRequestTarget(connection) else { return }
    state.withLock { $0.targets.append(target) }
    switch handler(target) {
    case .response(let status, let body):
      let head =
        "HTTP/1.1 \(status) \(status < 300 ? "OK" : "Error")\r\nContent-Type: application/json\r\n"
        + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
      transmit(Array(head.utf8) + body, to: connection)
    case .raw(let bytes):
      transmit(bytes, to: connection)
    case .trickle:
      let head =
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n"
      guard transmit(Array(head.utf8), to: connection) else { return }
      while !state.withLock({ $0.isStopped }), transmit([UInt8(ascii: " ")], to: connection) {
        usleep(100_000)  // the server's pace, not a test's wait
      }
    case .stream(let bytes, let announced, let chunked):
      var head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n"
      if let announced { head += "Content-Length: \(announced)\r\n" }
      if chunked { head += "Transfer-Encoding: chunked\r\n" }
      guard transmit(Array((head + "\r\n").utf8), to: connection) else { return }
      let piece = [UInt8](repeating: UInt8(ascii: " "), count: 64 * 1024)
      var sent = 0
      while sent < bytes, !state.withLock({ $0.isStopped }) {
        let count = min(piece.count, bytes - sent)
        let framed =
          chunked
          ? Array((String(count, radix: 16) + "\r\n").utf8) + piece[..<count] + Array("\r\n".utf8)
          : Array(piece[..<count])
        guard transmit(framed, to: connection) else { break }
        sent += count
        usleep(2000)  // the server's pace (at most 32 MiB/s), not a test's wait: a network's speed
      }
      if chunked, sent == bytes { transmit(Array("0\r\n\r\n".utf8), to: connection) }
      let (endings, ready) = state.withLock { state in
        state.streamEndings.append(StreamEnding(sent: sent, isComplete: sent == bytes))
        let endings = state.streamEndings
        let ready = state.endingWaiters.filter { $0.count <= endings.count }
        state.endingWaiters.removeAll { $0.count <= endings.count }
        return (endings, ready)
      }
      for waiter in ready { waiter.continuation.resume(returning: endings) }
    case .largeHeaders(let size):
      var head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n"
      var written = 0
      var index = 0
      while written < size {
        let line = "X-Padding-\(index): \(String(repeating: "x", count: 1000))\r\n"
        head += line
        written += line.utf8.count
        index += 1
      }
      let body = #"{"generationtime_ms":1}"#
      head += "Content-Length: \(body.utf8.count)\r\n\r\n" + body
      transmit(Array(head.utf8), to: connection)
    case .silence:
      var byte: UInt8 = 0
      _ = recv(connection, &byte, 1, 0)  // returns when the client gives up or the server stops
    }
  }

  private func readRequestTarget(_ connection: Int32) -> String? {
    var request: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while !request.suffix(4).elementsEqual(Array("\r\n\r\n".utf8)) {
      let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
      guard count > 0 else { return nil }
      request += buffer[..<count]
      if request.count > 65_536 { return nil }
    }
    let line = String(decoding: request.prefix { $0 != UInt8(ascii: "\r") }, as: UTF8.self)
    let parts = line.split(separator: " ")
    return parts.count == 3 ? String(parts[1]) : nil
  }

  @discardableResult
  private func transmit(_ bytes: [UInt8], to connection: Int32) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let count = bytes.withUnsafeBytes {
        send(connection, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
      }
      if count <= 0 { return false }
      offset += count
    }
    return true
  }
}

/// A port on 127.0.0.1 that refuses connections for as long as this is kept: a socket bound to it
/// that never listens. A port a stopped server freed could be bound again meanwhile by another
/// test's server; this one cannot.
final class ClosedPort: Sendable {
  private let socketDescriptor: Int32
  let port: UInt16

  init() throws { (socketDescriptor, port) = try loopbackSocket(listening: false) }

  /// `http://127.0.0.1:PORT`.
  var url: URL { loopbackURL(port: port) }

  deinit { close(socketDescriptor) }
}

/// A TCP socket bound to a port of its own on 127.0.0.1 (listening, with a backlog of 16, when
/// `listening`), and that port.
private func loopbackSocket(listening: Bool) throws -> (descriptor: Int32, port: UInt16) {
  let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  guard descriptor >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_addr.s_addr = inet_addr("127.0.0.1")
  address.sin_port = 0
  var length = socklen_t(MemoryLayout<sockaddr_in>.size)
  let bound = withUnsafeMutablePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      bind(descriptor, $0, length) == 0 && (!listening || listen(descriptor, 16) == 0)
        && getsockname(descriptor, $0, &length) == 0
    }
  }
  guard bound else {
    close(descriptor)
    throw POSIXError(.init(rawValue: errno) ?? .EIO)
  }
  return (descriptor, UInt16(bigEndian: address.sin_port))
}

/// `http://127.0.0.1:PORT`.
private func loopbackURL(port: UInt16) -> URL {
  guard let url = URL(string: "http://127.0.0.1:\(port)") else {
    preconditionFailure("a port makes a valid URL")
  }
  return url
}
