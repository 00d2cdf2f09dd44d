/// How the loop files a running effect: by its id, or by its token when it has none.
@usableFromInline
enum RunKey<ID: Hashable & Sendable>: Hashable, Sendable {
  case id(ID)
  case anonymous(Int)
}

/// One run of an effect: its key and the token that tells it from earlier runs under that key.
@usableFromInline
struct Run<ID: Hashable & Sendable>: Hashable, Sendable {
  @usableFromInline let key: RunKey<ID>
  @usableFromInline let token: Int

  @inlinable init(key: RunKey<ID>, token: Int) {
    self.key = key
    self.token = token
  }
}

/// A running effect the loop owns.
@usableFromInline
struct RunningEffect: Sendable {
  @usableFromInline var token: Int
  @usableFromInline var task: Task<Void, Never>?
  /// Whether the loop waits for it to be idle: true until its handler returns a stream.
  @usableFromInline var isFinite: Bool

  @inlinable init(token: Int, task: Task<Void, Never>?, isFinite: Bool) {
    self.token = token
    self.task = task
    self.isFinite = isFinite
  }
}

/// A state observer.
@usableFromInline
struct Observer<State>: Sendable {
  @usableFromInline let id: Int
  @usableFromInline let notify: @Sendable (State) -> Void

  @inlinable init(id: Int, notify: @escaping @Sendable (State) -> Void) {
    self.id = id
    self.notify = notify
  }
}

/// What waits in the loop's queue.
@usableFromInline
enum Message<State: Sendable, Event: Sendable, Effect: MUE.Effect>: Sendable {
  /// `start()`: apply the update's `first(state:)`.
  case start
  case event(Event)
  case result(Effect.Result, from: Run<Effect.ID>)
  case subscribe(Observer<State>)
}

/// What one message did, for the test harness: the input, the state after it, and the effects
/// it started and cancelled.
@usableFromInline
package struct Processed<State: Sendable, Event: Sendable, Effect: MUE.Effect>: Sendable {
  @usableFromInline
  package enum Input: Sendable {
    case first
    case event(Event)
    case result(Effect.Result)
  }

  @usableFromInline package var input: Input
  @usableFromInline package var after: State
  @usableFromInline package var effects: [Effect]
  @usableFromInline package var cancellations: [Effect.ID]

  @inlinable
  init(input: Input, after: State, effects: [Effect], cancellations: [Effect.ID]) {
    self.input = input
    self.after = after
    self.effects = effects
    self.cancellations = cancellations
  }
}

/// An effect to start, and the run it starts as.
@usableFromInline
struct Launch<Effect: MUE.Effect> {
  @usableFromInline let effect: Effect
  @usableFromInline let run: Run<Effect.ID>

  @inlinable init(effect: Effect, run: Run<Effect.ID>) {
    self.effect = effect
    self.run = run
  }
}

/// What the loop does after unlocking: notify, cancel, start.
@usableFromInline
struct Step<State: Sendable, Effect: MUE.Effect> {
  @usableFromInline var notifies = false
  @usableFromInline var state: State
  @usableFromInline var observers: [Observer<State>]
  @usableFromInline var cancelled: [Task<Void, Never>] = []
  @usableFromInline var started: [Launch<Effect>] = []

  @inlinable init(state: State, observers: [Observer<State>]) {
    self.state = state
    self.observers = observers
  }
}

/// Everything a loop guards with its lock: a state machine the loop acts on after unlocking.
@usableFromInline
struct LoopCore<State: Equatable & Sendable, Event: Sendable, Effect: MUE.Effect> {
  @usableFromInline var state: State
  @usableFromInline var isStarted = false
  @usableFromInline var isStopped = false
  @usableFromInline var isDraining = false
  @usableFromInline var observers: [Observer<State>] = []
  @usableFromInline var queue: [Message<State, Event, Effect>] = []
  @usableFromInline var head = 0
  @usableFromInline var running: [RunKey<Effect.ID>: RunningEffect] = [:]
  @usableFromInline var nextToken = 1
  @usableFromInline var finiteEffects = 0
  @usableFromInline var idleWaiters: [CheckedContinuation<Void, Never>] = []

  @inlinable init(state: State) { self.state = state }

  /// Whether nothing is queued or handled and no finite effect runs.
  @usableFromInline var isIdle: Bool { isStopped || (!isDraining && finiteEffects == 0) }

