// Vendored from Kernel/Runtime/FieldReader.swift by Scripts/vendor-kernel. Do not edit here: edit the source,
// then run the script (CI fails while a copy differs).

/// Reads the value at a key path, by its offset when the key path names properties stored
/// inline (`\.counter`, `\.shell.rows`): `root[keyPath:]` runs the key path's generic
/// projection, which looks up type metadata each time (hundreds of instructions a read in a
/// runtime's hot path); an offset is a load.
///
/// Falls back to `root[keyPath:]` for anything else: a computed property, a class's property,
/// an optional chain.
///
/// A class, so that a closure that captures one and nothing else needs no context of its own
/// (it holds the object), as one that captured the key path did.
@usableFromInline
package final class FieldReader<Root, Value>: Sendable {
  @usableFromInline let path: KeyPath<Root, Value> & Sendable
  /// The value's offset in the root's memory, when it is stored there.
  @usableFromInline let offset: Int?

  @inlinable
  package init(_ path: KeyPath<Root, Value> & Sendable) {
    self.path = path
    offset = MemoryLayout<Root>.offset(of: path)
  }

  /// The value at the key path in `root`.
  @inlinable
  package func callAsFunction(_ root: Root) -> Value {
    guard let offset else { return root[keyPath: path] }
    return InlineField.read(root, at: offset)
  }

  /// Calls `body` with the address of the value at the key path in `root`: where it is stored
  /// in `root` when it is, so that it is not copied out (a copy retains everything it holds).
  @inlinable
  package func withAddress<Result>(
    in root: Root, _ body: (UnsafePointer<Value>) throws -> Result
  ) rethrows -> Result {
    guard let offset else { return try withUnsafePointer(to: root[keyPath: path], body) }
    return try withUnsafePointer(to: root) {
      try body(UnsafeRawPointer($0).advanced(by: offset).assumingMemoryBound(to: Value.self))
    }
  }
}

/// Reads and changes the value at a writable key path, by its offset when the key path names
/// properties stored inline; see ``FieldReader``.
@usableFromInline
package final class WritableField<Root, Value>: Sendable {
  @usableFromInline let path: WritableKeyPath<Root, Value> & Sendable
  @usableFromInline let offset: Int?

  @inlinable
  package init(_ path: WritableKeyPath<Root, Value> & Sendable) {
    self.path = path
    offset = MemoryLayout<Root>.offset(of: path)
  }

  /// The value at the key path in `root`.
  @inlinable
  package func callAsFunction(_ root: Root) -> Value {
    guard let offset else { return root[keyPath: path] }
    return InlineField.read(root, at: offset)
  }

  /// The value's address in the root at `root`, when it is stored there (`nil` otherwise):
  /// what code compiled for the root's type reads a field through without copying the root, as
  /// passing the root itself to read it would.
  @inlinable
  package func address(in root: UnsafePointer<Root>) -> UnsafePointer<Value>? {
    guard let offset else { return nil }
    return UnsafeRawPointer(root).advanced(by: offset).assumingMemoryBound(to: Value.self)
  }

  /// Calls `body` with the value at the key path in `root`, changed in place.
  @inlinable
  package func modify<Result>(
    _ root: inout Root, _ body: (inout Value) throws -> Result
  ) rethrows -> Result {
    guard let offset else { return try body(&root[keyPath: path]) }
    return try InlineField.modify(&root, at: offset, body)
  }

  /// Calls `body` with the value at `path` in `root`, changed in place, for a key path known
  /// only at the call: looks its offset up (cheaper than a projection), without keeping it.
  @inlinable
  package static func modify<Result>(
    _ root: inout Root, at path: WritableKeyPath<Root, Value>,
    _ body: (inout Value) throws -> Result
  ) rethrows -> Result {
    guard let offset = MemoryLayout<Root>.offset(of: path) else {
      return try body(&root[keyPath: path])
    }
    return try InlineField.modify(&root, at: offset, body)
  }
}

/// A value stored inline in another, at a byte offset (`MemoryLayout.offset(of:)`).
@usableFromInline
enum InlineField {
  @inlinable
  static func read<Root, Value>(_ root: Root, at offset: Int) -> Value {
    withUnsafePointer(to: root) {
      UnsafeRawPointer($0).advanced(by: offset).assumingMemoryBound(to: Value.self).pointee
    }
  }

  @inlinable
  static func modify<Root, Value, Result>(
    _ root: inout Root, at offset: Int, _ body: (inout Value) throws -> Result
  ) rethrows -> Result {
    try withUnsafeMutablePointer(to: &root) {
      try body(
        &UnsafeMutableRawPointer($0).advanced(by: offset).assumingMemoryBound(to: Value.self)
          .pointee)
    }
  }
}
