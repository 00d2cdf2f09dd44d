/// Which effect run an action came from: the effect's key and the token of that run.
@usableFromInline
struct Origin: Sendable, Hashable {
  @usableFromInline let key: EffectKey
  @usableFromInline let token: Int

  @usableFromInline init(key: EffectKey, token: Int) {
    self.key = key
    self.token = token
  }
}

/// How the store files a running effect: by the user's id, or by its token when it has none.
@usableFromInline
enum EffectKey: Sendable, Hashable {
  case id(EffectID)
  case anonymous(Int)
}

/// A user's effect id, type-erased.
@usableFromInline
struct EffectID: Hashable, @unchecked Sendable {
  // @unchecked: built only from `some Hashable & Sendable` (see `init`), so the erased value is
  // Sendable; `AnyHashable` just cannot say so.
  let base: AnyHashable

  @usableFromInline init(_ id: some Hashable & Sendable) { base = AnyHashable(id) }
}

/// A subscriber to state changes.
@usableFromInline
struct Observer<State>: Sendable {
  @usableFromInline let id: Int
  @usableFromInline let notify: @Sendable (State) -> Void
  /// Whether it is called only when the state changed (its current value always).
  @usableFromInline let onlyOnChange: Bool

  @usableFromInline
  init(id: Int, onlyOnChange: Bool, notify: @escaping @Sendable (State) -> Void) {
    self.id = id
    self.onlyOnChange = onlyOnChange
    self.notify = notify
  }
}

/// What waits in the store's queue.
@usableFromInline
enum Message<State: Sendable, Action: Sendable>: Sendable {
  case action(Action, from: Origin?)
  case subscribe(Observer<State>)
}

/// What one step of the queue did.
@usableFromInline
enum StepKind: Sendable {
  /// An action was applied: notify the observers, then run the effect.
  case applied
  /// An observer subscribed: give it the state.
  case subscribed
  /// The queue is empty.
  case drained
}

/// What `Store.dispatch` must do after ``Core/accept(_:isPlain:update:)``.
@usableFromInline
enum Acceptance {
  /// Nothing more: the action was applied, queued or dropped.
  case done
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

  @usableFromInline
  package init(action: Action, isFromEffect: Bool, before: State, after: State) {
    self.action = action
    self.isFromEffect = isFromEffect
    self.before = before
    self.after = after
  }
}

/// An effect run the store owns.
@usableFromInline
struct RunningEffect: Sendable {
  @usableFromInline var token: Int
  @usableFromInline var task: Task<Void, Never>?
  @usableFromInline var isFinite: Bool
}

/// Everything a store guards with its lock: a pure state machine; the store acts on what it
/// returns after unlocking.
@usableFromInline
struct Core<State: Sendable, Action: Sendable> {
  @usableFromInline var state: State
  @usableFromInline var isDraining = false
  @usableFromInline var isStopped = false
  @usableFromInline var observers: [Observer<State>] = []
  @usableFromInline var queue: [Message<State, Action>] = []
  @usableFromInline var head = 0
  @usableFromInline var effects: [EffectKey: RunningEffect] = [:]
  @usableFromInline var nextToken = 1
  @usableFromInline var finiteEffects = 0
  @usableFromInline var idleWaiters: [CheckedContinuation<Void, Never>] = []
  /// The state's `==`, once an observer wants only changes: the store compares each new state
  /// with the old one once, rather than every observer comparing with what it saw last.
  @usableFromInline var isEqual: (@Sendable (State, State) -> Bool)?

  @usableFromInline init(state: State) { self.state = state }

  /// Whether nothing is queued or being handled and no finite effect runs.
  @usableFromInline var isIdle: Bool { isStopped || (!isDraining && finiteEffects == 0) }

  /// Appends `message`, and returns whether the caller must drain the queue.
  @inlinable
  mutating func enqueue(_ message: Message<State, Action>) -> Bool {
    guard !isStopped else { return false }
    queue.append(message)
    guard !isDraining else { return false }
    isDraining = true
    return true
  }

  /// Takes the next message and applies it, or ends the drain when none is left (and hands
  /// over the `idle()` callers to resume). Returns what happened, the action, the state to
  /// deliver and the observers to notify.
  @inlinable
  mutating func next(
    update: (inout State, Action) -> Void, recordsStates: Bool,
    idleWaiters waiters: inout [CheckedContinuation<Void, Never>],
    records: inout [Processed<State, Action>]
  ) -> (StepKind, Action?, State, [Observer<State>], changed: Bool) {
    guard !isStopped, head < queue.count else {
      waiters = endDrain()
      return (.drained, nil, state, [], false)
    }
    let message = queue[head]
    head += 1
    switch message {
    case .action(let action, let origin):
      if recordsStates {
        let before = state
        update(&state, action)
        records.append(
          Processed(action: action, isFromEffect: origin != nil, before: before, after: state))
        return (.applied, action, state, observers, !(isEqual?(before, state) ?? false))
      }
      let changed = apply(action, update: update)
      return (.applied, action, state, observers, changed)
    case .subscribe(let observer):
      observers.append(observer)
      return (.subscribed, nil, state, [observer], true)
    }
  }

