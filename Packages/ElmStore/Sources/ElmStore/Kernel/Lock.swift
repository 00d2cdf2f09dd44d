// Vendored from Kernel/Runtime/Lock.swift by Scripts/vendor-kernel. Do not edit here: edit the source,
// then run the script (CI fails while a copy differs).

import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value behind a lock: the runtimes' only lock (their test tools and tests use it too).
///
/// Uncontended, locking and unlocking are one atomic operation each, on a word in the lock
/// (`compareExchange` 0 → 1 with acquiring order, `exchange` to 0 with releasing order): a
/// `pthread_mutex_lock`/`unlock` pair cost 55 instructions per round trip here, and every message
/// of every runtime takes at least one. A thread that finds the lock held spins briefly, then
/// sleeps on a `pthread_cond_t` (under its own `pthread_mutex_t`); the word says 2 while a thread
/// may sleep, and the unlock that sees 2 wakes one. ThreadSanitizer sees the word's atomic
/// operations (they are compiled into the code that locks, which the sanitizer instruments), so it
/// sees what the lock orders; and it sees the mutex and the condition.
///
/// Not `Synchronization.Mutex`: on Linux it locks with `FUTEX_LOCK_PI`, and under contention that
/// measured 24 µs per lock here (8 threads × 100,000 appends: 19 s, against 0.07 s for a pthread
/// mutex); ThreadSanitizer also cannot see its futex calls and reports the guarded value as
/// raced.
///
/// The value lives behind a pointer, so `withLock` hands out `inout` access without the dynamic
/// exclusivity checks a class's stored property would pay on every dispatch.
@usableFromInline
package final class Lock<Value>: @unchecked Sendable {
  // @unchecked: `value` is only touched inside `withLock`, or between `lock()` and `unlock()`.
  /// 0: unlocked; 1: locked; 2: locked, and a thread may be waiting for it.
  @usableFromInline let word = Atomic<Int>(0)
  /// Where a thread that found the lock held sleeps: the condition and its mutex, used only then.
  @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
  @usableFromInline let condition: UnsafeMutablePointer<pthread_cond_t>
  /// The value; touch it only between ``lock()`` and ``unlock()`` (or in ``withLock(_:)``).
  @usableFromInline package let value: UnsafeMutablePointer<Value>

  /// Allocates the mutex, the condition and the value in one block: every runtime, subscription
  /// and test tool makes several locks.
  @usableFromInline
  package init(_ initial: Value) {
    let conditionOffset = Self.align(
      MemoryLayout<pthread_mutex_t>.stride, to: MemoryLayout<pthread_cond_t>.alignment)
    let valueOffset = Self.align(
      conditionOffset + MemoryLayout<pthread_cond_t>.stride, to: MemoryLayout<Value>.alignment)
    let block = UnsafeMutableRawPointer.allocate(
      byteCount: valueOffset + MemoryLayout<Value>.size,
      alignment: max(
        MemoryLayout<pthread_mutex_t>.alignment, MemoryLayout<pthread_cond_t>.alignment,
        MemoryLayout<Value>.alignment))
    mutex = block.bindMemory(to: pthread_mutex_t.self, capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
    condition = (block + conditionOffset).bindMemory(to: pthread_cond_t.self, capacity: 1)
    condition.initialize(to: pthread_cond_t())
    pthread_cond_init(condition, nil)
    value = (block + valueOffset).bindMemory(to: Value.self, capacity: 1)
    value.initialize(to: initial)
  }

  private static func align(_ offset: Int, to alignment: Int) -> Int {
    (offset + alignment - 1) / alignment * alignment
  }

  deinit {
    pthread_cond_destroy(condition)
    pthread_mutex_destroy(mutex)
    value.deinitialize(count: 1)
    UnsafeMutableRawPointer(mutex).deallocate()
  }

  /// Runs `body` with the value while holding the lock.
  @inlinable @inline(__always)
  package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock()
    defer { unlock() }
    return try body(&value.pointee)
  }

  /// Locks, for a hot path that cannot afford a closure's captures; pair it with ``unlock()`` on
  /// every path, and touch ``value`` only in between.
  @inlinable @inline(__always)
  package func lock() {
    if !word.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged {
      lockContended()
    }
  }

  /// Unlocks what ``lock()`` locked; wakes a waiting thread, if one may be waiting.
  @inlinable @inline(__always)
  package func unlock() {
    if word.exchange(0, ordering: .releasing) == 2 { wake() }
  }

  /// The lock was held: spins a little (the runtimes hold it for a few hundred instructions),
  /// then marks it as waited for (2) and sleeps until an unlock wakes this thread. Whoever takes
  /// it here leaves the word at 2, so its own unlock wakes the next waiter, if any.
  @usableFromInline @inline(never)
  func lockContended() {
    for _ in 0..<100 {
      if word.load(ordering: .relaxed) == 0,
        word.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged
      {
        return
      }
    }
    pthread_mutex_lock(mutex)
    // Under the mutex: an unlock that sees 2 signals only after this thread waits.
    while word.exchange(2, ordering: .acquiring) != 0 {
      pthread_cond_wait(condition, mutex)
    }
    pthread_mutex_unlock(mutex)
  }

  @usableFromInline @inline(never)
  func wake() {
    pthread_mutex_lock(mutex)
    pthread_cond_signal(condition)
    pthread_mutex_unlock(mutex)
  }
}
