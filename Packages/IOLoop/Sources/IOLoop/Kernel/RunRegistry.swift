// Vendored from Kernel/Runtime/RunRegistry.swift by Scripts/vendor-kernel. Do not edit here: edit the source,
// then run the script (CI fails while a copy differs).

/// How a runtime files a running piece of work: under the user's id, or under its own token
/// when it has none.
@usableFromInline
package enum RunKey<ID: Hashable & Sendable>: Hashable, Sendable {
  case id(ID)
  case anonymous(Int)

  // Written out and inlinable: the synthesized ones are compiled once for any `ID`, and their
  // switch over the pair of keys looks up the pair's type each comparison.
  @inlinable
  package static func == (lhs: RunKey, rhs: RunKey) -> Bool {
    switch lhs {
    case .id(let left):
      if case .id(let right) = rhs { return left == right }
      return false
    case .anonymous(let left):
      if case .anonymous(let right) = rhs { return left == right }
      return false
    }
  }

  /// The key's own hash alone, without the case: each value fed to a hasher costs a round of
  /// its mixing, and an id and a number that hash alike are still told apart by `==`.
  @inlinable
  package func hash(into hasher: inout Hasher) {
    switch self {
    case .id(let id): hasher.combine(id)
    case .anonymous(let number): hasher.combine(number)
    }
  }

  /// What a dictionary asks for: the key's own hash mixed once with the dictionary's seed, with
  /// no `Hasher` made, fed and finished (a registry is looked up several times per message).
  /// A token is mixed by ``RunHash`` (its numbers are the runtime's own); a user's id as its
  /// type says.
  @inlinable
  package func _rawHashValue(seed: Int) -> Int {
    switch self {
    case .id(let id): id._rawHashValue(seed: seed)
    case .anonymous(let number): RunHash.mix(number, seed: seed)
    }
  }
}

/// How the kernel's own keys give a dictionary their hash: the key's value (a run's token, a
/// machine's number, or a hash `Hasher` already made from a user's id) mixed with the
/// dictionary's seed by one multiplication and a shift, about five instructions, where an `Int`
/// key's `_rawHashValue(seed:)` runs `Hasher`'s whole SipHash (about a hundred).
///
/// Not a hash for what a stranger chooses: a user's ids are hashed by `Hasher` first (an
/// ``AnyWorkID`` keeps that hash), so only the runtime's own numbers reach this mix unhashed.
/// The product's low bits, which pick a dictionary's bucket, depend only on the number's low
/// bits; the shift folds the high bits into them, so numbers that differ only high up (a
/// token's, an owner's) spread as a random hash's would (`RunHashBehaviour`).
@usableFromInline
package enum RunHash {
  @inlinable
  package static func mix(_ value: Int, seed: Int) -> Int {
    let product = UInt(bitPattern: value ^ seed) &* 0x9E37_79B9_7F4A_7C15
    return Int(bitPattern: product ^ (product &>> 29))
  }
}

/// A number the runtime gives out (a machine's, a screen's) as a dictionary key hashed by
/// ``RunHash``, not by `Hasher`.
@usableFromInline
package struct RunNumber: Hashable, Sendable {
  @usableFromInline package let value: Int

  @inlinable
  package init(_ value: Int) { self.value = value }

  @inlinable
  package func hash(into hasher: inout Hasher) { hasher.combine(value) }

  @inlinable
  package func _rawHashValue(seed: Int) -> Int { RunHash.mix(value, seed: seed) }
}

/// One run of a piece of work: the token that tells it from every other run of its registry,
/// earlier runs under the same key included. What a run sends carries its `Run`, so a
/// superseded or cancelled run's messages can be told apart and dropped.
///
/// Only the token: a run is copied into every message it sends (and, in some runtimes, every
/// callback it holds), and a copy of its key would copy the user's id, an existential, through
/// its type's value witnesses each time. The registry keeps the key (``RunRegistry/end(_:)``).
@usableFromInline
package struct Run<ID: Hashable & Sendable>: Hashable, Sendable {
  @usableFromInline package let token: Int

  @inlinable
  package init(token: Int) { self.token = token }
}

