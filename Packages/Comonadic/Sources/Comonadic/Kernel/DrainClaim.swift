// Vendored from Kernel/Runtime/DrainClaim.swift by Scripts/vendor-kernel. Do not edit here: edit the source,
// then run the script (CI fails while a copy differs).

import Synchronization

/// Who handles a runtime's queue: at most one caller at a time, so messages are handled one
/// by one, in order, never nested (R2).
///
/// Whoever finds the queue undrained, under the runtime's ``Lock``, claims the drain
/// (``claim()``, or ``hold()`` when it already found it free) and handles messages outside the
/// lock. It gives the drain back in one of two ways:
/// - under the lock, once the queue is empty (``end()``, which ``DrainQueue/endDrain(_:keepingCapacity:)``
///   calls);
/// - without the lock (``release()``), when it handled its own message in place and needs to look
///   at nothing else: a message with observers then costs one lock round trip, not two.
///
/// The lock-free release must not miss anything, so whoever, under the lock, queues a message
/// or starts waiting for idle while the drain is held asks the drainer to look again
/// (``claim()`` does it for a message, ``askToLookAgain()`` for a waiter). ``release()`` then
/// fails and the drainer drains, which ends under the lock, where it sees everything.
///
/// Only holders of the lock claim the drain, so a drain found free under the lock stays free
/// while the lock is held.
@usableFromInline
package struct DrainClaim: ~Copyable, Sendable {
  @usableFromInline let state = Atomic<Int>(0)

  /// A caller is draining.
  @usableFromInline static var held: Int { 1 }
  /// Something happened that the drainer must look at before it lets go.
  @usableFromInline static var lookAgain: Int { 2 }

  @inlinable package init() {}

  /// Whether a caller is draining. Ask it under the lock.
  ///
  /// Acquiring: a caller that finds the drain free and takes it sees what the last holder wrote
  /// before its lock-free ``release()``, outside the lock (Comonadic's value observers' last
  /// value). On x86 an acquiring load is a plain one.
  @inlinable @inline(__always) package var isHeld: Bool { state.load(ordering: .acquiring) != 0 }

  /// Claims the drain if nobody has it, and returns `true`: the caller drains. Otherwise asks
  /// the drainer to look again before it lets go, and returns `false`. Call it holding the lock.
  @inlinable
  package func claim() -> Bool {
    var current = state.load(ordering: .relaxed)
    while true {
      let isFree = current == 0
      let (exchanged, found) = state.compareExchange(
        expected: current, desired: isFree ? Self.held : current | Self.lookAgain,
        ordering: .acquiringAndReleasing)
      if exchanged { return isFree }
      current = found
    }
  }

  /// Claims the drain for a caller that found it free (``isHeld`` is `false`) under the lock it
  /// still holds. `lookingAgain` when callers wait for idle: the drain then ends under the lock,
  /// where it resumes them if the runtime is idle.
  @inlinable @inline(__always)
  package func hold(lookingAgain: Bool = false) {
    state.store(lookingAgain ? Self.held | Self.lookAgain : Self.held, ordering: .relaxed)
  }

  /// Asks the drainer, if there is one, to look again before it lets go; returns whether there
  /// is one (it then resumes the `idle()` callers when it ends). Call it holding the lock.
  @inlinable
  package func askToLookAgain() -> Bool {
    var current = state.load(ordering: .relaxed)
    while current != 0 {
      let (exchanged, found) = state.compareExchange(
        expected: current, desired: current | Self.lookAgain, ordering: .acquiringAndReleasing)
      if exchanged { return true }
      current = found
    }
    return false
  }

  /// Gives the drain back without the lock. Returns `false` when someone asked the drainer to
  /// look again meanwhile: the caller still holds the drain and must drain.
  @inlinable @inline(__always)
  package func release() -> Bool {
    state.compareExchange(expected: Self.held, desired: 0, ordering: .acquiringAndReleasing)
      .exchanged
  }

  /// Gives the drain back once the queue is empty (or the runtime stopped). Call it holding
  /// the lock.
  @inlinable @inline(__always)
  package func end() { state.store(0, ordering: .releasing) }
}

extension Waiters {
  /// The `idle()` callers to resume now that `isIdle` may have become true (a run finished, a
  /// caller began waiting): none while a drain is in progress, whose drainer is asked to look
  /// again and resumes them when it ends. Call it holding the lock.
  @inlinable
  package mutating func settled(isIdle: Bool, drain claim: borrowing DrainClaim)
    -> [CheckedContinuation<Void, Never>]
  {
    if isEmpty { return [] }
    if claim.askToLookAgain() { return [] }
    return take(if: isIdle)
  }
}

extension Lock {
  /// `idle()`: returns at once when the runtime is idle now (`isIdle`, and no drain in
  /// progress); otherwise files the caller with the waiters `waiters` hands out, to be resumed
  /// by the drain in progress when it ends (it is asked to look again) or by whatever makes the
  /// runtime idle later (a run that ends: ``Waiters/settled(isIdle:drain:)``).
  ///
  /// ```swift
  /// await core.waitUntilIdle(
  ///   drain: claim, isIdle: { $0.isIdle(draining: false) }, waiters: { $1(&$0.idleWaiters) })
  /// ```
  // `waiters` is a closure, not a key path: a key path into a core whose type has a parameter
  // pack (IOLoop's) crashed the runtime of a debug build ("Pack expansion count type should be
  // a pack").
  @inlinable
  package func waitUntilIdle(
    drain claim: borrowing DrainClaim, isIdle: (inout Value) -> Bool,
    waiters: (inout Value, (inout Waiters) -> Void) -> Void
  ) async {
    await withCheckedContinuation { (caller: CheckedContinuation<Void, Never>) in
      var resumed: [CheckedContinuation<Void, Never>]?
      withLock { value in
        let idle = isIdle(&value)
        // Idle now: nothing filed (a filed caller costs an allocation).
        if idle, !claim.isHeld { return }
        waiters(&value) { waiters in
          waiters.append(caller)
          resumed = waiters.settled(isIdle: idle, drain: claim)
        }
      }
      guard let resumed else { return caller.resume() }
      resumed.resumeAll()
    }
  }
}
