/// What a handler's context talks to; the program, type-erased.
@usableFromInline
protocol IOHost: AnyObject, Sendable {
  /// Queues `input` (of the IO type at `slot`) if `run` is live; returns whether it was.
  func receive(_ input: any Sendable, slot: Int, from run: Run<OwnedWorkID>?) -> Bool
  func startRun(
    slot: Int, id: AnyWorkID?, lifetime: IOLifetime,
    operation: @escaping @Sendable (Run<OwnedWorkID>) async -> Void)
  func cancelRun(slot: Int, id: AnyWorkID)
  /// Cancels every run of `slot`.
  func cancelRuns(slot: Int)
  /// Cancels the runs of `slot` filed in the scope of each child `children` names under
  /// `base`, or within it; `children` is called only if some scoped work is running.
  func cancelRuns(slot: Int, base: [AnyWorkID], children: () -> [AnyWorkID])
  /// Cancels the runs of `slot` filed in the scope of `child` under `base`, or within it;
  /// `child` is made only if some scoped work is running.
  func cancelRuns(slot: Int, base: [AnyWorkID], child: () -> AnyWorkID)
  func isLive(_ run: Run<OwnedWorkID>) -> Bool
}

/// What waits in the program's queue.
@usableFromInline
enum Message<State: Sendable>: Sendable {
  /// `start()`: hand the initial outputs to the handlers.
  case start
  /// An input, from a handler, its work or outside: the index of its IO type and its input, as
  /// an ``IOInput`` holds them.
  case input(slot: Int, payload: IOPayload, from: Run<OwnedWorkID>?)
  /// `observe`: the observer joins, and is called with the state now, in queue order.
  case subscribe(Subscriber<State>)
}

extension Message: RunMessage {
  @usableFromInline var origin: Run<OwnedWorkID>? {
    if case .input(_, _, let from) = self { from } else { nil }
  }
}

/// Everything a program guards with its lock.
@usableFromInline
struct ProgramCore<State: PureApp, Input: Sendable> where State.Input == Input {
  @usableFromInline var phase = Phase.created
  @usableFromInline var queue = DrainQueue<Message<State>>()
  @usableFromInline var subscribers: [Subscriber<State>] = []
  /// How to tell whether a step changed the state, once some subscriber is called only on
  /// change (``Main/observe(_:)`` on an `Equatable` app): asked once per step, not once per
  /// subscriber.
  @usableFromInline var isEqual = Comparison<State>()
  /// The observers of single rows, one ``RowObservers`` per identified list.
  @usableFromInline var rowObservers: RowObserverTable = [:]
  /// The id of the last observer added.
  @usableFromInline var lastObserverID = 0
  @usableFromInline var runs = RunRegistry<OwnedWorkID>()
  /// The keys of the scoped work (a nested program's, a list child's) by IO type and by every
  /// prefix of its scope: what a removed child owns is found in one lookup, so removing it costs
  /// what it owns, not what every child of its list runs (SPEC R13).
  @usableFromInline var scopedRuns: [ScopePrefix: ScopedKeys] = [:]
  @usableFromInline var idleWaiters = Waiters()
  /// `run()`'s callers, resumed when the program is over.
  @usableFromInline var endWaiters = Waiters()
  /// The app's state. Last, not first: the drain's holder lends it to observers where it is
  /// kept, outside the lock (``MainRuntime/stateOffset``), while other threads take the lock,
  /// which ThreadSanitizer marks as an access to the core's first bytes.
  @usableFromInline var state: State

  @usableFromInline init(state: State) { self.state = state }

  /// Where a core keeps ``state``. Worked out here, not in the runtime: a key path made in a
  /// context generic over the handlers' pack stops a debug build ("Pack expansion count type
  /// should be a pack").
  @usableFromInline static var stateOffset: Int { MemoryLayout<Self>.offset(of: \Self.state)! }

  /// Runs the app's step for `input` on the state in place (``PureApp/run(inPlace:)``).
  ///
  /// - Returns: The outputs, and whether the state changed (`true` unless a subscriber that is
  ///   called only on change asked for the comparison, which keeps the state before the step).
  @inlinable @inline(__always)
  mutating func step(_ input: borrowing Input) -> (outputs: State.Outputs, changed: Bool) {
    guard isEqual.isSet else { return (state.run(inPlace: input), true) }
    let before = state
    let outputs = state.run(inPlace: input)
    return (outputs, !isEqual(before, state))
  }

