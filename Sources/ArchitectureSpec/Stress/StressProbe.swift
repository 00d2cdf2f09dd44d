import Foundation
import Kernel
import Synchronization

/// Numbers everything a runtime begins — observer calls, environment calls — with one sequence
/// counter, so `arch stress` can tell what began after `stop()` returned or after the last
/// reference was dropped (SPEC R6).
public final class StressProbe: Sendable {
  /// What began.
  public enum Event: Sendable, Hashable {
    /// An observer of the whole view was entered.
    case observer
    /// An observer of one child was entered.
    case childObserver
    /// An environment call began: a save, a log, a load, a clock sleep, a search.
    /// `cancelled` is whether its task was already cancelled when it began: a cancellable call
    /// that reaches the environment already cancelled and ends at once does not count as
    /// beginning (R6).
    case environment(String, cancelled: Bool)
  }

  private let sequence = Atomic<Int>(0)
  private let events = Lock<[(number: Int, event: Event)]>([])

  public init() {}

  /// Records that `event` began now and returns its number.
  @discardableResult
  public func record(_ event: Event) -> Int {
    let number = sequence.add(1, ordering: .sequentiallyConsistent).newValue
    events.withLock { $0.append((number, event)) }
    return number
  }

  /// Numbers a moment (stop returned, the last reference dropped) in the same sequence.
  public func mark() -> Int {
    sequence.add(1, ordering: .sequentiallyConsistent).newValue
  }

  /// Every event numbered after `moment`.
  public func events(after moment: Int) -> [Event] {
    events.withLock { $0.filter { $0.number > moment }.map(\.event) }
  }

  /// Records an environment call's beginning, noting whether its task was cancelled.
  ///
  /// The number is taken first, then the cancellation read: a call numbered after the moment
  /// `stop()` returned must see its task already cancelled. Read the other way round, a task
  /// preempted between the two steps looked uncancelled yet late (1 in about 15,000 shell tries).
  public func environment(_ name: String) {
    let number = sequence.add(1, ordering: .sequentiallyConsistent).newValue
    let cancelled = Task.isCancelled
    events.withLock { $0.append((number, .environment(name, cancelled: cancelled))) }
  }
}

/// A clock a thousand times faster than the wall: one real millisecond is one second, so a
/// stopwatch ticks every 100 µs and a debounce ends within a fraction of a millisecond. Every
/// sleep is recorded as an environment call.
public struct StressClock: Clock {
  public struct Instant: InstantProtocol {
    public var offset: Duration
    public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
    public func duration(to other: Instant) -> Duration { other.offset - offset }
    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
  }

  static let speedUp: Int64 = 1000
  private let origin = ContinuousClock.now
  private let probe: StressProbe

  public init(probe: StressProbe) { self.probe = probe }

  public var now: Instant { Instant(offset: (ContinuousClock.now - origin) * Int(Self.speedUp)) }
  public var minimumResolution: Duration { .microseconds(1) * Int(Self.speedUp) }

  public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
    probe.environment("sleep")
    let wait = now.duration(to: deadline) / Int(Self.speedUp)
    if wait > .zero {
      try await Task.sleep(for: wait)
    } else {
      try Task.checkCancellation()
    }
  }
}
