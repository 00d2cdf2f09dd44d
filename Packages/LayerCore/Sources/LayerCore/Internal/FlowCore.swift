/// What waits in a flow's queue.
@usableFromInline
enum Message<Event: Sendable>: Sendable {
  /// Phase two of starting: every machine's first `process(nil)`.
  case start
  /// An event for the reducer, from work (`run`) or from `process` and outside (`nil`).
  case event(Event, from: Run<OwnedWorkID>?)
  /// Inputs a redirected machine sends back to itself.
  case job(@Sendable () -> Void, from: Run<OwnedWorkID>?)
}

extension Message: RunMessage {
  @usableFromInline var origin: Run<OwnedWorkID>? {
    switch self {
    case .event(_, let run), .job(_, let run): run
    case .start: nil
    }
  }
}

/// The keys of one machine's running work: the first inline (a machine's usual one run: a
/// screen's load), more in a set. A pushed screen's machine files its load without allocating.
@usableFromInline
struct MachineRuns {
  @usableFromInline var first: RunKey<OwnedWorkID>?
  @usableFromInline var more: Set<RunKey<OwnedWorkID>> = []

  @inlinable init(_ key: RunKey<OwnedWorkID>) { first = key }

  @inlinable
  mutating func insert(_ key: RunKey<OwnedWorkID>) {
    // Each key in one place only: the set is looked at only when it holds something.
    if first == nil {
      if !more.isEmpty { more.remove(key) }
      first = key
    } else if first != key {
      more.insert(key)
    }
  }

  @inlinable
  mutating func remove(_ key: RunKey<OwnedWorkID>) {
    if first == key {
      first = nil
    } else if !more.isEmpty {
      more.remove(key)
    }
  }
}

/// Tasks to cancel once unlocked: the first inline (a dropped screen's one load), more in an
/// array.
@usableFromInline
struct TasksToCancel {
  @usableFromInline var first: Task<Void, Never>?
  @usableFromInline var more: [Task<Void, Never>] = []

  @inlinable init() {}

  @inlinable
  mutating func append(_ task: Task<Void, Never>) {
    if first == nil { first = task } else { more.append(task) }
  }

  @inlinable
  func cancelAll() {
    first?.cancel()
    for task in more { task.cancel() }
  }
}

/// Everything a flow guards with its lock.
@usableFromInline
struct FlowCore<C: Core> {
  @usableFromInline var phase = Phase.created
  @usableFromInline var queue = DrainQueue<Message<C.Event>>()
  @usableFromInline var runs = RunRegistry<OwnedWorkID>()
  @usableFromInline var idleWaiters = Waiters()
  /// The keys of each machine's running work: a dropped machine's work is found without looking
  /// at anyone else's (a popped screen's load, under 10,000 loading screens).
  /// Keyed by ``RunNumber``: a machine's number is the flow's own, mixed without `Hasher`.
  @usableFromInline var keysByMachine: [RunNumber: MachineRuns] = [:]
  /// The state. Not the first field: the drain's holder reads it outside the lock through its
  /// address (``FlowRuntime/deliverReduced(in:)``), and an access to the whole core (another
  /// thread's, under the lock) is marked, for ThreadSanitizer, at the core's first byte.
  @usableFromInline var state: C.State?

  @inlinable init(state: C.State? = nil) { self.state = state }

  /// Nothing queued or handled, and no finite work (R7's idle); `draining` tells whether a
  /// caller is handling the queue (the flow's claim says). Mutating for the reason
  /// ``isLive(_:)`` is.
  @inlinable
  mutating func isIdle(draining: Bool) -> Bool {
    phase.isStopped || (!draining && !queue.hasNext && runs.finiteCount == 0)
  }

  /// Ends a drain whose queue is empty (or whose flow stopped): gives `claim` back and returns
  /// the `idle()` callers to resume.
  @inlinable
  mutating func endDrain(_ claim: borrowing DrainClaim) -> [CheckedContinuation<Void, Never>] {
    queue.endDrain(claim, keepingCapacity: !phase.isStopped)
    return idleWaiters.take(if: isIdle(draining: false))
  }

