// Vendored from Kernel/Runtime/Distinct.swift by Scripts/vendor-kernel. Do not edit here: edit the source,
// then run the script (CI fails while a copy differs).

/// An observer of `transform(state)` that is called only when that value changes: an observer
/// of what a screen shows, not of every field.
///
/// Safe without a lock because a runtime calls its observers only from the one caller that
/// drains its queue, and drains never overlap (one ends under the runtime's lock before the
/// next begins).
@inlinable
package func distinct<State, Value: Equatable & Sendable>(
  _ transform: @escaping @Sendable (State) -> Value,
  _ observer: @escaping @Sendable (Value) -> Void
) -> @Sendable (State) -> Void {
  let last = LastDelivered<Value>()
  return { state in
    let value = transform(state)
    if last.replace(with: value) { observer(value) }
  }
}

/// The last value one observer was given, to skip values equal to it.
@usableFromInline
package final class LastDelivered<Value: Equatable & Sendable>: @unchecked Sendable {
  // @unchecked: only the caller draining the runtime calls an observer, and drains never
  // overlap, so `value` is never raced. The value lives behind a pointer, compared and
  // replaced where it is: no class property exclusivity checks, and no copy of it (an
  // optional unwrapped to compare is a copy: a retain and a release of what it holds).
  @usableFromInline let value: UnsafeMutablePointer<Value>
  /// Whether `value` holds one yet.
  @exclusivity(unchecked) @usableFromInline var hasValue = false

  @inlinable
  package init() {
    value = .allocate(capacity: 1)
  }

  deinit {
    if hasValue { value.deinitialize(count: 1) }
    value.deallocate()
  }

  /// Stores `new` and returns whether it differs from the one before.
  @inlinable
  package func replace(with new: Value) -> Bool {
    if hasValue {
      if value.pointee == new { return false }
      value.pointee = new
    } else {
      value.initialize(to: new)
      hasValue = true
    }
    return true
  }
}
