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
  @inlinable
  package mutating func take(if condition: Bool) -> [CheckedContinuation<Void, Never>] {
    guard condition, !continuations.isEmpty else { return [] }
    defer { continuations = [] }
    return continuations
  }
}

extension [CheckedContinuation<Void, Never>] {
  /// Resumes every caller; call it after unlocking.
  @inlinable
  package func resumeAll() {
    for continuation in self { continuation.resume() }
  }
}
