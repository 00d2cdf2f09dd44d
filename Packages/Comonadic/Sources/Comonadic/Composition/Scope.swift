import Synchronization

/// A work id filed under a part of the whole: the path of scopes from the whole down, then the
/// part's own id.
@usableFromInline
package struct ScopedWorkID: Hashable, Sendable {
  let scope: [AnyWorkID]
  let id: AnyWorkID

  /// The scope of `id` when it is filed under a part.
  @usableFromInline
  package static func scope(of id: AnyWorkID) -> [AnyWorkID]? {
    id.value(as: ScopedWorkID.self)?.scope
  }
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
}

/// A number for an element's work that has no id of its own, so it can be found and cancelled
/// when the element leaves.
struct Unnamed: Hashable, Sendable {
  let number: Int
  static let next = Atomic(0)
}

extension AnyWorkID {
  /// The id as its part named it, without the scopes it was filed under.
  package var unscoped: AnyHashable {
    value(as: ScopedWorkID.self)?.id.anyHashable ?? anyHashable
  }
}
