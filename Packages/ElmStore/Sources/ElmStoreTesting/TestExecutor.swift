import ElmStore
import Foundation

/// A serial executor on its own thread that can tell when it has nothing left to run.
///
/// A ``TestStore`` runs every effect here, so "every job has run and none is queued" means
/// every effect has finished or is suspended on something outside the store (a clock, a
/// service): the moment to check what the effects dispatched, without ever sleeping.
final class TestExecutor: TaskExecutor, @unchecked Sendable {
  // @unchecked: every stored var below is read and written only while `condition` is locked.
  private let condition = NSCondition()
  private var jobs: [UnownedJob] = []
  private var isRunningJob = false
  private var waiters: [CheckedContinuation<Void, Never>] = []

  /// Executors are kept for reuse: a task keeps its executor preference for life, so an
  /// executor and its thread must outlive every task that ever preferred it.
  private static let pool = Lock<[TestExecutor]>([])

  private init() {
    let thread = Thread { self.runJobs() }
    thread.name = "ElmStoreTesting.TestExecutor"
    thread.start()
  }

  /// An executor no other test store is using; give it back with ``release()``.
  static func acquire() -> TestExecutor {
    pool.withLock { $0.popLast() } ?? TestExecutor()
  }

  /// Returns this executor to the pool.
  func release() {
    Self.pool.withLock { $0.append(self) }
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
