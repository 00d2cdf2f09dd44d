import Synchronization

/// A work id filed under a part of the whole: the part's scope, then the id the part gave it,
/// itself scoped when the part's own parts filed it (a chain from the whole down).
///
/// Nested rather than kept as a list of scopes: filing an id under one more part makes one
/// value, not a new array (an allocation) for every piece of work a part starts.
@usableFromInline
package struct ScopedWorkID: Hashable, Sendable {
  @usableFromInline let scope: AnyWorkID
  @usableFromInline let id: AnyWorkID

  @inlinable
  init(scope: AnyWorkID, id: AnyWorkID) {
    self.scope = scope
    self.id = id
  }

  // `Hasher` for values that hold one (never done here); the box's own hash, made when an id is
  // boxed and in every dictionary, from the two hashes their boxes already hold (no SipHash).
  @inlinable
  package func hash(into hasher: inout Hasher) {
    hasher.combine(scope)
    hasher.combine(id)
  }

  @inlinable
  package func _rawHashValue(seed: Int) -> Int {
    RunHash.mix(id.box.hash, seed: RunHash.mix(scope.box.hash, seed: seed))
  }

  /// `id` as filed under a part, if it is.
  @inlinable
  package static func filed(_ id: AnyWorkID) -> ScopedWorkID? {
    id.value(as: ScopedWorkID.self)
  }

  /// The id filed under the part one level down, if the part's own parts filed it.
  @inlinable
  package var inner: ScopedWorkID? { id.value(as: ScopedWorkID.self) }

  /// The id as the innermost part named it.
  var innermost: AnyWorkID { inner?.innermost ?? id }
}

/// The scope of a part: its key path in the whole, hashed once. Hashing a key path walks its
/// components (some hundreds of instructions), and run keys under a part are hashed for every
/// piece of work the part starts, finishes or cancels.
@usableFromInline
struct PartScope: Hashable, @unchecked Sendable {
  // @unchecked: a key path is immutable.
  @usableFromInline let path: AnyKeyPath
  @usableFromInline let hash: Int

  @inlinable
  init(_ path: AnyKeyPath) {
    self.path = path
    hash = path.hashValue
  }

  @inlinable
  static func == (lhs: PartScope, rhs: PartScope) -> Bool {
    lhs.hash == rhs.hash && lhs.path == rhs.path
  }

  @inlinable
  func hash(into hasher: inout Hasher) { hasher.combine(hash) }
}

/// The scope of one element of a lifted list.
@usableFromInline
struct Element<ID: Hashable & Sendable>: Hashable, Sendable {
  @usableFromInline let list: AnyWorkID
  @usableFromInline let id: ID

  @inlinable
  init(list: AnyWorkID, id: ID) {
    self.list = list
    self.id = id
  }

  @inlinable
  func hash(into hasher: inout Hasher) {
    hasher.combine(list)
    hasher.combine(id)
  }

  /// The element's id hashed once, seeded with the list's hash (which its box holds), rather
  /// than both fed to a `Hasher`.
  @inlinable
  func _rawHashValue(seed: Int) -> Int {
    id._rawHashValue(seed: RunHash.mix(list.box.hash, seed: seed))
  }
}

/// A number for an element's work that has no id of its own, so it can be found and cancelled
/// when the element leaves.
@usableFromInline
struct Unnamed: Hashable, Sendable {
  let number: Int
  static let next = Atomic(0)

  /// A new name.
  @usableFromInline
  static func make() -> AnyWorkID {
    AnyWorkID(Unnamed(number: next.wrappingAdd(1, ordering: .relaxed).newValue))
  }
}

extension AnyWorkID {
  /// The id as its part named it, without the scopes it was filed under.
  package var unscoped: AnyHashable {
    (ScopedWorkID.filed(self)?.innermost ?? self).anyHashable
  }
}
