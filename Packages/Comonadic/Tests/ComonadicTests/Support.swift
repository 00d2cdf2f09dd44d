import Comonadic
import Foundation
import Synchronization

/// A value an effect waits for, ignoring cancellation, until the test opens it.
final class Gate: Sendable {
  private let state = Lock<(isOpen: Bool, waiters: [CheckedContinuation<Void, Never>])>(
    (false, []))

  /// Waits until ``open()``; cancellation does not end the wait.
  func wait() async {
    await withCheckedContinuation { continuation in
      let isOpen = state.withLock { state in
        if !state.isOpen { state.waiters.append(continuation) }
        return state.isOpen
      }
      if isOpen { continuation.resume() }
    }
  }

  func open() {
    let waiters = state.withLock { state in
      state.isOpen = true
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }

  /// How many tasks wait.
  var waiting: Int { state.withLock { $0.waiters.count } }
}

/// Values collected from observers and effects, in order.
final class Recorder<Value: Sendable>: Sendable {
  private let values = Lock<[Value]>([])
  func append(_ value: Value) { values.withLock { $0.append(value) } }
  var all: [Value] { values.withLock { $0 } }
}

/// Runs `body` on `count` new threads released together, and returns when all are done.
func onThreads(_ count: Int, _ body: @escaping @Sendable () -> Void) async {
  let ready = Atomic(0)
  let finished = Atomic(0)
  await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
    for _ in 0..<count {
      Thread {
        ready.add(1, ordering: .sequentiallyConsistent)
        while ready.load(ordering: .sequentiallyConsistent) < count { sched_yield() }
        body()
        if finished.add(1, ordering: .sequentiallyConsistent).newValue == count {
          continuation.resume()
        }
      }.start()
    }
  }
}

/// Waits, without sleeping, until `condition` holds: yields to other tasks in between.
func eventually(_ condition: () -> Bool) async {
  while !condition() { await Task.yield() }
}

extension AsyncStream where Element == Void {
  /// A stream that never yields and ends only when the task iterating it is cancelled: a timer
  /// that never ticks.
  static var never: AsyncStream<Void> { AsyncStream { _ in } }
}
