// Vendored from Kernel/Runtime/Lender.swift by Scripts/vendor-kernel. Do not edit here: edit the source,
// then run the script (CI fails while a copy differs).

/// Lends a value where it is stored. A value read from memory (`pointer.pointee`) is copied
/// before a function that cannot be seen into is called with it, as that function might
/// change the memory: everything the value holds is retained, and released after. A method's
/// own `self`, reached through an in-place (`mutating`) access, is passed on without a copy.
@usableFromInline
package struct Lender<Value> {
  @usableFromInline package var value: Value

  @inlinable
  mutating func lendInPlace<Result>(_ body: (Value) throws -> Result) rethrows -> Result {
    try lend(body)
  }

  @inlinable
  func lend<Result>(_ body: (Value) throws -> Result) rethrows -> Result { try body(value) }

  /// `body` called with the value at `address`, lent where it is. The caller makes sure
  /// nothing changes that memory until `body` returns.
  @inlinable @inline(__always)
  package static func lend<Result>(
    at address: UnsafePointer<Value>, _ body: (Value) throws -> Result
  ) rethrows -> Result {
    // A struct of one stored property is laid out as that property.
    try UnsafeMutableRawPointer(mutating: address).assumingMemoryBound(to: Lender.self).pointee
      .lendInPlace(body)
  }
}
