/// What waits in the store's queue.
@usableFromInline
enum Message<State: Sendable, Action: Sendable>: Sendable {
  case action(Action, from: Run<AnyWorkID>?)
  /// An action handled only if `condition` holds for the state when its turn comes: what a
  /// scope of a presented child dispatches (ignored once that child was dismissed).
  case guarded(Action, if: @Sendable (State) -> Bool)
  case subscribe(Subscriber<State>)
}

extension Message: RunMessage {
  @usableFromInline var origin: Run<AnyWorkID>? {
    if case .action(_, let from) = self { from } else { nil }
  }
}

/// What one step of the queue did.
@usableFromInline
enum StepKind: Sendable {
  /// An action was applied: notify the observers, then run the effect.
  case applied
  /// An observer subscribed: give it the state.
  case subscribed
  /// A guarded action whose condition did not hold was dropped.
  case skipped
  /// The queue is empty.
  case drained
  /// The caller's turn is over with actions still queued: the store's task goes on (R6).
  case handedOver
}

/// What `Store.dispatch` must do after ``StoreCore/accept(_:isPlain:update:)``.
@usableFromInline
enum Acceptance {
  /// Nothing more: the action was applied, queued or dropped.
  case done
  /// Drain the queue: the action was queued and the drainer let go meanwhile, so the caller
  /// claimed the drain.
  case mustDrain
  /// Hand the action to `handle`: an effect or the monitor must see it.
  case mustHandle
  /// Notify the observers: the action was applied and the caller claimed the drain.
  case applied(changed: Bool)
}

/// One applied action, as ``Store``'s monitor (the test store) sees it.
@usableFromInline
package struct Processed<State: Sendable, Action: Sendable>: Sendable {
  package var action: Action
  package var isFromEffect: Bool
  package var before: State
  package var after: State
  /// The runs the effect started for this action, with their keys (`nil`: a run without an id).
  @usableFromInline package var started: [StartedRun] = []

  @usableFromInline
  package init(action: Action, isFromEffect: Bool, before: State, after: State) {
    self.action = action
    self.isFromEffect = isFromEffect
    self.before = before
    self.after = after
  }
}

/// A run an effect started, as the test store sees it.
@usableFromInline
package struct StartedRun: Hashable, Sendable {
  package var run: Run<AnyWorkID>
  package var key: RunKey<AnyWorkID>?

  @usableFromInline
  init(run: Run<AnyWorkID>, key: RunKey<AnyWorkID>?) {
    self.run = run
    self.key = key
  }

  /// The run's id as the effect gave it, and the children it is filed under, outermost first:
  /// `form #2 › create`, `\State.stack[3] › details`.
  package var description: String {
    guard case .id(var id) = key else { return "a run without an id" }
    var parts: [String] = []
    while let scoped = id.value(as: ScopedKey.self) {
      parts.append(describe(scoped.namespace))
      guard case .id(let inner) = scoped.inner else {
        parts.append("a run without an id")
        return parts.joined(separator: " › ")
      }
      id = inner
    }
    parts.append("\(id)")
    return parts.joined(separator: " › ")
  }

  private func describe(_ namespace: AnyWorkID) -> String {
    if let presentation = namespace.value(as: PresentationNamespace.self) {
      return "\(presentation.slot) #\(presentation.number)"
    }
    return "\(namespace)"
  }
}

/// Everything a store guards with its lock: a pure state machine; the store acts on what it
/// returns after unlocking.
@usableFromInline
struct StoreCore<State: Sendable, Action: Sendable>: RuntimeCore {
  @usableFromInline var state: State
  @usableFromInline var phase = Phase.running
  @usableFromInline var queue = DrainQueue<Message<State, Action>>()
  @usableFromInline var subscribers: [Subscriber<State>] = []
  /// The observers of single rows, one ``RowObservers`` per identified list.
  @usableFromInline var rowObservers: RowObserverTable = [:]
  @usableFromInline var runs = RunRegistry<AnyWorkID>()
  @usableFromInline var idleWaiters = Waiters()
  /// The state's `==`, once an observer wants only changes: the store compares each new state
  /// with the old one once, rather than every observer comparing with what it saw last.
  @usableFromInline var isEqual = Comparison<State>()

  @usableFromInline init(state: State) { self.state = state }