  /// Appends `message`; returns whether the caller must drain the queue.
  @inlinable
  mutating func enqueue(_ message: Message<State, Event, Effect>) -> Bool {
    guard !isStopped else { return false }
    queue.append(message)
    guard !isDraining else { return false }
    isDraining = true
    return true
  }

  /// Whether the message at the head can be handled now: anything after start, only
  /// subscriptions before it (events wait for `start()`).
  @inlinable
  var hasNext: Bool {
    guard !isStopped, head < queue.count else { return false }
    if isStarted { return true }
    if case .subscribe = queue[head] { return true }
    return false
  }

  /// Applies what an update decided: the new state, cancellations, then new runs.
  @inlinable
  mutating func apply(_ result: UpdateResult<State, Effect>) -> Step<State, Effect> {
    var notifies = false
    if let next = result.state, next != state {
      state = next
      notifies = true
    }
    var step = Step<State, Effect>(state: state, observers: notifies ? observers : [])
    step.notifies = notifies
    for id in result.cancellations {
      if let task = remove(.id(id)) { step.cancelled.append(task) }
    }
    for effect in result.effects {
      let token = nextToken
      nextToken += 1
      let key: RunKey<Effect.ID> = effect.id.map { .id($0) } ?? .anonymous(token)
      if let task = remove(key) { step.cancelled.append(task) }
      running[key] = RunningEffect(token: token, task: nil, isFinite: true)
      finiteEffects += 1
      step.started.append(Launch(effect: effect, run: Run(key: key, token: token)))
    }
    return step
  }

  /// Ends a drain whose queue is empty (or whose loop stopped); returns the `idle()` callers.
  @inlinable
  mutating func endDrain() -> [CheckedContinuation<Void, Never>] {
    if head >= queue.count {
      if !queue.isEmpty { queue.removeAll(keepingCapacity: !isStopped) }
    } else {
      queue.removeSubrange(..<head)  // events sent before start wait for it
    }
    head = 0
    isDraining = false
    return takeIdleWaiters()
  }

  /// The `idle()` callers to resume, if the loop is idle now.
  @inlinable
  mutating func takeIdleWaiters() -> [CheckedContinuation<Void, Never>] {
    guard isIdle, !idleWaiters.isEmpty else { return [] }
    defer { idleWaiters = [] }
    return idleWaiters
  }

  /// Removes the run under `key` and whatever results it queued; returns its task to cancel.
  @usableFromInline
  mutating func remove(_ key: RunKey<Effect.ID>) -> Task<Void, Never>? {
    guard let run = running.removeValue(forKey: key) else { return nil }
    if run.isFinite { finiteEffects -= 1 }
    let removed = Run(key: key, token: run.token)
    if head < queue.count {
      let kept = queue[head...].filter {
        if case .result(_, let from) = $0 { from != removed } else { true }
      }
      queue.removeSubrange(head...)
      queue.append(contentsOf: kept)
    }
    return run.task
  }

  /// Whether `run` may still deliver results.
  @usableFromInline
  func isLive(_ run: Run<Effect.ID>) -> Bool {
    !isStopped && running[run.key]?.token == run.token
  }

  /// Attaches `task` to `run`; returns `false` if the run is already over.
  @usableFromInline
  mutating func attach(_ task: Task<Void, Never>, to run: Run<Effect.ID>) -> Bool {
    guard isLive(run) else { return false }
    running[run.key]?.task = task
    return true
  }

  /// Marks `run` long-lived: its handler returned a stream. Returns the `idle()` callers.
  @usableFromInline
  mutating func becomeLongLived(_ run: Run<Effect.ID>) -> [CheckedContinuation<Void, Never>] {
    guard isLive(run), running[run.key]?.isFinite == true else { return [] }
    running[run.key]?.isFinite = false
    finiteEffects -= 1
    return takeIdleWaiters()
  }

  /// Ends `run` when its handler and stream are done. Returns the `idle()` callers.
  @usableFromInline
  mutating func finish(_ run: Run<Effect.ID>) -> [CheckedContinuation<Void, Never>] {
    guard isLive(run), let ended = running.removeValue(forKey: run.key) else { return [] }
    if ended.isFinite { finiteEffects -= 1 }
    return takeIdleWaiters()
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
    let tasks = running.values.compactMap(\.task)
    running = [:]
    defer { idleWaiters = [] }
    return (tasks, idleWaiters)
  }
}
