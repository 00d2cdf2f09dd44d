/// A subscriber to the space: a view observer or an effect hook.
@usableFromInline
struct Observer<Value>: Sendable {
  @usableFromInline let id: Int
  @usableFromInline let notify: @Sendable (Value) -> Void
  /// Whether it is called only when the focus changed (its current value always).
  @usableFromInline let onlyOnChange: Bool

  @usableFromInline
  init(id: Int, onlyOnChange: Bool, notify: @escaping @Sendable (Value) -> Void) {
    self.id = id
    self.onlyOnChange = onlyOnChange
    self.notify = notify
  }
}

/// What waits in the explorer's queue.
@usableFromInline
enum Message<Environment: Sendable, W: Space & Sendable>: Sendable
where W.Action: Sendable, W.Focus: Sendable {
  /// What the dispatcher made of an input, which the sender worked out before queueing it.
  case plan(Plan<Environment, W.Focus, W.Action>)
  /// An effect's action, and the steps of its workflow that follow it.
  case result(W.Action, token: Int, rest: ArraySlice<Effect<Environment, W.Focus, W.Action>>)
  /// An action a stream sent.
  case sent(W.Action, token: Int)
  case subscribe(Observer<W>, initial: Bool)
}

/// Work an explorer started and owns.
@usableFromInline
struct Run: Sendable {
  @usableFromInline var id: EffectID?
  @usableFromInline var task: Task<Void, Never>?
  /// Whether ``StoreComponent/idle()`` waits for it (tasks do, streams do not).
  @usableFromInline var isFinite: Bool
}

/// A task that waits for the run under its id to finish (``WhenRunning/enqueue``).
@usableFromInline
struct Waiting<Environment: Sendable, Focus: Sendable, Action: Sendable>: Sendable {
  var operation: @Sendable (Environment, Focus) async -> Action
  var focus: Focus
  var rest: ArraySlice<Effect<Environment, Focus, Action>>
}

