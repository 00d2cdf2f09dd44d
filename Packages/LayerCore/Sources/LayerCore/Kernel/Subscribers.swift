// Vendored from Kernel/Runtime/Subscribers.swift by Scripts/vendor-kernel. Do not edit here: edit the source,
// then run the script (CI fails while a copy differs).

/// A subscriber to a runtime's state (or a part of it): called with each new value.
@usableFromInline
package struct Subscriber<Value>: Sendable {
  /// Tells the subscriber apart, to unsubscribe it.
  @usableFromInline package let id: Int
  @usableFromInline package let notify: @Sendable (Value) -> Void
  /// Whether it is called only when the value changed (with every new value otherwise).
  @usableFromInline package let onlyOnChange: Bool

  @inlinable
  package init(id: Int, onlyOnChange: Bool = false, notify: @escaping @Sendable (Value) -> Void) {
    self.id = id
    self.onlyOnChange = onlyOnChange
    self.notify = notify
  }
}

extension Array {
  /// Calls each subscriber with `value`, in order: those called only on change only if it
  /// `changed`; none once `isStopped()` (a stop from inside a subscriber).
  ///
  /// The subscribers are read where they are stored, not copied out one by one: a copy
  /// retains and releases each one's function (measured: 134 -> 86 instructions per
  /// subscriber).
  @inlinable @inline(__always)
  package func notifyEach<Value>(
    of value: Value, changed: Bool = true, unless isStopped: () -> Bool
  ) where Element == Subscriber<Value> {
    withUnsafeBufferPointer { subscribers in
      for index in subscribers.indices
      where (changed || !subscribers[index].onlyOnChange) && !isStopped() {
        subscribers[index].notify(value)
      }
    }
  }
}