/// A user's work id with its type erased, for runtimes whose ids have many types.
///
/// Two ids are equal when they have the same type and are equal as that type (unlike
/// `AnyHashable`, `1 as Int` and `1 as Int8` differ). Not an `AnyHashable`: that one compares
/// through dynamic casts and optional metadata lookups, hundreds of instructions each time a
/// runtime files or finds work; this one hashes once, when made, and compares types by identity.
@usableFromInline
package struct AnyWorkID: Hashable, Sendable, CustomStringConvertible {
  /// The id and its hash, boxed once when made: a work id is copied into every run key,
  /// registry entry, lookup and scope, and a copy of a box is a retain, where a copy of an
  /// existential went through its type's value witnesses (thousands of instructions per shell
  /// step).
  @usableFromInline let box: WorkIDBox

  @inlinable
  package init<ID: Hashable & Sendable>(_ id: ID) {
    box = TypedWorkID(id)
  }

  /// The id, if it has type `T`.
  @inlinable
  package func value<T: Hashable & Sendable>(as type: T.Type) -> T? {
    box.typed(as: type)?.id
  }

  @inlinable
  package static func == (lhs: AnyWorkID, rhs: AnyWorkID) -> Bool {
    lhs.box === rhs.box || (lhs.box.hash == rhs.box.hash && lhs.box.isEqual(to: rhs.box))
  }

  @inlinable
  package func hash(into hasher: inout Hasher) { hasher.combine(box.hash) }

  /// The hash made with the id, mixed once with the seed, without a `Hasher`.
  @inlinable
  package func _rawHashValue(seed: Int) -> Int { RunHash.mix(box.hash, seed: seed) }

  @usableFromInline package var description: String { box.description }

  /// The id as an `AnyHashable`, for a test's report.
  package var anyHashable: AnyHashable { box.anyHashable }
}

/// A work id of some type and its hash: what ``AnyWorkID`` holds.
///
/// `@unchecked Sendable`: immutable (its one subclass adds a `let` of a `Sendable` type); a
/// class that is not final cannot say so to the compiler.
@usableFromInline
package class WorkIDBox: @unchecked Sendable {
  @usableFromInline let hash: Int

  @usableFromInline
  init(hash: Int) { self.hash = hash }

  /// Whether `other` holds an id of the same type, equal to this one.
  @usableFromInline
  func isEqual(to other: WorkIDBox) -> Bool { self === other }

  @usableFromInline var description: String { "" }

  var anyHashable: AnyHashable { AnyHashable(ObjectIdentifier(self)) }

  /// This box as the box of a `T`, if it holds one: a comparison of types, not a dynamic cast.
  @inlinable
  final func typed<T: Hashable & Sendable>(as _: T.Type) -> TypedWorkID<T>? {
    guard ObjectIdentifier(type(of: self)) == ObjectIdentifier(TypedWorkID<T>.self) else {
      return nil
    }
    return unsafeDowncast(self, to: TypedWorkID<T>.self)
  }
}

/// A work id of type `ID` in its box.
///
/// `@unchecked Sendable`: immutable; its one stored property is a `let` of a `Sendable` type.
@usableFromInline
package final class TypedWorkID<ID: Hashable & Sendable>: WorkIDBox, @unchecked Sendable {
  @usableFromInline let id: ID

  @inlinable
  init(_ id: ID) {
    self.id = id
    super.init(hash: id.hashValue)
  }

  /// Compares the boxes' classes, read from the boxes themselves: naming `TypedWorkID<ID>`
  /// here, in code compiled for any `ID`, looks the class's metadata up (some hundreds of
  /// instructions) for every comparison.
  @usableFromInline
  override func isEqual(to other: WorkIDBox) -> Bool {
    guard ObjectIdentifier(type(of: other)) == ObjectIdentifier(type(of: self)) else {
      return false
    }
    return unsafeDowncast(other, to: type(of: self)).id == id
  }

  @usableFromInline override var description: String { String(describing: id) }

  override var anyHashable: AnyHashable { AnyHashable(id) }
}

/// A work id filed under its owner (an IO type's slot, a machine's index), so two owners' ids
/// never meet.
@usableFromInline
package struct OwnedWorkID: Hashable, Sendable {
  @usableFromInline package let owner: Int
  @usableFromInline package let id: AnyWorkID

  @inlinable
  package init(owner: Int, id: AnyWorkID) {
    self.owner = owner
    self.id = id
  }

  /// The owner and the id's hash (made when the id was) as one value for the hasher: one
  /// round of its mixing, not two.
  @inlinable
  var foldedHash: Int { id.box.hash &* 31 &+ owner }

  @inlinable
  package func hash(into hasher: inout Hasher) { hasher.combine(foldedHash) }

  /// The same value mixed once with the seed, without a `Hasher` (see ``RunHash``).
  @inlinable
  package func _rawHashValue(seed: Int) -> Int { RunHash.mix(foldedHash, seed: seed) }
}

