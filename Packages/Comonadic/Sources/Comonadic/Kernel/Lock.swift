// Vendored from Kernel/Runtime/Lock.swift by Scripts/vendor-kernel. Do not edit here: edit the source,
// then run the script (CI fails while a copy differs).

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value behind a `pthread_mutex_t`: the runtimes' only lock (their test tools and tests use
/// it too).
///
/// Not `Synchronization.Mutex`: on Linux it locks with `FUTEX_LOCK_PI`, and under contention that
/// measured 24 µs per lock here (8 threads × 100,000 appends: 19 s, against 0.07 s for a pthread
/// mutex); ThreadSanitizer also cannot see its futex calls and reports the guarded value as
/// raced. A pthread mutex is fast when contended and understood by the sanitizer.
///
/// The value lives behind a pointer, so `withLock` hands out `inout` access without the dynamic
/// exclusivity checks a class's stored property would pay on every dispatch.
@usableFromInline
package final class Lock<Value>: @unchecked Sendable {
  // @unchecked: `value` is only touched inside `withLock`, or between `lock()` and `unlock()`.
  @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
  /// The value; touch it only between ``lock()`` and ``unlock()`` (or in ``withLock(_:)``).
  @usableFromInline package let value: UnsafeMutablePointer<Value>

  /// Allocates the mutex and the value in one block: one allocation fewer per lock, and every
  /// runtime, subscription and test tool makes several.
  @usableFromInline
  package init(_ initial: Value) {
    let valueOffset =
      (MemoryLayout<pthread_mutex_t>.stride + MemoryLayout<Value>.alignment - 1)
      / MemoryLayout<Value>.alignment * MemoryLayout<Value>.alignment
    let block = UnsafeMutableRawPointer.allocate(
      byteCount: valueOffset + MemoryLayout<Value>.size,
      alignment: max(MemoryLayout<pthread_mutex_t>.alignment, MemoryLayout<Value>.alignment))
    mutex = block.bindMemory(to: pthread_mutex_t.self, capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
    value = (block + valueOffset).bindMemory(to: Value.self, capacity: 1)
    value.initialize(to: initial)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    value.deinitialize(count: 1)
    UnsafeMutableRawPointer(mutex).deallocate()
  }

  /// Runs `body` with the value while holding the mutex.
  @inlinable @inline(__always)
  package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value.pointee)
  }

  /// Locks the mutex, for a hot path that cannot afford a closure's captures; pair it with
  /// ``unlock()`` on every path, and touch ``value`` only in between.
  @inlinable @inline(__always)
  package func lock() { pthread_mutex_lock(mutex) }

  /// Unlocks the mutex locked by ``lock()``.
  @inlinable @inline(__always)
  package func unlock() { pthread_mutex_unlock(mutex) }
}
