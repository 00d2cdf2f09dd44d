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
