// Vendored from Kernel/Runtime/Subscribers.swift by Scripts/vendor-kernel. Do not edit here: edit the source,
// then run the script (CI fails while a copy differs).

/// A subscriber to a runtime's state (or a part of it): called with each new value.
@usableFromInline
package struct Subscriber<Value>: Sendable {
  /// Tells the subscriber apart, to unsubscribe it.
  @usableFromInline package let id: Int
  /// Whether it is called only when the value changed (with every new value otherwise).
  @usableFromInline package let onlyOnChange: Bool
  /// The function, in an object of its own: a list of subscribers is then called through
  /// references it keeps alive, without retaining and releasing each function around its call
  /// (see ``Swift/Array/notifyEach(of:changed:unless:)``).
  @usableFromInline let call: SubscriberCall<Value>

  /// The subscriber's function.
  @inlinable package var notify: @Sendable (Value) -> Void { call.notify }

  @inlinable
  package init(id: Int, onlyOnChange: Bool = false, notify: @escaping @Sendable (Value) -> Void) {
    self.id = id
    self.onlyOnChange = onlyOnChange
    self.call = SubscriberCall(notify)
  }
}

/// A subscriber's function, kept by reference (see ``Subscriber/call``).
@usableFromInline
final class SubscriberCall<Value>: Sendable {
  @usableFromInline let notify: @Sendable (Value) -> Void

  @inlinable init(_ notify: @escaping @Sendable (Value) -> Void) { self.notify = notify }
}

extension Array {
  /// Calls each subscriber with `value`, in order: those called only on change only if it
  /// `changed`; none once `isStopped()` (a stop from inside a subscriber).
  ///
  /// The subscribers are read where they are stored, not copied out one by one: a copy
  /// retains and releases each one's function (measured: 134 -> 86 instructions per
  /// subscriber). Each function is called through its object unretained: this list, which the
  /// caller keeps alive for the call, holds it (a function read from the list's storage is
  /// otherwise retained and released around its call: about 20 instructions each).
  @inlinable @inline(__always)
  package func notifyEach<Value>(
    of value: Value, changed: Bool = true, unless isStopped: () -> Bool
  ) where Element == Subscriber<Value> {
    withUnsafeBufferPointer { subscribers in
      // Two loops, so that the usual one (a change) neither tests each subscriber's
      // `onlyOnChange` nor reloads `changed` after each call.
      if changed {
        for index in subscribers.indices where !isStopped() {
          Unmanaged.passUnretained(subscribers[index].call)._withUnsafeGuaranteedRef {
            $0.notify(value)
          }
        }
      } else {
        for index in subscribers.indices where !subscribers[index].onlyOnChange && !isStopped() {
          Unmanaged.passUnretained(subscribers[index].call)._withUnsafeGuaranteedRef {
            $0.notify(value)
          }
        }
      }
    }
  }
}
