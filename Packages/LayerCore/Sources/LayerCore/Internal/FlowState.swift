/// What waits in a flow's queue.
@usableFromInline
enum Message<Event: Sendable>: Sendable {
  /// Phase two of starting: every machine's first `process(nil)`.
  case start
  /// An event for the reducer, from work (`run`) or from `process` and outside (`nil`).
  case event(Event, from: RunToken?)
  /// Inputs a redirected machine sends back to itself.
  case job(@Sendable () -> Void, from: RunToken?)
}

/// A piece of running work.
struct Running: Sendable {
  var token: Int
  var task: Task<Void, Never>?
  var isFinite: Bool
}

/// Everything a flow guards with its lock.
@usableFromInline
struct FlowState<C: Core> {
  @usableFromInline var state: C.State?
  @usableFromInline var isStarted = false
  @usableFromInline var isStopped = false
  @usableFromInline var isDraining = false
  @usableFromInline var queue: [Message<C.Event>] = []
  @usableFromInline var head = 0
  var runs: [RunKey: Running] = [:]
  var nextToken = 1
  @usableFromInline var finiteRuns = 0
  @usableFromInline var idleWaiters: [CheckedContinuation<Void, Never>] = []

  init() {}

  /// Nothing queued or handled, and no finite work (R7's idle).
  @inlinable
  var isIdle: Bool { isStopped || (!isDraining && finiteRuns == 0) }

  /// Reduces `event`; returns the new state if the reducer set one.
  ///
  /// A mutating method, so the state is borrowed for the reducer, not copied.
  @inlinable
  mutating func reduce(_ core: C, _ event: C.Event) -> C.State? {
    switch core.reduce(state: state, event: event) {
    case .skip: return nil
    case .set(let next):
      state = next
      return next
    }
  }

  /// Appends `message`; returns whether the caller must drain.
  @inlinable
  mutating func enqueue(_ message: Message<C.Event>) -> Bool {
    guard !isStopped else { return false }
    queue.append(message)
    guard isStarted, !isDraining else { return false }
    isDraining = true
    return true
  }

  /// Whether what `run` sends still arrives (`nil`: not work, live until stopped).
  @usableFromInline
  func isLive(_ run: RunToken?) -> Bool {
    guard !isStopped else { return false }
    guard let run else { return true }
    return runs[run.key]?.token == run.token
  }

  /// Ends a drain; returns the waiters to resume.
  @inlinable
  mutating func endDrain() -> [CheckedContinuation<Void, Never>] {
    if !queue.isEmpty { queue.removeAll(keepingCapacity: !isStopped) }
    head = 0
    isDraining = false
    return takeWaiters()
  }

  /// The idle waiters, if the flow is idle now.
  @inlinable
  mutating func takeWaiters() -> [CheckedContinuation<Void, Never>] {
    guard isIdle, !idleWaiters.isEmpty else { return [] }
    defer { idleWaiters = [] }
    return idleWaiters
  }

  /// Registers new work, replacing (and returning, to cancel) what ran under its key.
  mutating func register(machine: Int, id: WorkID?, isFinite: Bool) -> (
    run: RunToken, superseded: Task<Void, Never>?
  )? {
    guard !isStopped else { return nil }
    let token = nextToken
    nextToken += 1
    let key = id.map { RunKey.id(machine: machine, $0) } ?? .anonymous(token)
    let superseded = remove(key)
    runs[key] = Running(token: token, task: nil, isFinite: isFinite)
    if isFinite { finiteRuns += 1 }
    return (RunToken(key: key, token: token), superseded)
  }

  /// Attaches `task` to `run`; returns `false` if the run is already over.
  mutating func attach(_ task: Task<Void, Never>, to run: RunToken) -> Bool {
    guard isLive(run) else { return false }
    runs[run.key]?.task = task
    return true
  }

  /// Removes the work under `key` and what it queued; returns its task to cancel.
  mutating func remove(_ key: RunKey) -> Task<Void, Never>? {
    guard let running = runs.removeValue(forKey: key) else { return nil }
    if running.isFinite { finiteRuns -= 1 }
    let removed = RunToken(key: key, token: running.token)
    if head < queue.count {
      let kept = queue[head...].filter { message in
        switch message {
        case .event(_, let run?), .job(_, let run?): run != removed
        default: true
        }
      }
      queue.removeSubrange(head...)
      queue.append(contentsOf: kept)
    }
    return running.task
  }

  /// Ends `run` when its operation returns; returns the waiters to resume.
  mutating func finish(_ run: RunToken) -> [CheckedContinuation<Void, Never>] {
    guard isLive(run), let ended = runs.removeValue(forKey: run.key) else { return [] }
    if ended.isFinite { finiteRuns -= 1 }
    return takeWaiters()
  }

  /// Stops for good: returns the tasks to cancel and the waiters to resume.
  mutating func stop() -> (tasks: [Task<Void, Never>], waiters: [CheckedContinuation<Void, Never>])
  {
    guard !isStopped else { return ([], []) }
    isStopped = true
    queue = []
    head = 0
    finiteRuns = 0
    let tasks = runs.values.compactMap(\.task)
    runs = [:]
    defer { idleWaiters = [] }
    return (tasks, idleWaiters)
  }
}
