import Foundation

/// Messages that arrive faster than they are handled, for the runtimes' progress tests (SPEC R6,
/// progress): an observer that sends again on every change, so the queue is never empty until the
/// count reaches `until`.
///
/// ``send(_:)`` makes the first send on a thread of its own and counts what is handled there
/// while that send runs: a runtime whose sender drains until the queue is empty handles the whole
/// storm on it; a bounded one, one turn. The rest is handled by the runtime's own task;
/// ``reached()`` waits for the end of the storm without blocking a thread.
///
/// ```swift
/// let storm = SendStorm(until: 4 * messagesPerTurn)
/// store.subscribe { state in storm.observe(state.count) { store.dispatch(.increment) } }
/// await storm.send { store.dispatch(.increment) }
/// #expect(storm.handledBySender <= messagesPerTurn + 1)
/// await storm.reached()
/// ```
package final class SendStorm: @unchecked Sendable {
  // @unchecked: every stored var below is read and written only while `lock` is held.
  private let lock = NSLock()
  private var handledOnSender = 0
  private var isReached = false
  private var waiter: CheckedContinuation<Void, Never>?
  private let until: Int
  private static let senderName = "send storm: the first sender"

  /// A storm that ends once an observer sees `until`.
  package init(until: Int) { self.until = until }

  /// What an observer calls with the count it sees: counts the call, then sends the next message
  /// with `sendNext` while the count is between 1 and `until` (the initial state, 0, starts
  /// nothing: the storm begins with the first send).
  package func observe(_ count: Int, sendNext: () -> Void) {
    let onSender = Thread.current.name == Self.senderName
    let reachedNow = count == until
    let waiter: CheckedContinuation<Void, Never>? = lock.withLock {
      if onSender { handledOnSender += 1 }
      guard reachedNow, !isReached else { return nil }
      isReached = true
      defer { self.waiter = nil }
      return self.waiter
    }
    waiter?.resume()
    if count > 0, count < until { sendNext() }
  }

  /// How many observer calls the first sender made while it was inside its send.
  package var handledBySender: Int { lock.withLock { handledOnSender } }

  /// Runs `send` on a new thread and returns when it has returned.
  package func send(_ send: @escaping @Sendable () -> Void) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let thread = Thread {
        send()
        continuation.resume()
      }
      thread.name = Self.senderName
      thread.start()
    }
  }

  /// Returns once an observer saw the count reach `until`.
  package func reached() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let now = lock.withLock {
        if isReached { return true }
        waiter = continuation
        return false
      }
      if now { continuation.resume() }
    }
  }
}
