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

/// The id of work started without one.
@usableFromInline
struct AnonymousRun: Hashable, Sendable {
  @usableFromInline let number: Int
  @inlinable init(number: Int) { self.number = number }
}

/// Everything a flow guards with its lock.
@usableFromInline
struct FlowCore<C: Core> {
  @usableFromInline var state: C.State?
  @usableFromInline var phase = Phase.created
  @usableFromInline var queue = DrainQueue<Message<C.Event>>()
  @usableFromInline var runs = RunRegistry<OwnedWorkID>()
  @usableFromInline var idleWaiters = Waiters()
  /// Numbers work started without an id, so that it is filed under its machine too.
  @usableFromInline var anonymousRuns = 0
  /// The keys of each machine's running work: a dropped machine's work is found without looking
  /// at anyone else's (a popped screen's load, under 10,000 loading screens).
  @usableFromInline var keysByMachine: [Int: Set<RunKey<OwnedWorkID>>] = [:]

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

  /// Reduces `event` on the state in place; returns the new state if the reducer set one.
  @inlinable
  mutating func reduce(_ core: C, _ event: C.Event) -> C.State? {
    switch core.reduce(state: &state, event: event) {
    case .skip: return nil
    case .set: return state
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
    // Work without an id gets a number of its own under its machine (mailboxes, machine 0,
    // excepted), so that the machine's work can be cancelled when it is dropped.
    var key: RunKey<OwnedWorkID>?
    if let id {
      key = .id(OwnedWorkID(owner: machine, id: id))
    } else if machine != 0 {
      anonymousRuns += 1
      key = .id(OwnedWorkID(owner: machine, id: AnyWorkID(AnonymousRun(number: anonymousRuns))))
    }
    guard !phase.isStopped, let (run, superseded) = runs.start(key, isFinite: isFinite) else {
      return nil
    }
    if let key, machine != 0 {
      // In place, into the machine's set kept from its earlier work: no allocation per run.
      if keysByMachine[machine] != nil {
        keysByMachine[machine]!.insert(key)
      } else {
        keysByMachine[machine] = [key]
      }
    }
    return (run, superseded.flatMap { queue.drop($0) })
  }

  /// Removes all work of the machines in `machines` and what it queued; returns the tasks to
  /// cancel.
  ///
  /// - Complexity: O(m + w) for the m machines and their w pieces of work, whatever else runs.
  @inlinable
  mutating func removeAll(machines: ClosedRange<Int>) -> [Task<Void, Never>] {
    var tasks: [Task<Void, Never>] = []
    for machine in machines {
      guard let keys = keysByMachine.removeValue(forKey: machine) else { continue }
      for key in keys {
        if let task = runs.remove(key).flatMap({ queue.drop($0) }) { tasks.append(task) }
      }
    }
    return tasks
  }

  /// Removes the work under `key` and what it queued; returns its task to cancel.
  @inlinable
  mutating func remove(_ key: RunKey<OwnedWorkID>) -> Task<Void, Never>? {
    forget(key)
    return runs.remove(key).flatMap { queue.drop($0) }
  }

  /// Ends `run` when its operation returns; returns whether it was live.
  @inlinable
  mutating func finish(_ run: Run<OwnedWorkID>) -> Bool {
    guard isLive(run) else { return false }
    if let key = runs.finish(run) { forget(key) }
    return true
  }

  /// Takes `key` out of its machine's keys.
  @inlinable
  mutating func forget(_ key: RunKey<OwnedWorkID>) {
    guard case .id(let owned) = key, owned.owner != 0 else { return }
    // Looked up before it is changed: changing a dictionary's entry in place costs an
    // allocation even when there is no entry.
    guard keysByMachine[owned.owner] != nil else { return }
    // The machine's set stays, empty, for its next work: it goes when the machine is dropped.
    keysByMachine[owned.owner]!.remove(key)
  }

  /// Stops for good: what to cancel and resume once unlocked (nothing if already stopped).
  @inlinable
  mutating func stop() -> Shutdown {
    keysByMachine = [:]
    return Shutdown(phase: &phase, queue: &queue, runs: &runs, waiters: &idleWaiters)
  }

}
