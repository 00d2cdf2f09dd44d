// Vendored from Kernel/Testing/TestExecutor.swift by Scripts/vendor-kernel. Do not edit here: edit the source,
// then run the script (CI fails while a copy differs).

import Foundation

/// A serial task executor on a thread of its own that can tell when it has nothing left to run.
///
/// A test tool runs every effect of the runtime under test here (the runtime creates its tasks
/// with this executor as their preference), so "no job queued or running" means every effect has
/// finished or is suspended on something outside the runtime (a clock, a fake service): the
/// moment to look at what happened, without sleeping.
final class TestExecutor: TaskExecutor, @unchecked Sendable {
  // @unchecked: every stored var below is read and written only while `condition` is locked.
  private let condition = NSCondition()
  private var jobs: [UnownedJob] = []
  private var isRunningJob = false
  private var waiters: [CheckedContinuation<Void, Never>] = []

  /// Executors kept for reuse. A task keeps its executor preference for life, so an executor
  /// and its thread must outlive every task that ever preferred it: they are never destroyed.
  private static let pool = NSLock()
  // nonisolated(unsafe): read and written only while `pool` is locked (`acquire`, `release`).
  nonisolated(unsafe) private static var idle: [TestExecutor] = []

  private init() {
    // The thread holds the executor strongly, so an executor a test never gives back stays
    // alive as long as the tasks that prefer it.
    let thread = Thread { self.runJobs() }
    thread.name = "TestExecutor"
    thread.start()
  }

  /// An executor no other test is using; give it back with ``release()``.
  static func acquire() -> TestExecutor {
    pool.lock()
    defer { pool.unlock() }
    return idle.popLast() ?? TestExecutor()
  }

  /// Returns this executor to the pool, for the next test.
  func release() {
    Self.pool.lock()
    Self.idle.append(self)
    Self.pool.unlock()
  }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    condition.lock()
    jobs.append(job)
    condition.signal()
    condition.unlock()
  }

  /// Returns once no job is queued or running.
  func quiescence() async {
    await withCheckedContinuation { continuation in
      condition.lock()
      let isIdle = !isRunningJob && jobs.isEmpty
      if !isIdle { waiters.append(continuation) }
      condition.unlock()
      if isIdle { continuation.resume() }
    }
  }

  private func runJobs() {
    while true {
      condition.lock()
      while jobs.isEmpty { condition.wait() }
      let job = jobs.removeFirst()
      isRunningJob = true
      condition.unlock()

      job.runSynchronously(on: asUnownedTaskExecutor())

      condition.lock()
      isRunningJob = false
      var idle: [CheckedContinuation<Void, Never>] = []
      if jobs.isEmpty { swap(&idle, &waiters) }
      condition.unlock()
      for waiter in idle { waiter.resume() }
    }
  }
}