  /// Nothing queued or handled (`draining`: the program's claim says), and no finite work
  /// (R7's idle).
  @inlinable func isIdle(draining: Bool) -> Bool {
    runs.isIdle(in: phase, draining: draining)
  }

  /// Nothing queued or handled and no work at all: the program is over.
  @inlinable func isOver(draining: Bool) -> Bool {
    phase.isStopped || (phase.isRunning && !draining && runs.isEmpty)
  }

  /// Whether callers wait for idle or for the end.
  @inlinable var hasWaiters: Bool { !idleWaiters.isEmpty || !endWaiters.isEmpty }

  /// Appends `message`; returns whether the caller must drain (never before start).
  @inlinable
  mutating func enqueue(_ message: consuming Message<State>, _ claim: borrowing DrainClaim)
    -> Bool
  {
    queue.append(message, claiming: claim, in: phase, mayDrain: phase.isRunning)
  }

  /// Ends a drain; returns the waiters to resume.
  @inlinable
  mutating func endDrain(_ claim: borrowing DrainClaim) -> [CheckedContinuation<Void, Never>] {
    queue.endDrain(claim, keepingCapacity: !phase.isStopped)
    return takeWaiters()
  }

  /// The idle and end waiters whose condition holds now, with no drain in progress.
  @inlinable
  mutating func takeWaiters() -> [CheckedContinuation<Void, Never>] {
    // Usually nobody waits: no array is built or joined then.
    if !hasWaiters { return [] }
    return idleWaiters.take(if: isIdle(draining: false))
      + endWaiters.take(if: isOver(draining: false))
  }

  /// The waiters to resume now that work ended or a caller began waiting: none while a drain is
  /// in progress, whose drainer is asked to look again (it resumes them when it ends).
  @inlinable
  mutating func settledWaiters(_ claim: borrowing DrainClaim) -> [CheckedContinuation<Void, Never>]
  {
    if !hasWaiters || claim.askToLookAgain() { return [] }
    return takeWaiters()
  }

  /// Files new work under `id` in `slot`, replacing what ran under it (its queued inputs are
  /// dropped). Returns the run and the superseded task to cancel; `nil` after stop.
  @inlinable
  mutating func start(slot: Int, id: AnyWorkID?, isFinite: Bool) -> (
    run: Run<OwnedWorkID>, superseded: Task<Void, Never>?
  )? {
    let key = id.map { RunKey.id(OwnedWorkID(owner: slot, id: $0)) }
    guard !phase.isStopped, let (run, superseded) = runs.start(key, isFinite: isFinite) else {
      return nil
    }
    // A superseded run had the same key: the index already holds it.
    if let key, let scope = ScopedWorkID.scope(of: key) { index(key, slot: slot, scope: scope) }
    return (run, superseded.flatMap { queue.drop($0) })
  }

  /// Removes the work under `key` and the inputs it queued; returns its task to cancel. The
  /// key leaves every prefix of its scope but the one of length `skipped` (taken out already).
  @inlinable
  mutating func remove(_ key: RunKey<OwnedWorkID>, skipping skipped: Int = -1) -> Task<
    Void, Never
  >? {
    guard let removed = runs.remove(key) else { return nil }
    if case .id(let owned) = key, let scope = ScopedWorkID.scope(of: key) {
      unindex(key, slot: owned.owner, scope: scope, skipping: skipped)
    }
    return queue.drop(removed)
  }

  /// Removes every run of `slot` and the inputs they queued; returns the tasks to cancel.
  @inlinable
  mutating func removeAll(slot: Int) -> [Task<Void, Never>] {
    let keys = runs.keys { key in
      guard case .id(let owned) = key else { return false }
      return owned.owner == slot
    }
    return keys.compactMap { remove($0) }
  }

  /// Removes the runs of `slot` filed in the scope of each of `children` under `base`, or
  /// within it, and the inputs they queued; returns the tasks to cancel. Costs a lookup per
  /// child and what those children own.
  @inlinable
  mutating func removeAll(
    slot: Int, base: [AnyWorkID], children: () -> [AnyWorkID]
  ) -> [Task<Void, Never>] {
    guard !scopedRuns.isEmpty else { return [] }
    var tasks: [Task<Void, Never>] = []
    for child in children() {
      removeAll(
        in: ScopePrefix(slot: slot, head: base, headLength: base.count, last: child),
        into: &tasks)
    }
    return tasks
  }

