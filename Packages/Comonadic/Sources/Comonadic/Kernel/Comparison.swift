// Vendored from Kernel/Runtime/Comparison.swift by Scripts/vendor-kernel. Do not edit here: edit the source,
// then run the script (CI fails while a copy differs).

/// The one comparison a runtime makes on every step for its observers called only on change:
/// given by the first such observer, kept, and called without retaining its function.
///
/// Stored as a plain or optional closure where the runtime keeps its state, the function would
/// be retained and released around every call (the call might replace it), and an optional one
/// copied out through outlined code first, even to test it. Here the function sits in an object
/// the comparison owns and is called through an unretained reference to it.
///
/// - Important: Only replace a comparison where no call of it can be running: under the lock
///   its calls are made under, or by the one caller that drains the queue.
@usableFromInline
package struct Comparison<Value>: @unchecked Sendable {
  /// Keeps the function alive; `nil` until an observer asks for comparisons.
  @usableFromInline let owner: ComparisonFunction<Value>?
  /// ``owner``, unretained: what calls go through.
  @usableFromInline let reference: Unmanaged<ComparisonFunction<Value>>?

  /// No comparison: every step counts as a change.
  @inlinable
  package init() {
    owner = nil
    reference = nil
  }

  /// Compares with `isSame`.
  @inlinable
  package init(_ isSame: @escaping @Sendable (Value, Value) -> Bool) {
    let owner = ComparisonFunction(isSame)
    self.owner = owner
    reference = Unmanaged.passUnretained(owner)
  }

  /// Whether an observer asked for comparisons.
  @inlinable
  package var isSet: Bool { reference != nil }

  /// Whether `value` and `other` are the same to the observers.
  ///
  /// - Precondition: ``isSet``.
  @inlinable @inline(__always)
  package func callAsFunction(_ value: Value, _ other: Value) -> Bool {
    reference.unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.isSame(value, other) }
  }
}

/// A ``Comparison``'s function, in an object the comparison calls without retaining it.
@usableFromInline
package final class ComparisonFunction<Value>: Sendable {
  @usableFromInline let isSame: @Sendable (Value, Value) -> Bool

  @inlinable
  init(_ isSame: @escaping @Sendable (Value, Value) -> Bool) { self.isSame = isSame }
}