/// The running work a runtime owns: at most one run per key, each with its task, and how many
/// are *finite* (R7's `idle()` waits for those; a long-lived stream does not count).
///
/// Kept inside the runtime's ``Lock``. Starting a run is two steps, because the task is made
/// after unlocking: ``start(_:isFinite:replacing:)`` files the run, then
/// ``attach(_:to:)`` gives it its task, or says the run was cancelled in between (cancel the
/// task then). The registry does not keep a task from calling the environment; it promises
/// that a run removed here is no longer ``isLive(_:)``, so whatever the run sends afterwards is
/// dropped by the runtime, which asks before it accepts.
@usableFromInline
package struct RunRegistry<ID: Hashable & Sendable> {
  @usableFromInline
  struct Entry {
    @usableFromInline var key: RunKey<ID>
    @usableFromInline var task: Task<Void, Never>?
    @usableFromInline var isFinite: Bool
    /// Whether the run was filed under a key of the caller's (in `tokens`); one started without
    /// a key is found by its token alone.
    @usableFromInline var isKeyed: Bool

    @inlinable init(key: RunKey<ID>, task: Task<Void, Never>?, isFinite: Bool, isKeyed: Bool) {
      self.key = key
      self.task = task
      self.isFinite = isFinite
      self.isKeyed = isKeyed
    }
  }

  /// A run taken out of the registry, with its task to cancel after unlocking.
  @usableFromInline package typealias Removed = (run: Run<ID>, task: Task<Void, Never>?)

  /// The runs going, by token: what a run asks about itself (is it live, attach its task, end
  /// it) costs a lookup of a number mixed by ``RunHash``, never hashing and comparing the
  /// user's id.
  @usableFromInline var entries: [RunNumber: Entry] = [:]
  /// The token of the run going under each key the caller gave (a run started without one is
  /// filed by its token alone: its key, `.anonymous(token)`, names it already).
  @usableFromInline var tokens: [RunKey<ID>: Int] = [:]
  @usableFromInline var nextToken = 1
  /// How many runs are finite.
  @usableFromInline package private(set) var finiteCount = 0

  @inlinable package init() {}

  /// How many runs are going.
  @inlinable package var count: Int { entries.count }

  /// Whether no run is going.
  @inlinable package var isEmpty: Bool { entries.isEmpty }

  /// The keys of the runs going that match `predicate`.
  @inlinable
  package func keys(where predicate: (RunKey<ID>) -> Bool) -> [RunKey<ID>] {
    entries.values.lazy.map(\.key).filter(predicate)
  }

  /// Files a new run under `key` (under a key of its own token when `key` is `nil`).
  ///
  /// - Parameters:
  ///   - isFinite: Whether `idle()` waits for the run.
  ///   - replacing: What to do when a run under `key` is going: cancel it (`true`, the latest
  ///     wins) or keep it and start nothing (`false`, the first wins).
  /// - Returns: The run, and the run it supersedes (drop what that one queued, and cancel its
  ///   task after unlocking); `nil` when a run is kept instead.
  @inlinable
  package mutating func start(
    _ key: RunKey<ID>?, isFinite: Bool, replacing: Bool = true
  ) -> (run: Run<ID>, superseded: Removed?)? {
    let token = nextToken
    guard let key else {
      // Nobody else can name this run's key: no lookup under it, and no entry in `tokens`.
      nextToken += 1
      entries[RunNumber(token)] = Entry(
        key: .anonymous(token), task: nil, isFinite: isFinite, isKeyed: false)
      if isFinite { finiteCount += 1 }
      return (Run(token: token), nil)
    }
    var superseded: Removed?
    if replacing {
      // Filed and looked up in one go: the key is hashed once, not for a lookup and again to
      // file it.
      if let running = tokens.updateValue(token, forKey: key) {
        superseded = entries.removeValue(forKey: RunNumber(running)).map { entry in
          if entry.isFinite { finiteCount -= 1 }
          return (Run(token: running), entry.task)
        }
      }
    } else {
      guard tokens[key] == nil else { return nil }
      tokens[key] = token
    }
    nextToken += 1
    entries[RunNumber(token)] = Entry(key: key, task: nil, isFinite: isFinite, isKeyed: true)
    if isFinite { finiteCount += 1 }
    return (Run(token: token), superseded)
  }

  /// Files a new run under `id`, or under its own token when `id` is `nil`; see
  /// ``start(_:isFinite:replacing:)``.
  @inlinable
  package mutating func start(
    id: ID?, isFinite: Bool, replacing: Bool = true
  ) -> (run: Run<ID>, superseded: Removed?)? {
    start(id.map { .id($0) }, isFinite: isFinite, replacing: replacing)
  }

  /// Gives `run` its task; returns `false` when the run is already over (cancel the task).
  @inlinable
  package mutating func attach(_ task: Task<Void, Never>, to run: Run<ID>) -> Bool {
    // Found, then changed at its index: one lookup, and no optional chain through the
    // dictionary's subscript (`entries[token]?.task = task`), whose modify coroutines allocate
    // their frames on the heap, three per call.
    guard let index = entries.index(forKey: RunNumber(run.token)) else { return false }
    entries.values[index].task = task
    return true
  }

  /// Whether `run` is still going: what it sends may still arrive.
  @inlinable
  package func isLive(_ run: Run<ID>) -> Bool { entries[RunNumber(run.token)] != nil }

  /// Whether a run under `id` is going.
  ///
  /// - Parameter finiteOnly: Count only finite runs (a stream under `id` does not count).
  @inlinable
  package func isRunning(_ id: ID, finiteOnly: Bool = false) -> Bool {
    guard let token = tokens[.id(id)], let entry = entries[RunNumber(token)] else { return false }
    return !finiteOnly || entry.isFinite
  }

  /// Removes the run under `key`: the run and its task (to cancel after unlocking), or `nil`
  /// when none is going. The caller drops what the run queued.
  @inlinable
  package mutating func remove(_ key: RunKey<ID>) -> Removed? {
    // A run started without a key: found by its token.
    if case .anonymous(let token) = key, let index = entries.index(forKey: RunNumber(token)),
      !entries.values[index].isKeyed
    {
      let entry = entries.remove(at: index).value
      if entry.isFinite { finiteCount -= 1 }
      return (Run(token: token), entry.task)
    }
    // Found and taken out by its index: the key is hashed once, not again to remove it.
    guard let index = tokens.index(forKey: key) else { return nil }
    let token = tokens.values[index]
    tokens.remove(at: index)
    guard let entry = entries.removeValue(forKey: RunNumber(token)) else { return nil }
    if entry.isFinite { finiteCount -= 1 }
    return (Run(token: token), entry.task)
  }

  /// Removes run `token`'s entry from both tables.
  @inlinable
  mutating func removeEntry(_ token: Int) -> Entry? {
    guard let entry = entries.removeValue(forKey: RunNumber(token)) else { return nil }
    if entry.isKeyed { tokens[entry.key] = nil }
    if entry.isFinite { finiteCount -= 1 }
    return entry
  }

  /// Marks `run` long-lived (it became a stream): `idle()` no longer waits for it. Returns
  /// whether that changed anything.
  @inlinable
  package mutating func becomeLongLived(_ run: Run<ID>) -> Bool {
    // Changed at its index, as in `attach(_:to:)`.
    guard let index = entries.index(forKey: RunNumber(run.token)),
      entries.values[index].isFinite
    else { return false }
    entries.values[index].isFinite = false
    finiteCount -= 1
    return true
  }

  /// Ends `run` when its work returns: removes it as ``remove(_:)`` would, without a task to
  /// cancel. Returns the key it was filed under, or `nil` when it was already over.
  @inlinable @discardableResult
  package mutating func finish(_ run: Run<ID>) -> RunKey<ID>? { removeEntry(run.token)?.key }

  /// Removes every run; returns their tasks to cancel after unlocking.
  @inlinable
  package mutating func removeAll() -> [Task<Void, Never>] {
    let tasks = entries.values.compactMap { $0.task }
    entries = [:]
    tokens = [:]
    finiteCount = 0
    return tasks
  }
}

/// A queued message that may come from a run: when the run is removed or superseded, what it
/// queued and nobody handled yet is dropped with it (a late result never lands).
@usableFromInline
package protocol RunMessage {
  associatedtype WorkID: Hashable & Sendable
  /// The run that sent the message; `nil` when it comes from outside any run.
  var origin: Run<WorkID>? { get }
}

extension DrainQueue where Message: RunMessage {
  /// Drops what a removed or superseded run queued and nobody took yet; returns the run's task
  /// to cancel after unlocking.
  ///
  /// Kept apart from ``RunRegistry``'s methods on purpose: those stay specialized for the
  /// registry's id type even where the message type is generic.
  @inlinable
  package mutating func drop(_ removed: RunRegistry<Message.WorkID>.Removed) -> Task<Void, Never>? {
    removePending { $0.origin == removed.run }
    return removed.task
  }
}

extension RunRegistry {
  /// Whether a runtime in `phase` is idle (R7): stopped, or with no drain in progress
  /// (`draining`) and no finite run going. Runs that last until cancelled (a timer) do not count.
  @inlinable
  package func isIdle(in phase: Phase, draining: Bool) -> Bool {
    phase.isStopped || (!draining && finiteCount == 0)
  }
}
