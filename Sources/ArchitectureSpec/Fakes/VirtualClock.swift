import Kernel

/// A clock whose time passes only when a test advances it (R8).
///
/// Sleepers wake in deadline order, ties in registration order. A deadline equal to the current
/// time has passed, so `sleep(until: now)` returns at once. Cancelling a sleeping task wakes it
/// with `CancellationError`.
///
/// ```swift
/// let clock = VirtualClock()
/// Task { try await clock.sleep(for: .milliseconds(100)); print("tick") }
/// clock.advance(by: .seconds(1))  // wakes the sleeper
/// ```
public final class VirtualClock: Clock, Sendable {
  /// A point in virtual time: the duration since the clock was created.
  public struct Instant: InstantProtocol, Hashable, Sendable, CustomStringConvertible {
    public var offset: Duration

    public init(offset: Duration) { self.offset = offset }

    public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
    public func duration(to other: Instant) -> Duration { other.offset - offset }
    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    public var description: String { "t+\(offset)" }
  }

  /// One call to the clock, as recorded in ``calls``.
  public enum Call: Hashable, Sendable, CustomStringConvertible {
    /// A task went to sleep until the deadline.
    case sleep(until: Instant)
    /// A sleeping task was cancelled before its deadline.
    case cancelled(until: Instant)

    public var description: String {
      switch self {
      case .sleep(let deadline): "sleep(until: \(deadline))"
      case .cancelled(let deadline): "cancelled sleep(until: \(deadline))"
      }
    }
  }

  private struct Sleeper {
    var id: Int
    var deadline: Instant
    var continuation: CheckedContinuation<Void, any Error>
  }

  private struct State {
    var now = Instant(offset: .zero)
    var nextID = 0
    var sleepers: [Sleeper] = []
    var cancelledBeforeRegistration: Set<Int> = []
    var calls: [Call] = []

    /// The index of the sleeper to wake first: earliest deadline, then earliest registration.
    var firstDue: Int? {
      sleepers.indices.min { a, b in
        (sleepers[a].deadline, sleepers[a].id) < (sleepers[b].deadline, sleepers[b].id)
      }
    }
  }

  private let state = Lock(State())

  public init() {}

  public var now: Instant { state.withLock { $0.now } }

  public var minimumResolution: Duration { .zero }

  /// Every sleep that had to wait and every cancelled sleep, in order. Sleeps whose deadline had
  /// already passed return at once and are not recorded.
  public var calls: [Call] { state.withLock { $0.calls } }

  /// The number of tasks currently sleeping on this clock.
  public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

  /// The earliest pending deadline, if any task sleeps.
  public var nextDeadline: Instant? {
    state.withLock { state in state.firstDue.map { state.sleepers[$0].deadline } }
  }

  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    let id: Int? = state.withLock { state in
      guard deadline > state.now else { return nil }
      state.calls.append(.sleep(until: deadline))
      defer { state.nextID += 1 }
      return state.nextID
    }
    guard let id else { return }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let outcome = state.withLock { state -> Result<Void, any Error>? in
          if state.cancelledBeforeRegistration.remove(id) != nil {
            state.calls.append(.cancelled(until: deadline))
            return .failure(CancellationError())
          }
          // The clock may have passed the deadline since the sleep was recorded.
          guard deadline > state.now else { return .success(()) }
          state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
          return nil
        }
        if let outcome { continuation.resume(with: outcome) }
      }
    } onCancel: {
      let continuation = state.withLock { state in
        guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else {
          // Not registered yet (the registration records the cancellation), or already woken.
          state.cancelledBeforeRegistration.insert(id)
          return nil as CheckedContinuation<Void, any Error>?
        }
        state.calls.append(.cancelled(until: deadline))
        return state.sleepers.remove(at: index).continuation
      }
      continuation?.resume(throwing: CancellationError())
    }
  }

  /// Wakes the first sleeper due at or before `limit`, moving the clock to its deadline.
  ///
  /// - Returns: Whether a sleeper was woken. The woken task runs on its own executor; callers
  ///   that need it to finish first wait for that executor before waking the next one.
  @discardableResult
  public func wakeNext(notAfter limit: Instant) -> Bool {
    let continuation = state.withLock { state -> CheckedContinuation<Void, any Error>? in
      guard let index = state.firstDue, state.sleepers[index].deadline <= limit else { return nil }
      let sleeper = state.sleepers.remove(at: index)
      state.now = max(state.now, sleeper.deadline)
      return sleeper.continuation
    }
    continuation?.resume()
    return continuation != nil
  }

  /// Moves the clock to `instant` (never backwards) without waking anyone.
  public func move(to instant: Instant) {
    state.withLock { $0.now = max($0.now, instant) }
  }

  /// Fails every sleeper with `CancellationError`; used when a run ends so no task waits forever.
  package func abandonAll() {
    let sleepers = state.withLock { state in
      defer { state.sleepers.removeAll() }
      return state.sleepers
    }
    for sleeper in sleepers { sleeper.continuation.resume(throwing: CancellationError()) }
  }

  /// Advances the clock by `duration`, waking every sleeper due by then in deadline order.
  ///
  /// This does not wait for the woken tasks to run. The conformance runner instead wakes one
  /// sleeper at a time and waits for the runtime to settle in between, so a timer that sleeps
  /// again is woken again within the same advance.
  ///
  /// Waking the last due sleeper and moving the clock to the target happen under one lock, so a
  /// woken timer that sleeps again meanwhile is either woken by this advance or finds its
  /// deadline already passed; it is never left behind a clock that moved past it.
  public func advance(by duration: Duration) {
    let target = now.advanced(by: duration)
    while let continuation = state.withLock({ state -> CheckedContinuation<Void, any Error>? in
      guard let index = state.firstDue, state.sleepers[index].deadline <= target else {
        state.now = max(state.now, target)
        return nil
      }
      let sleeper = state.sleepers.remove(at: index)
      state.now = max(state.now, sleeper.deadline)
      return sleeper.continuation
    }) {
      continuation.resume()
    }
  }
}
