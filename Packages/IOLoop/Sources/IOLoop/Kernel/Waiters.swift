// Vendored from Kernel/Runtime/Waiters.swift by Scripts/vendor-kernel. Do not edit here: edit the source,
// then run the script (CI fails while a copy differs).

/// Callers suspended until a condition holds (`idle()`: R7), resumed after the lock is released.
///
/// Kept inside the runtime's ``Lock``. ``take(if:)`` hands the continuations out; the runtime
/// resumes them once it has unlocked, never while holding the lock.
@usableFromInline
package struct Waiters {
  @usableFromInline var continuations: [CheckedContinuation<Void, Never>] = []

  @inlinable package init() {}

  @inlinable package var isEmpty: Bool { continuations.isEmpty }

  /// Adds a caller to resume later.
  @inlinable
  package mutating func append(_ continuation: CheckedContinuation<Void, Never>) {
    continuations.append(continuation)
  }

  /// Takes every waiting caller if `condition` holds; none otherwise.
  @inlinable @inline(__always)
  package mutating func take(if condition: Bool) -> [CheckedContinuation<Void, Never>] {
    guard condition, !continuations.isEmpty else { return [] }
    defer { continuations = [] }
    return continuations
  }
}

extension [CheckedContinuation<Void, Never>] {
  /// Resumes every caller; call it after unlocking.
  @inlinable @inline(__always)
  package func resumeAll() {
    guard !isEmpty else { return }
    for continuation in self { continuation.resume() }
  }
}

/// What stopping hands back, to act on after unlocking: the tasks of the runs to cancel and the
/// callers to resume.
@usableFromInline
package struct Shutdown {
  @usableFromInline var tasks: [Task<Void, Never>]
  @usableFromInline var waiters: [CheckedContinuation<Void, Never>]

  /// Nothing to do: the runtime had stopped already.
  @inlinable
  package init() {
    tasks = []
    waiters = []
  }

  /// Stops for good: moves `phase` to ``Phase/stopped``, drops every queued message, and takes
  /// every run and every waiting caller. Does nothing when already stopped.
  @inlinable
  package init<Message, ID>(
    phase: inout Phase, queue: inout DrainQueue<Message>, runs: inout RunRegistry<ID>,
    waiters: inout Waiters
  ) {
    guard !phase.isStopped else {
      tasks = []
      self.waiters = []
      return
    }
    phase = .stopped
    queue.removeAll()
    tasks = runs.removeAll()
    self.waiters = waiters.take(if: true)
  }

  /// Adds callers to resume (a runtime's other waiters).
  @inlinable
  package mutating func resume(_ more: [CheckedContinuation<Void, Never>]) {
    waiters += more
  }

  /// Cancels the tasks and resumes the callers; call it after unlocking.
  @inlinable
  package func complete() {
    for task in tasks { task.cancel() }
    waiters.resumeAll()
  }
}
