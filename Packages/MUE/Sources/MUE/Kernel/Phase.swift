// Vendored from Kernel/Runtime/Phase.swift by Scripts/vendor-kernel. Do not edit here: edit the source,
// then run the script (CI fails while a copy differs).

/// Where a runtime is in its life: one value instead of `isStarted` and `isStopped` flags.
///
/// A runtime that starts as it is made begins at ``running``; one with a separate `start()`
/// begins at ``created``, queueing what is sent until then. ``stopped`` is for good (R6):
/// nothing is applied, delivered or started after it.
@usableFromInline
package enum Phase: Sendable, Hashable {
  /// Made, not started: messages wait in the queue.
  case created
  /// Handling messages.
  case running
  /// Stopped for good.
  case stopped

  /// Whether messages are handled now.
  @inlinable package var isRunning: Bool { self == .running }

  /// Whether the runtime has stopped.
  @inlinable package var isStopped: Bool { self == .stopped }
}

extension Phase {
  /// `start()` of a runtime made at ``created``: moves to ``running`` and puts `message` ahead
  /// of what was sent before it. Returns whether the caller must drain; nothing happens (and
  /// `false`) when the runtime started or stopped already.
  @inlinable
  package mutating func start<Message>(
    _ queue: inout DrainQueue<Message>, with message: Message, claiming claim: borrowing DrainClaim
  ) -> Bool {
    guard self == .created else { return false }
    self = .running
    queue.insertNext(message)
    return claim.claim()
  }
}
