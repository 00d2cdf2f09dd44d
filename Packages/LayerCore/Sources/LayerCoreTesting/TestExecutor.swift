import Foundation
import LayerCore

/// A serial executor on a thread of its own that knows when it has nothing left to run.
///
/// A ``CoreHarness`` runs all machine work here, so "no job queued or running" means every
/// piece of work has finished or waits on something outside the flow (a clock, a fake service):
/// the moment to look at what happened, without sleeping.
final class TestExecutor: TaskExecutor, @unchecked Sendable {
  // @unchecked: `pending`, `isBusy` and `quiescenceWaiters` are touched only with `condition`
  // locked.
  private let condition = NSCondition()
  private var pending: [UnownedJob] = []
  private var isBusy = false
  private var quiescenceWaiters: [CheckedContinuation<Void, Never>] = []

  /// Idle executors. A task prefers its executor for life, so executors (and their threads)
  /// are reused rather than ended.
  private static let idle = Lock<[TestExecutor]>([])

  private init() {
    let thread = Thread { self.run() }
    thread.name = "LayerCoreTesting.TestExecutor"
    thread.start()
  }

  /// An executor for one harness; hand it back with ``recycle()``.
  static func make() -> TestExecutor { idle.withLock { $0.popLast() } ?? TestExecutor() }

  /// Makes this executor available to the next harness.
  func recycle() { Self.idle.withLock { $0.append(self) } }

  func enqueue(_ job: consuming ExecutorJob) {
    let unowned = UnownedJob(job)
    condition.lock()
    pending.append(unowned)
    condition.signal()
    condition.unlock()
  }

  /// Returns when no job is queued or running.
  func quiescence() async {
    await withCheckedContinuation { continuation in
      condition.lock()
      let isQuiet = pending.isEmpty && !isBusy
      if !isQuiet { quiescenceWaiters.append(continuation) }
      condition.unlock()
      if isQuiet { continuation.resume() }
    }
  }

  private func run() {
    while true {
      condition.lock()
      while pending.isEmpty { condition.wait() }
      let job = pending.removeFirst()
      isBusy = true
      condition.unlock()

      job.runSynchronously(on: asUnownedTaskExecutor())

      condition.lock()
      isBusy = false
      let waiters = pending.isEmpty ? quiescenceWaiters : []
      if pending.isEmpty { quiescenceWaiters = [] }
      condition.unlock()
      for waiter in waiters { waiter.resume() }
    }
  }
}
