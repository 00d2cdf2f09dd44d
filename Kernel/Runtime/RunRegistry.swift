/// How a runtime files a running piece of work: under the user's id, or under its own token
/// when it has none.
@usableFromInline
package enum RunKey<ID: Hashable & Sendable>: Hashable, Sendable {
  case id(ID)
  case anonymous(Int)
}

/// One run of a piece of work: its key and the token that tells it from earlier runs under the
/// same key. What a run sends carries its `Run`, so a superseded or cancelled run's messages
/// can be told apart and dropped.
@usableFromInline
package struct Run<ID: Hashable & Sendable>: Hashable, Sendable {
  @usableFromInline package let key: RunKey<ID>
  @usableFromInline package let token: Int

  @inlinable
  package init(key: RunKey<ID>, token: Int) {
    self.key = key
    self.token = token
  }
}

/// A user's work id with its type erased, for runtimes whose ids have many types.
@usableFromInline
package struct AnyWorkID: Hashable, @unchecked Sendable {
  // @unchecked: made only from `some Hashable & Sendable` (see `init`), so the erased value is
  // Sendable; `AnyHashable` just cannot say so.
  @usableFromInline package let base: AnyHashable

  @inlinable
  package init(_ id: some Hashable & Sendable) { base = AnyHashable(id) }
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
}

/// The running work a runtime owns: at most one run per key, each with its task, and how many
/// are *finite* (R7's `idle()` waits for those; a long-lived stream does not count).
///
/// Kept inside the runtime's ``Lock``. Starting a run is two steps, because the task is made
/// after unlocking: ``start(_:isFinite:replacing:)`` files the run, then
/// ``attach(_:to:)`` gives it its task, or says the run was cancelled in between (cancel the
/// task then). The task itself checks ``isLive(_:)`` before it calls the environment, so a run
/// cancelled before its task began never reaches it.
@usableFromInline
package struct RunRegistry<ID: Hashable & Sendable> {
  @usableFromInline
  struct Entry {
    @usableFromInline var token: Int
    @usableFromInline var task: Task<Void, Never>?
    @usableFromInline var isFinite: Bool

    @inlinable init(token: Int, task: Task<Void, Never>?, isFinite: Bool) {
      self.token = token
      self.task = task
      self.isFinite = isFinite
    }
  }

  /// A run taken out of the registry, with its task to cancel after unlocking.
  @usableFromInline package typealias Removed = (run: Run<ID>, task: Task<Void, Never>?)

  @usableFromInline var entries: [RunKey<ID>: Entry] = [:]
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
    entries.keys.filter(predicate)
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
    if !replacing, let key, entries[key] != nil { return nil }
    let token = nextToken
    nextToken += 1
    let key = key ?? .anonymous(token)
    let superseded = remove(key)
    entries[key] = Entry(token: token, task: nil, isFinite: isFinite)
    if isFinite { finiteCount += 1 }
    return (Run(key: key, token: token), superseded)
  }

  /// Files a new run under `id`, or under its own token when `id` is `nil`; see
  /// ``start(_:isFinite:replacing:)``.
  @inlinable
  package mutating func start(
    id: ID?, isFinite: Bool, replacing: Bool = true
  ) -> (run: Run<ID>, superseded: Removed?)? {
    start(id.map(RunKey.id), isFinite: isFinite, replacing: replacing)
  }

  /// Gives `run` its task; returns `false` when the run is already over (cancel the task).
  @inlinable
  package mutating func attach(_ task: Task<Void, Never>, to run: Run<ID>) -> Bool {
    guard entries[run.key]?.token == run.token else { return false }
    entries[run.key]?.task = task
    return true
  }

  /// Whether `run` is still going: what it sends may still arrive.
  @inlinable
  package func isLive(_ run: Run<ID>) -> Bool { entries[run.key]?.token == run.token }

  /// Whether a run under `id` is going.
  ///
  /// - Parameter finiteOnly: Count only finite runs (a stream under `id` does not count).
  @inlinable
  package func isRunning(_ id: ID, finiteOnly: Bool = false) -> Bool {
    guard let entry = entries[.id(id)] else { return false }
    return !finiteOnly || entry.isFinite
  }

  /// Removes the run under `key`: the run and its task (to cancel after unlocking), or `nil`
  /// when none is going. The caller drops what the run queued.
  @inlinable
  package mutating func remove(_ key: RunKey<ID>) -> Removed? {
    guard let entry = entries.removeValue(forKey: key) else { return nil }
    if entry.isFinite { finiteCount -= 1 }
    return (Run(key: key, token: entry.token), entry.task)
  }

  /// Marks `run` long-lived (it became a stream): `idle()` no longer waits for it. Returns
  /// whether that changed anything.
  @inlinable
  package mutating func becomeLongLived(_ run: Run<ID>) -> Bool {
    guard isLive(run), entries[run.key]?.isFinite == true else { return false }
    entries[run.key]?.isFinite = false
    finiteCount -= 1
    return true
  }

  /// Ends `run` when its work returns; returns `false` when it was already over.
  @inlinable
  package mutating func finish(_ run: Run<ID>) -> Bool {
    guard isLive(run), let entry = entries.removeValue(forKey: run.key) else { return false }
    if entry.isFinite { finiteCount -= 1 }
    return true
  }

  /// Removes every run; returns their tasks to cancel after unlocking.
  @inlinable
  package mutating func removeAll() -> [Task<Void, Never>] {
    let tasks = entries.values.compactMap(\.task)
    entries = [:]
    finiteCount = 0
    return tasks
  }
}
