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
  private let isArmed = Atomic<Bool>(false)
  private let held = Atomic<Int>(0)
  private let environmentHolds = Atomic<Int>(0)
  private let observerHolds = Atomic<Int>(0)
  private let moment = Atomic<Int>(0)
  /// When the try began to end the runtime, in nanoseconds after ``origin``; 0 before.
  private let ending = Atomic<Int>(0)
  private let origin = ContinuousClock.now

  /// How long an armed call takes to begin at most (see ``arm()``), if the try is slow to end
  /// the runtime.
  public static let holdLimit: Duration = .milliseconds(50)
  /// How long an armed call goes on holding once the try began to end the runtime: longer than
  /// a `stop()` that does not wait for it takes to return, on a loaded machine too.
  public static let holdAfterEnding: Duration = .milliseconds(15)
  /// How many saves and logs, and how many observer calls, an armed probe holds at most: the
  /// first ones after it was armed. A try whose threads keep sending would otherwise hold every
  /// observer call they make.
  public static let maximumHeld = 4

  public init() {}

  /// Records that `event` began now and returns its number.
  ///
  /// An observer call of an armed probe takes its time to begin (see ``arm()``).
  @discardableResult
  public func record(_ event: Event) -> Int {
    holdIfArmed()
    let number = sequence.add(1, ordering: .sequentiallyConsistent).newValue
    events.withLock { $0.append((number, event)) }
    return number
  }

  /// Notes that the try is about to call `stop()` or drop the last reference.
  public func beginEnding() {
    ending.store(nanoseconds(ContinuousClock.now), ordering: .sequentiallyConsistent)
  }

  private func nanoseconds(_ instant: ContinuousClock.Instant) -> Int {
    let (seconds, attoseconds) = (instant - origin).components
    return max(1, Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
  }

  /// Numbers a moment (stop returned, the last reference dropped) in the same sequence.
  public func mark() -> Int {
    let number = sequence.add(1, ordering: .sequentiallyConsistent).newValue
    moment.store(number, ordering: .sequentiallyConsistent)
    return number
  }

  /// From now on, the first ``maximumHeld`` calls that must never begin after stop (a save, a
  /// log) and observer calls take their time to begin: each blocks its thread until the moment
  /// is marked, ``holdAfterEnding`` after the try began to end the runtime, or ``holdLimit``
  /// after it began, and only then counts as begun.
  ///
  /// This is what makes the probe sharp. A runtime that keeps R6 begins such a call inside
  /// something `stop()` waits for (a gate section, its lock, its actor), so the stop waits
  /// while the call begins and the call is numbered before the moment. A runtime that checks
  /// "still running" and then calls outside any of those lets `stop()` return in between: the
  /// call held while `stop()` ran is numbered after the moment, in nearly every try, where an
  /// unarmed window of a few instructions is hit in one try of hundreds.
  public func arm() { isArmed.store(true, ordering: .sequentiallyConsistent) }

  /// How many calls began since the probe was armed that it held, or would have held.
  public var heldCalls: Int { held.load(ordering: .sequentiallyConsistent) }

  /// How many of those were saves or logs, not observer calls.
  public var heldEnvironmentCalls: Int {
    environmentHolds.load(ordering: .sequentiallyConsistent)
  }

  private func holdIfArmed(environment: Bool = false) {
    guard isArmed.load(ordering: .relaxed) else { return }
    // Saves and logs and observer calls each have their quota: observer calls made by the
    // sending threads never use up the holds a save needs.
    let before =
      environment
      ? environmentHolds.add(1, ordering: .sequentiallyConsistent).oldValue
      : observerHolds.add(1, ordering: .sequentiallyConsistent).oldValue
    held.add(1, ordering: .sequentiallyConsistent)
    guard before < Self.maximumHeld else { return }
    let deadline = nanoseconds(ContinuousClock.now + Self.holdLimit)
    let afterEnding = nanoseconds(origin + Self.holdAfterEnding) - 1
    // Blocking on purpose: the call must not suspend, or a task-based gate would let go of it.
    while moment.load(ordering: .sequentiallyConsistent) == 0 {
      let now = nanoseconds(ContinuousClock.now)
      let ended = ending.load(ordering: .sequentiallyConsistent)
      if now >= deadline || (ended != 0 && now >= ended + afterEnding) { break }
      usleep(20)
    }
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
    if !Stress.cancellable.contains(name) { holdIfArmed(environment: true) }
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