  /// What `dispatch` does with an action, under the lock: applies it in place when nothing
  /// watches (or queues it behind a drain, or drops it after stop) and is `done`; applies it and
  /// claims the drain when only observers watch; or leaves it to `handle` when an effect or a
  /// monitor must see it.
  @inlinable @inline(__always)
  mutating func accept(
    _ action: Action, isPlain: Bool, update: (inout State, Action) -> Void
  ) -> Acceptance {
    if isStopped { return .done }
    if isDraining {
      queue.append(.action(action, from: nil))
      return .done
    }
    guard isPlain else { return .mustHandle }
    if observers.isEmpty {
      update(&state, action)
      return .done
    }
    isDraining = true
    return .applied(changed: apply(action, update: update))
  }

  /// Applies `action`; returns whether the state changed, or `true` when no observer asks.
  @inlinable
  mutating func apply(_ action: Action, update: (inout State, Action) -> Void) -> Bool {
    guard let isEqual else {
      update(&state, action)
      return true
    }
    let before = state
    update(&state, action)
    return !isEqual(before, state)
  }

  /// Ends a drain whose queue is empty (or whose store stopped), and returns the `idle()`
  /// callers to resume.
  @inlinable
  mutating func endDrain() -> [CheckedContinuation<Void, Never>] {
    if !queue.isEmpty { queue.removeAll(keepingCapacity: !isStopped) }
    head = 0
    isDraining = false
    return takeIdleWaiters()
  }

  /// The `idle()` callers to resume, if the store is idle now.
  @inlinable
  mutating func takeIdleWaiters() -> [CheckedContinuation<Void, Never>] {
    guard isIdle, !idleWaiters.isEmpty else { return [] }
    defer { idleWaiters = [] }
    return idleWaiters
  }

  /// Registers a new run under `key`, replacing (and returning, to cancel) the run it
  /// supersedes. Returns `nil` when the store is stopped, or when `keepsRunning` and a run
  /// under `key` is still going.
  @usableFromInline
  mutating func register(_ key: EffectKey?, isFinite: Bool, keepsRunning: Bool) -> (
    key: EffectKey, token: Int, superseded: Task<Void, Never>?
  )? {
    guard !isStopped else { return nil }
    if keepsRunning, let key, effects[key] != nil { return nil }
    let token = nextToken
    nextToken += 1
    let key = key ?? .anonymous(token)
    let superseded = remove(key)
    effects[key] = RunningEffect(token: token, task: nil, isFinite: isFinite)
    if isFinite { finiteEffects += 1 }
    return (key, token, superseded)
  }

  /// Attaches the task of run `token`; returns `false` if that run is already over.
  @usableFromInline
  mutating func attach(_ task: Task<Void, Never>, to key: EffectKey, token: Int) -> Bool {
    guard effects[key]?.token == token else { return false }
    effects[key]?.task = task
    return true
  }

  /// Removes the run under `key`, and drops what it queued that was not handled yet. Returns
  /// its task to cancel.
  @usableFromInline
  mutating func remove(_ key: EffectKey) -> Task<Void, Never>? {
    guard let running = effects.removeValue(forKey: key) else { return nil }
    if running.isFinite { finiteEffects -= 1 }
    let origin = Origin(key: key, token: running.token)
    if head < queue.count {
      let kept = queue[head...].filter {
        if case .action(_, let from?) = $0 { from != origin } else { true }
      }
      queue.removeSubrange(head...)
      queue.append(contentsOf: kept)
    }
    return running.task
  }

  /// Ends run `token` of `key` when its operation returns.
  @usableFromInline
  mutating func finish(_ key: EffectKey, token: Int) -> [CheckedContinuation<Void, Never>] {
    guard effects[key]?.token == token, let running = effects.removeValue(forKey: key) else {
      return []
    }
    if running.isFinite { finiteEffects -= 1 }
    return takeIdleWaiters()
  }

  /// Whether run `token` of `key` may still deliver actions.
  @usableFromInline
  func isLive(_ origin: Origin) -> Bool {
    !isStopped && effects[origin.key]?.token == origin.token
  }

  /// Stops for good: returns every task to cancel and every waiter to resume.
  @usableFromInline
  mutating func stop() -> (tasks: [Task<Void, Never>], waiters: [CheckedContinuation<Void, Never>])
  {
    guard !isStopped else { return ([], []) }
    isStopped = true
    observers = []
    queue = []
    head = 0
    finiteEffects = 0
    let tasks = effects.values.compactMap(\.task)
    effects = [:]
    defer { idleWaiters = [] }
    return (tasks, idleWaiters)
  }
}