/// Everything an explorer guards with its lock: the space it owns and its queue, observers and
/// runs. A plain state machine; the explorer acts on what it returns after unlocking.
@usableFromInline
struct Core<Environment: Sendable, W: Space & Sendable>
where W.Action: Sendable, W.Focus: Sendable {
  @usableFromInline typealias Step = Effect<Environment, W.Focus, W.Action>

  @usableFromInline var space: W
  @usableFromInline var isDraining = false
  @usableFromInline var isStopped = false
  @usableFromInline var observers: [Observer<W>] = []
  @usableFromInline var queue: [Message<Environment, W>] = []
  @usableFromInline var head = 0
  @usableFromInline var runs: [Int: Run] = [:]
  @usableFromInline var waiting: [EffectID: [Waiting<Environment, W.Focus, W.Action>]] = [:]
  @usableFromInline var nextToken = 1
  @usableFromInline var nextObserverID = 0
  @usableFromInline var finiteRuns = 0
  @usableFromInline var idleWaiters: [CheckedContinuation<Void, Never>] = []
  /// The focus's `==`, once an observer wants only changes.
  @usableFromInline var isEqual: (@Sendable (W.Focus, W.Focus) -> Bool)?

  @usableFromInline init(space: W) { self.space = space }

  /// Whether nothing is queued or being handled and no finite run is going.
  @usableFromInline var isIdle: Bool { isStopped || (!isDraining && finiteRuns == 0) }

  /// Appends `message`, and returns whether the caller must drain the queue.
  @inlinable
  mutating func enqueue(_ message: Message<Environment, W>) -> Bool {
    guard !isStopped else { return false }
    queue.append(message)
    guard !isDraining else { return false }
    isDraining = true
    return true
  }

  /// Applies `action` to the space; returns whether the focus changed (`true` when no
  /// observer asks).
  @inlinable
  mutating func select(_ action: W.Action) -> Bool {
    guard let isEqual else {
      space.select(action)
      return true
    }
    let before = space.focus
    space.select(action)
    return !isEqual(before, space.focus)
  }

  /// Ends a drain whose queue is empty (or whose explorer stopped), and returns the `idle()`
  /// callers to resume.
  @inlinable
  mutating func endDrain() -> [CheckedContinuation<Void, Never>] {
    if !queue.isEmpty { queue.removeAll(keepingCapacity: !isStopped) }
    head = 0
    isDraining = false
    return takeIdleWaiters()
  }

  /// The `idle()` callers to resume, if the explorer is idle now.
  @inlinable
  mutating func takeIdleWaiters() -> [CheckedContinuation<Void, Never>] {
    guard isIdle, !idleWaiters.isEmpty else { return [] }
    defer { idleWaiters = [] }
    return idleWaiters
  }

  /// Whether a task under `id` is going (or its result still queued). Streams do not count:
  /// they never complete, so nothing could wait for them.
  func isRunning(_ id: EffectID) -> Bool {
    runs.values.contains { $0.id == id && $0.isFinite }
  }

  /// Registers a new run; returns its token and the tasks of the runs it replaces.
  mutating func register(_ id: EffectID?, isFinite: Bool, replacing: Bool) -> (
    token: Int, superseded: [Task<Void, Never>]
  ) {
    var superseded: [Task<Void, Never>] = []
    if replacing, let id { superseded = remove(id) }
    let token = nextToken
    nextToken += 1
    runs[token] = Run(id: id, task: nil, isFinite: isFinite)
    if isFinite { finiteRuns += 1 }
    return (token, superseded)
  }

  /// Attaches the task of run `token`; returns `false` if that run is already over.
  mutating func attach(_ task: Task<Void, Never>, to token: Int) -> Bool {
    guard runs[token] != nil else { return false }
    runs[token]?.task = task
    return true
  }

  /// Removes every run under `id` and what waits for it, and drops their queued results.
  /// Returns their tasks to cancel.
  mutating func remove(_ id: EffectID) -> [Task<Void, Never>] {
    waiting[id] = nil
    let tokens = runs.compactMap { $0.value.id == id ? $0.key : nil }
    return tokens.compactMap { remove(token: $0) }
  }

  /// Removes run `token` and drops its queued results; returns its task to cancel.
  mutating func remove(token: Int) -> Task<Void, Never>? {
    guard let run = runs.removeValue(forKey: token) else { return nil }
    if run.isFinite { finiteRuns -= 1 }
    if head < queue.count {
      let kept = queue[head...].filter {
        switch $0 {
        case .result(_, let from, _), .sent(_, let from): from != token
        case .plan, .subscribe: true
        }
      }
      queue.removeSubrange(head...)
      queue.append(contentsOf: kept)
    }
    return run.task
  }

  /// Ends run `token` whose result is being handled; returns whether it was still live, and
  /// the next run waiting under its id, registered, if any.
  mutating func complete(_ token: Int) -> (
    isLive: Bool, next: (token: Int, waiting: Waiting<Environment, W.Focus, W.Action>)?
  ) {
    guard let run = runs.removeValue(forKey: token) else { return (false, nil) }
    if run.isFinite { finiteRuns -= 1 }
    guard let id = run.id, var queued = waiting[id], !queued.isEmpty else { return (true, nil) }
    let next = queued.removeFirst()
    waiting[id] = queued.isEmpty ? nil : queued
    return (true, (register(id, isFinite: true, replacing: false).token, next))
  }

  /// Ends stream `token`, which returned on its own: what it sent stays queued.
  mutating func end(token: Int) {
    if let run = runs.removeValue(forKey: token), run.isFinite { finiteRuns -= 1 }
  }

  /// Takes the next queued message, dropping the handled ones now and then so a drain that
  /// never ends (a fast stream, observers that keep sending) does not keep them all.
  @inlinable
  mutating func next() -> Message<Environment, W>? {
    guard !isStopped, head < queue.count else { return nil }
    let message = queue[head]
    head += 1
    if head >= 1024, head * 2 >= queue.count {
      queue.removeFirst(head)
      head = 0
    }
    return message
  }

  /// Stops for good: returns every task to cancel and every waiter to resume.
  mutating func stop() -> (tasks: [Task<Void, Never>], waiters: [CheckedContinuation<Void, Never>])
  {
    guard !isStopped else { return ([], []) }
    isStopped = true
    observers = []
    queue = []
    head = 0
    finiteRuns = 0
    waiting = [:]
    let tasks = runs.values.compactMap(\.task)
    runs = [:]
    defer { idleWaiters = [] }
    return (tasks, idleWaiters)
  }
}
