// Vendored from Kernel/Runtime/RuntimeCore.swift by Scripts/vendor-kernel. Do not edit here: edit the source,
// then run the script (CI fails while a copy differs).

/// What a runtime guards with its lock, as far as its queue, its runs and `idle()` go: the
/// parts every `<Runtime>Core` has, and what they do together, written once.
///
/// A core whose queue or idle differ (IOLoop's waits for `start()` and has callers waiting for
/// the end; LayerCore's counts queued messages as not idle) writes its own.
@usableFromInline
package protocol RuntimeCore {
  associatedtype Message
  associatedtype WorkID: Hashable & Sendable

  var phase: Phase { get }
  var queue: DrainQueue<Message> { get set }
  var runs: RunRegistry<WorkID> { get }
  /// The `idle()` callers waiting.
  var idleWaiters: Waiters { get set }
}

extension RuntimeCore {
  /// Whether nothing is queued or being handled (`draining`: the runtime's ``DrainClaim``
  /// says) and no finite run is going (R7).
  @inlinable
  package func isIdle(draining: Bool) -> Bool { runs.isIdle(in: phase, draining: draining) }

  /// Appends `message` (nothing after stop), and returns whether the caller must drain.
  @inlinable
  package mutating func enqueue(_ message: consuming Message, _ claim: borrowing DrainClaim)
    -> Bool
  {
    queue.append(message, claiming: claim, in: phase)
  }

  /// The `idle()` callers to resume now that a run ended: none while a drain is in progress,
  /// which is asked to look again and resumes them when it ends.
  @inlinable
  package mutating func settledWaiters(_ claim: borrowing DrainClaim)
    -> [CheckedContinuation<Void, Never>]
  {
    idleWaiters.settled(isIdle: isIdle(draining: false), drain: claim)
  }

  /// Ends a drain whose queue is empty (or whose runtime stopped): gives `claim` back and
  /// returns the `idle()` callers to resume. Messages not handled yet stay queued.
  @inlinable
  package mutating func endDrain(_ claim: borrowing DrainClaim)
    -> [CheckedContinuation<Void, Never>]
  {
    queue.endDrain(claim, keepingCapacity: !phase.isStopped)
    return idleWaiters.take(if: isIdle(draining: false))
  }
}