  /// Takes the next message and applies it, or ends the drain when none is left (and hands
  /// over the `idle()` callers to resume), or, with `handOver`, leaves what is queued to the
  /// store's task. Returns what happened, the action, the state to
  /// deliver and the observers to notify.
  @inlinable
  mutating func next(
    update: (inout State, Action) -> Void, recordsStates: Bool, handOver: Bool,
    idleWaiters waiters: inout [CheckedContinuation<Void, Never>],
    records: inout [Processed<State, Action>], claim: borrowing DrainClaim
  ) -> (StepKind, Action?, State, [Subscriber<State>], changed: Bool) {
    guard !phase.isStopped, queue.hasNext else {
      waiters = endDrain(claim)
      return (.drained, nil, state, [], false)
    }
    // The drain stays claimed, for the store's task.
    if handOver { return (.handedOver, nil, state, [], false) }
    let message = queue.next()
    switch message {
    case .guarded(let action, let condition):
      guard condition(state) else { return (.skipped, nil, state, [], false) }
      return apply(
        action, isFromEffect: false, update: update, recordsStates: recordsStates,
        records: &records)
    case .action(let action, let origin):
      return apply(
        action, isFromEffect: origin != nil, update: update, recordsStates: recordsStates,
        records: &records)
    case .subscribe(let subscriber):
      subscribers.append(subscriber)
      return (.subscribed, nil, state, [subscriber], true)
    }
  }

  /// Applies a queued action (recording its states for the monitor when asked).
  @inlinable
  mutating func apply(
    _ action: Action, isFromEffect: Bool, update: (inout State, Action) -> Void,
    recordsStates: Bool, records: inout [Processed<State, Action>]
  ) -> (StepKind, Action?, State, [Subscriber<State>], changed: Bool) {
    if recordsStates {
      let before = state
      update(&state, action)
      records.append(
        Processed(action: action, isFromEffect: isFromEffect, before: before, after: state))
      return (.applied, action, state, subscribers, !(isEqual.isSet && isEqual(before, state)))
    }
    let changed = apply(action, update: update)
    return (.applied, action, state, subscribers, changed)
  }

  /// What `dispatch` does with an action, under the lock: applies it in place when nothing
  /// watches (or queues it behind a drain, or drops it after stop) and is `done`; applies it and
  /// claims the drain when only observers watch; or leaves it to `handle` when an effect or a
  /// monitor must see it.
  @inlinable @inline(__always)
  mutating func accept(
    _ action: Action, isPlain: Bool, update: (inout State, Action) -> Void,
    claim: borrowing DrainClaim
  ) -> Acceptance {
    if phase.isStopped { return .done }
    // `handle` queues it behind a drain in progress too.
    guard isPlain else { return .mustHandle }
    if claim.isHeld {
      // The drainer may let go meanwhile (without the lock): then this caller drains.
      _ = queue.append(.action(action, from: nil), claiming: claim, mayDrain: false)
      return claim.claim() ? .mustDrain : .done
    }
    if subscribers.isEmpty {
      update(&state, action)
      return .done
    }
    claim.hold(lookingAgain: !idleWaiters.isEmpty)
    return .applied(changed: apply(action, update: update))
  }

  /// Applies `action`; returns whether the state changed, or `true` when no observer asks.
  @inlinable
  mutating func apply(_ action: Action, update: (inout State, Action) -> Void) -> Bool {
    guard isEqual.isSet else {
      update(&state, action)
      return true
    }
    let before = state
    update(&state, action)
    return !isEqual(before, state)
  }

  /// Removes the run under `key`, and drops what it queued that was not handled yet. Returns
  /// its task to cancel.
  @inlinable
  mutating func remove(_ key: RunKey<AnyWorkID>) -> Task<Void, Never>? {
    runs.remove(key).flatMap { queue.drop($0) }
  }

  /// Files a new run under `key` (see ``RunRegistry/start(_:isFinite:replacing:)``) and drops
  /// what the run it supersedes queued. Returns the run and the superseded task to cancel;
  /// `nil` after stop or when a running one is kept.
  @inlinable
  mutating func start(_ key: RunKey<AnyWorkID>?, isFinite: Bool, replacing: Bool) -> (
    run: Run<AnyWorkID>, superseded: Task<Void, Never>?
  )? {
    guard !phase.isStopped,
      let (run, superseded) = runs.start(key, isFinite: isFinite, replacing: replacing)
    else { return nil }
    return (run, superseded.flatMap { queue.drop($0) })
  }

  /// Whether `run` may still deliver actions.
  @inlinable
  func isLive(_ run: Run<AnyWorkID>) -> Bool { !phase.isStopped && runs.isLive(run) }

  /// Stops for good: what to cancel and resume once unlocked (nothing if already stopped).
  @inlinable
  mutating func stop() -> Shutdown {
    guard !phase.isStopped else { return Shutdown() }
    subscribers = []
    return Shutdown(phase: &phase, queue: &queue, runs: &runs, waiters: &idleWaiters)
  }

}