  /// Removes the runs of `slot` filed in the scope of `child` under `base`, or within it.
  @inlinable
  mutating func removeAll(
    slot: Int, base: [AnyWorkID], child: () -> AnyWorkID
  ) -> [Task<Void, Never>] {
    guard !scopedRuns.isEmpty else { return [] }
    var tasks: [Task<Void, Never>] = []
    removeAll(
      in: ScopePrefix(slot: slot, head: base, headLength: base.count, last: child()),
      into: &tasks)
    return tasks
  }

  /// Removes the runs filed in `scope` or within it; appends their tasks to `tasks`. The
  /// scope's own entry goes at once; each run leaves only the other prefixes it is filed under.
  @inlinable
  mutating func removeAll(in scope: ScopePrefix, into tasks: inout [Task<Void, Never>]) {
    guard let keys = scopedRuns.removeValue(forKey: scope) else { return }
    if let key = keys.first, let task = remove(key, skipping: scope.headLength) {
      tasks.append(task)
    }
    for key in keys.others {
      if let task = remove(key, skipping: scope.headLength) { tasks.append(task) }
    }
  }

  /// Files `key` under every prefix of `scope`.
  @inlinable
  mutating func index(_ key: RunKey<OwnedWorkID>, slot: Int, scope: [AnyWorkID]) {
    for length in scope.indices {
      scopedRuns[
        ScopePrefix(slot: slot, head: scope, headLength: length, last: scope[length]),
        default: ScopedKeys()
      ].insert(key)
    }
  }

  /// Takes `key` out of every prefix of `scope` but the one of length `skipped` (taken out
  /// already), in place: one lookup of each prefix.
  @inlinable
  mutating func unindex(
    _ key: RunKey<OwnedWorkID>, slot: Int, scope: [AnyWorkID], skipping skipped: Int = -1
  ) {
    for length in scope.indices where length != skipped {
      let prefix = ScopePrefix(slot: slot, head: scope, headLength: length, last: scope[length])
      guard let index = scopedRuns.index(forKey: prefix) else { continue }
      scopedRuns.values[index].remove(key)
      if scopedRuns.values[index].isEmpty { scopedRuns.remove(at: index) }
    }
  }

  /// Whether what `run` sends still arrives. Mutating though it changes nothing: the program
  /// calls it through its lock's pointer, where a non-mutating call copies the whole core (the
  /// program's state with it) first.
  @inlinable
  mutating func isLive(_ run: Run<OwnedWorkID>) -> Bool { !phase.isStopped && runs.isLive(run) }

  /// Ends `run` when its operation returns; returns the waiters to resume.
  @inlinable
  mutating func finish(_ run: Run<OwnedWorkID>, _ claim: borrowing DrainClaim)
    -> [CheckedContinuation<Void, Never>]
  {
    guard isLive(run), let key = runs.finish(run) else { return [] }
    if case .id(let owned) = key, let scope = ScopedWorkID.scope(of: key) {
      unindex(key, slot: owned.owner, scope: scope)
    }
    return settledWaiters(claim)
  }

  /// Stops for good: what to cancel and resume once unlocked (nothing if already stopped).
  @inlinable
  mutating func stop() -> Shutdown {
    subscribers = []
    scopedRuns = [:]
    var shutdown = Shutdown(phase: &phase, queue: &queue, runs: &runs, waiters: &idleWaiters)
    shutdown.resume(endWaiters.take(if: true))
    return shutdown
  }

}

/// The runs filed under one prefix of a scope. Most prefixes hold one (a screen's load, a
/// form's `create`): it is kept inline, and a set is made only for a second.
@usableFromInline
struct ScopedKeys {
  /// A run, if any; never one of `others`.
  @usableFromInline var first: RunKey<OwnedWorkID>?
  @usableFromInline var others: Set<RunKey<OwnedWorkID>> = []

  @inlinable init() {}

  @inlinable var isEmpty: Bool { first == nil && others.isEmpty }

  @inlinable
  mutating func insert(_ key: RunKey<OwnedWorkID>) {
    if let first {
      if first != key { others.insert(key) }
    } else if !others.contains(key) {
      first = key
    }
  }

  @inlinable
  mutating func remove(_ key: RunKey<OwnedWorkID>) {
    if first == key { first = nil } else { others.remove(key) }
  }
}