  /// Reduces `event` on the state in place; returns whether the reducer set a state.
  @inlinable
  mutating func reduce(_ core: C, _ event: C.Event) -> Bool {
    switch core.reduce(state: &state, event: event) {
    case .skip: return false
    case .set:
      guard case .some = state else { return false }
      return true
    }
  }

  /// Whether what `run` sends still arrives (`nil`: not work, live until stopped).
  ///
  /// Mutating though it changes nothing: the flow calls it through its lock's pointer, where a
  /// non-mutating call copies the whole state (the app's with it) first.
  @inlinable
  mutating func isLive(_ run: Run<OwnedWorkID>?) -> Bool {
    guard !phase.isStopped else { return false }
    guard let run else { return true }
    return runs.isLive(run)
  }

  /// Files new work of `machine` under `id`, replacing what ran under it (what that queued is
  /// dropped). Returns the run and the superseded task to cancel; `nil` after stop.
  @inlinable
  mutating func start(machine: Int, id: AnyWorkID?, isFinite: Bool) -> (
    run: Run<OwnedWorkID>, superseded: Task<Void, Never>?
  )? {
    // Work without an id is filed under its run's token (`RunKey.anonymous`), and under its
    // machine (mailboxes, machine 0, excepted), so that the machine's work can be cancelled
    // when it is dropped.
    let key = id.map { RunKey.id(OwnedWorkID(owner: machine, id: $0)) }
    guard !phase.isStopped, let (run, superseded) = runs.start(key, isFinite: isFinite) else {
      return nil
    }
    if machine != 0 {
      let filed = key ?? .anonymous(run.token)
      // In place, into the machine's keys kept from its earlier work: no allocation per run,
      // and one lookup.
      if let index = keysByMachine.index(forKey: RunNumber(machine)) {
        keysByMachine.values[index].insert(filed)
      } else {
        keysByMachine[RunNumber(machine)] = MachineRuns(filed)
      }
    }
    return (run, superseded.flatMap { queue.drop($0) })
  }

  /// Removes all work of the machines in `machines` and what it queued; returns the tasks to
  /// cancel.
  ///
  /// - Complexity: O(m + w) for the m machines and their w pieces of work, whatever else runs.
  @inlinable
  mutating func removeAll(machines: ClosedRange<Int>) -> TasksToCancel {
    var tasks = TasksToCancel()
    var machine = machines.lowerBound
    while machine <= machines.upperBound {
      defer { machine += 1 }
      guard let keys = keysByMachine.removeValue(forKey: RunNumber(machine)) else { continue }
      if let key = keys.first, let task = runs.remove(key).flatMap({ queue.drop($0) }) {
        tasks.append(task)
      }
      for key in keys.more {
        if let task = runs.remove(key).flatMap({ queue.drop($0) }) { tasks.append(task) }
      }
    }
    return tasks
  }

  /// Removes the work under `key` (of `machine`) and what it queued; returns its task to
  /// cancel.
  @inlinable
  mutating func remove(_ key: RunKey<OwnedWorkID>, of machine: Int) -> Task<Void, Never>? {
    forget(key, of: machine)
    return runs.remove(key).flatMap { queue.drop($0) }
  }

  /// Ends `run` of `machine` when its operation returns; returns whether it was live.
  @inlinable
  mutating func finish(_ run: Run<OwnedWorkID>, of machine: Int) -> Bool {
    guard isLive(run) else { return false }
    if let key = runs.finish(run) { forget(key, of: machine) }
    return true
  }

  /// Takes `key` out of `machine`'s keys.
  @inlinable
  mutating func forget(_ key: RunKey<OwnedWorkID>, of machine: Int) {
    // Found, then changed at its index: changing a dictionary's entry through its key costs an
    // allocation even when there is no entry, and a second lookup when there is.
    guard machine != 0, let index = keysByMachine.index(forKey: RunNumber(machine)) else { return }
    // The machine's entry stays, empty, for its next work: it goes when the machine is dropped.
    keysByMachine.values[index].remove(key)
  }

  /// Stops for good: what to cancel and resume once unlocked (nothing if already stopped).
  @inlinable
  mutating func stop() -> Shutdown {
    keysByMachine = [:]
    return Shutdown(phase: &phase, queue: &queue, runs: &runs, waiters: &idleWaiters)
  }

}
