import Foundation
import Kernel

/// A serial task executor on its own thread that can tell when it has nothing left to run.
///
/// The kit hands it to every runtime through the app's environment. A runtime that creates its
/// tasks with `Task(executorPreference: environment.executor)` runs all of its effects here, and
/// then "every job has run and none is queued" means every effect has either finished or is
/// suspended on the environment (a clock sleep, a pending service call). That is how a scenario
/// step waits for idle (R7) without ever sleeping on wall-clock time. Waking a sleeper or
/// answering a call enqueues the resumed task here synchronously, so no wake-up is missed.
public final class SettlingExecutor: TaskExecutor, @unchecked Sendable {
  // @unchecked: every stored var below is read and written only while `condition` is locked.
  private let condition = NSCondition()
  /// Queued jobs from `head` on: taking one moves an index, not the rest of the queue (a
  /// stack of 10,000 screens starts 10,000 loads at once).
  private var jobs: [UnownedJob] = []
  private var head = 0
  private var isRunningJob = false
  private var finishedJobs = 0
  private var waiters: [CheckedContinuation<Void, Never>] = []

  private static let pool = Lock<[SettlingExecutor]>([])

  private init() {
    // The thread holds the executor strongly: a task may prefer it for as long as the process
    // lives, so an executor is never destroyed, even when its user never calls `release()`
    // (a session that failed before it ran).
    let thread = Thread { self.runJobs() }
    thread.name = "ArchitectureApps.SettlingExecutor"
    thread.start()
  }

  /// An executor that is not in use by any other run; give it back with `release()`.
  ///
  /// Executors are pooled rather than destroyed because a task keeps its executor preference
  /// for its whole life; the pool keeps every executor, and its thread, alive.
  public static func acquire() -> SettlingExecutor {
    pool.withLock { $0.popLast() } ?? SettlingExecutor()
  }

  /// Returns this executor to the pool.
  public func release() {
    Self.pool.withLock { $0.append(self) }
  }

  public func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    condition.lock()
    jobs.append(job)
    condition.signal()
    condition.unlock()
  }

  /// The number of jobs this executor has finished running.
  public var completedJobs: Int {
    condition.lock()
    defer { condition.unlock() }
    return finishedJobs
  }

  /// The number of jobs waiting to run.
  ///
  /// Read from a job of this executor, zero means every other task that prefers it is
  /// suspended or done: a task already running here can settle by yielding until then.
  public var queuedJobCount: Int {
    condition.lock()
    defer { condition.unlock() }
    return jobs.count - head
  }

  /// Returns once no job is queued or running.
  public func quiescence() async {
    await withCheckedContinuation { continuation in
      if !addWaiterUnlessIdle(continuation) { continuation.resume() }
    }
  }

  /// Waits until every task on this executor is suspended or done and `driver` is idle (R7).
  ///
  /// Loops because `idle()` may let more work run on the executor, and that work may again
  /// make the driver busy. A task suspended on anything else (a real clock, a network call)
  /// counts as settled.
  public func settle<App>(_ driver: (any AppDriver<App>)?) async {
    while true {
      await quiescence()
      let mark = completedJobs
      await driver?.idle()
      await quiescence()
      if completedJobs == mark { return }
    }
  }

  private func addWaiterUnlessIdle(_ continuation: CheckedContinuation<Void, Never>) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    guard isRunningJob || head < jobs.count else { return false }
    waiters.append(continuation)
    return true
  }

  private func runJobs() {
    while true {
      condition.lock()
      while head == jobs.count { condition.wait() }
      let job = jobs[head]
      head += 1
      if head == jobs.count {
        jobs.removeAll(keepingCapacity: true)
        head = 0
      } else if head >= 1_024, head * 2 >= jobs.count {
        jobs.removeSubrange(0..<head)
        head = 0
      }
      isRunningJob = true
      condition.unlock()

      job.runSynchronously(on: asUnownedTaskExecutor())

      condition.lock()
      isRunningJob = false
      finishedJobs += 1
      var idleWaiters: [CheckedContinuation<Void, Never>] = []
      if head == jobs.count { swap(&idleWaiters, &waiters) }
      condition.unlock()
      for waiter in idleWaiters { waiter.resume() }
    }
  }
}
