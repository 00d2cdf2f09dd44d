/// A handler's work id, type-erased.
@usableFromInline
struct WorkID: Hashable, @unchecked Sendable {
  // @unchecked: made only from `some Hashable & Sendable`, so the erased value is Sendable.
  let base: AnyHashable

  init(_ id: some Hashable & Sendable) { base = AnyHashable(id) }
}

/// How the program files running work: by IO slot and id, or by token when it has no id.
@usableFromInline
enum RunKey: Hashable, Sendable {
  case id(slot: Int, WorkID)
  case anonymous(Int)
}

/// One run of work: its key and the token telling it from earlier runs under that key.
@usableFromInline
struct RunToken: Hashable, Sendable {
  let key: RunKey
  let token: Int
}

/// What a handler's context talks to; the program, type-erased.
@usableFromInline
protocol IOHost: AnyObject, Sendable {
  /// Queues `input` (of the IO type at `slot`) if `run` is live; returns whether it was.
  func receive(_ input: any Sendable, slot: Int, from run: RunToken?) -> Bool
  func startRun(
    slot: Int, id: WorkID?, lifetime: IOLifetime,
    operation: @escaping @Sendable (RunToken) async -> Void)
  func cancelRun(slot: Int, id: WorkID)
  func isLive(_ run: RunToken) -> Bool
}

/// A running piece of work.
struct Running: Sendable {
  var token: Int
  var task: Task<Void, Never>?
  var isFinite: Bool
}

/// What waits in the program's queue.
@usableFromInline
enum Message<Input: Sendable>: Sendable {
  /// `start()`: hand the initial outputs to the handlers.
  case start
  case input(Input, from: RunToken?)
}

/// Everything a program guards with its lock.
@usableFromInline
struct Core<State: PureApp, Input: Sendable> where State.Input == Input {
  @usableFromInline var state: State
  @usableFromInline var isStarted = false
  @usableFromInline var isStopped = false
  @usableFromInline var isDraining = false
  @usableFromInline var queue: [Message<Input>] = []
  @usableFromInline var head = 0
  var runs: [RunKey: Running] = [:]
  var nextToken = 1
  var finiteRuns = 0
  var idleWaiters: [CheckedContinuation<Void, Never>] = []
  var endWaiters: [CheckedContinuation<Void, Never>] = []

  @usableFromInline init(state: State) { self.state = state }

  /// Runs the app's step for `input`: the next state replaces this one.
  ///
  /// A mutating method, so the state is borrowed for the step, not copied: the app's own copy
  /// into its result is the only one.
  @inlinable
  mutating func step(_ input: Input) -> State.Outputs {
    let (next, outputs) = state.run(input: input)
    state = next
    return outputs
  }

  /// Nothing queued or handled, and no finite work (R7's idle).
  var isIdle: Bool { isStopped || (!isDraining && finiteRuns == 0) }

  /// Nothing queued or handled and no work at all: the program is over.
  var isOver: Bool { isStopped || (isStarted && !isDraining && runs.isEmpty) }

  /// Appends `message`; returns whether the caller must drain.
  @inlinable
  mutating func enqueue(_ message: Message<Input>) -> Bool {
    guard !isStopped else { return false }
    queue.append(message)
    guard isStarted, !isDraining else { return false }
    isDraining = true
    return true
  }

  /// Ends a drain; returns the waiters to resume.
  @usableFromInline
  mutating func endDrain() -> [CheckedContinuation<Void, Never>] {
    if !queue.isEmpty { queue.removeAll(keepingCapacity: !isStopped) }
    head = 0
    isDraining = false
    return takeWaiters()
  }

  /// The idle and end waiters whose condition holds now.
  mutating func takeWaiters() -> [CheckedContinuation<Void, Never>] {
    var ready: [CheckedContinuation<Void, Never>] = []
    if isIdle, !idleWaiters.isEmpty { swap(&ready, &idleWaiters) }
    if isOver, !endWaiters.isEmpty {
      ready += endWaiters
      endWaiters = []
    }
    return ready
  }

  /// Registers new work under `key`, replacing (and returning, to cancel) what ran under it.
  mutating func register(slot: Int, id: WorkID?, isFinite: Bool) -> (
    run: RunToken, superseded: Task<Void, Never>?
  )? {
    guard !isStopped else { return nil }
    let token = nextToken
    nextToken += 1
    let key = id.map { RunKey.id(slot: slot, $0) } ?? .anonymous(token)
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

  /// Removes the work under `key` and the inputs it queued; returns its task to cancel.
  mutating func remove(_ key: RunKey) -> Task<Void, Never>? {
    guard let running = runs.removeValue(forKey: key) else { return nil }
    if running.isFinite { finiteRuns -= 1 }
    let removed = RunToken(key: key, token: running.token)
    if head < queue.count {
      let kept = queue[head...].filter {
        if case .input(_, let from?) = $0 { from != removed } else { true }
      }
      queue.removeSubrange(head...)
      queue.append(contentsOf: kept)
    }
    return running.task
  }

  func isLive(_ run: RunToken) -> Bool {
    !isStopped && runs[run.key]?.token == run.token
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
    defer {
      idleWaiters = []
      endWaiters = []
    }
    return (tasks, idleWaiters + endWaiters)
  }
}
