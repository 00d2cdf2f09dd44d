import Foundation
import Kernel

/// Runs `body` on a task of its own and returns its result, or `nil` when it has not finished
/// within `limit` of real time.
///
/// A scenario that hangs (a deadlocked runtime, an effect that never ends) must fail with a
/// message, not hang the whole run. A task cannot be stopped from outside, so one that hangs is
/// left behind: it keeps its executor, and the run goes on with the next scenario. This is a
/// watchdog, not a way of waiting: when the body finishes in time nothing waits for the limit.
/// The watchdog is a thread of its own, so it fires even when every thread of the concurrency
/// pool is blocked by the hanging runtime.
func withTimeLimit<T: Sendable>(
  _ limit: Duration, _ body: @escaping @Sendable () async -> T
) async -> T? {
  let outcome = Outcome<T>()
  return await withCheckedContinuation { continuation in
    outcome.set(continuation)
    let alarm = Watchdog.shared.schedule(after: limit) { outcome.finish(nil) }
    // Detached: the body must not inherit an executor preference it could block.
    Task.detached {
      let value = await body()
      Watchdog.shared.cancel(alarm)
      outcome.finish(value)
    }
  }
}

/// Whichever of the body and the alarm comes first resumes the caller.
private final class Outcome<T: Sendable>: Sendable {
  private let state = Lock<(continuation: CheckedContinuation<T?, Never>?, done: Bool)>(
    (nil, false))

  func set(_ continuation: CheckedContinuation<T?, Never>) {
    state.withLock { $0.continuation = continuation }
  }

  func finish(_ value: T?) {
    let continuation = state.withLock { state -> CheckedContinuation<T?, Never>? in
      guard !state.done else { return nil }
      state.done = true
      defer { state.continuation = nil }
      return state.continuation
    }
    continuation?.resume(returning: value)
  }
}

/// One thread that runs alarms at their deadlines.
private final class Watchdog: @unchecked Sendable {
  // @unchecked: `alarms` and `nextID` are read and written only while `condition` is locked.
  static let shared = Watchdog()

  private let condition = NSCondition()
  private var alarms: [Int: (deadline: ContinuousClock.Instant, fire: @Sendable () -> Void)] = [:]
  private var nextID = 0

  private init() {
    let thread = Thread { [unowned self] in self.run() }
    thread.name = "ArchitectureSpec.Watchdog"
    thread.start()
  }

  func schedule(after delay: Duration, _ fire: @escaping @Sendable () -> Void) -> Int {
    condition.lock()
    defer { condition.unlock() }
    nextID += 1
    alarms[nextID] = (ContinuousClock.now.advanced(by: delay), fire)
    condition.signal()
    return nextID
  }

  func cancel(_ id: Int) {
    condition.lock()
    alarms[id] = nil
    condition.unlock()
  }

  private func run() {
    while true {
      condition.lock()
      let now = ContinuousClock.now
      let due = alarms.filter { $0.value.deadline <= now }
      for id in due.keys { alarms[id] = nil }
      if due.isEmpty {
        if let next = alarms.values.map(\.deadline).min() {
          let wait = now.duration(to: next)
          let seconds = Double(wait.components.seconds) + Double(wait.components.attoseconds) / 1e18
          _ = condition.wait(until: Date(timeIntervalSinceNow: seconds))
        } else {
          condition.wait()
        }
      }
      condition.unlock()
      for alarm in due.values { alarm.fire() }
    }
  }
}
