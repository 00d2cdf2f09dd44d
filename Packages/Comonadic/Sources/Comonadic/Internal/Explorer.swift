#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The runtime of a component: the single owner of its current space.
///
/// Inputs and effect results wait in one FIFO queue and are handled one at a time, each
/// against the space as it is when handled. Whoever finds the explorer idle handles the queue
/// (and what is queued meanwhile); everyone else only queues, so nothing nests and a chain of
/// inputs sent from observers never grows the stack.
@usableFromInline
final class Explorer<Environment: Sendable, W: Space & Sendable, Input: Sendable>: EffectHost,
  Sendable
where W.Action: Sendable, W.Focus: Sendable {
  @usableFromInline typealias Action = W.Action
  @usableFromInline typealias Step = Effect<Environment, W.Focus, W.Action>

  @usableFromInline let core: Lock<Core<Environment, W>>
  @usableFromInline let dispatcher: Dispatcher<Environment, W.Focus, W.Action, Input>
  let environment: Environment
  let executor: (any TaskExecutor)?

  init(
    space: W, environment: Environment,
    dispatcher: Dispatcher<Environment, W.Focus, W.Action, Input>,
    executor: (any TaskExecutor)?
  ) {
    core = Lock(Core(space: space))
    self.environment = environment
    self.dispatcher = dispatcher
    self.executor = executor
  }

  deinit { stop() }

  var space: W { core.withLock { $0.space } }

  /// Handles `input` now, or queues it behind the message being handled.
  ///
  /// The dispatcher is a pure function of the input, so the sender runs it before taking the
  /// lock: an input that is one action, with nobody watching, is applied in one critical
  /// section. What it makes of the input still takes its turn in the queue.
  @inlinable
  func send(_ input: Input) {
    let plan = dispatcher.plan(input)
    core.lock()
    let core = self.core.value
    if core.pointee.isStopped { return self.core.unlock() }
    if core.pointee.isDraining {
      core.pointee.queue.append(.plan(plan))
      return self.core.unlock()
    }
    if case .action(let action) = plan, core.pointee.observers.isEmpty {
      core.pointee.space.select(action)
      return self.core.unlock()
    }
    core.pointee.isDraining = true
    self.core.unlock()
    execute(plan)
    drain()
  }

  @inlinable
  func execute(_ plan: Plan<Environment, W.Focus, W.Action>) {
    switch plan {
    case .none: break
    case .action(let action): _ = apply(action)
    case .steps(let steps): proceed(steps[...])
    case .all(let plans): for plan in plans { execute(plan) }
    }
  }

  /// Applies `action` to the space and tells the observers; `false` if stopped.
  @inlinable
  func apply(_ action: Action) -> Bool {
    core.lock()
    if core.value.pointee.isStopped {
      core.unlock()
      return false
    }
    if core.value.pointee.observers.isEmpty {
      core.value.pointee.space.select(action)
      core.unlock()
      return true
    }
    let changed = core.value.pointee.select(action)
    let space = core.value.pointee.space
    let observers = core.value.pointee.observers
    core.unlock()
    for observer in observers where changed || !observer.onlyOnChange { observer.notify(space) }
    return true
  }

  /// Runs `steps` in order until one must wait for asynchronous work; that work's result
  /// carries the rest.
  @usableFromInline
  func proceed(_ steps: ArraySlice<Step>) {
    var steps = steps
    while let step = steps.popFirst() {
      switch step.kind {
      case .action(let action):
        guard apply(action) else { return }
      case .perform(let body):
        guard let focus = core.withLock({ $0.isStopped ? nil : $0.space.focus }) else { return }
        body(environment, focus)
      case .task(let id, let whenRunning, let operation):
        return start(id, whenRunning: whenRunning, operation: operation, rest: steps)
      case .stream(let id, let operation):
        guard startStream(id, operation: operation) else { return }
      case .cancel(let id):
        let tasks = core.withLock { $0.remove(id) }
        for task in tasks { task.cancel() }
      case .read(let next):
        guard let focus = core.withLock({ $0.isStopped ? nil : $0.space.focus }) else { return }
        steps = next(focus)[...] + steps
      }
    }
  }

  /// Starts a task step, or queues it behind the run under its id.
  func start(
    _ id: EffectID?, whenRunning: WhenRunning,
    operation: @escaping @Sendable (Environment, W.Focus) async -> Action,
    rest: ArraySlice<Step>
  ) {
    let started = core.withLock { core -> (token: Int, W.Focus, [Task<Void, Never>])? in
      guard !core.isStopped else { return nil }
      let focus = core.space.focus
      if whenRunning == .enqueue, let id, core.isRunning(id) {
        core.waiting[id, default: []].append(
          Waiting(operation: operation, focus: focus, rest: rest))
        return nil
      }
      let (token, superseded) = core.register(id, isFinite: true, replacing: true)
      return (token, focus, superseded)
    }
    guard let (token, focus, superseded) = started else { return }
    for task in superseded { task.cancel() }
    launch(token, focus: focus, operation: operation, rest: rest)
  }

  func launch(
    _ token: Int, focus: W.Focus,
    operation: @escaping @Sendable (Environment, W.Focus) async -> Action,
    rest: ArraySlice<Step>
  ) {
    let environment = environment
    let task = Task(executorPreference: executor) { [weak self] in
      // A run cancelled before its task started (by a later step, or stop) does nothing.
      guard self?.isLive(token) ?? false else { return }
      let action = await operation(environment, focus)
      self?.finish(token, with: action, rest: rest)
    }
    if !core.withLock({ $0.attach(task, to: token) }) { task.cancel() }
  }

  /// Queues the result of run `token`, unless the run is over. The run stays registered until
  /// its result is handled, so a run that supersedes it meanwhile still drops the result.
  func finish(_ token: Int, with action: Action, rest: ArraySlice<Step>) {
    let mustDrain = core.withLock { core in
      core.runs[token] == nil ? false : core.enqueue(.result(action, token: token, rest: rest))
    }
    if mustDrain { drain() }
  }

  func startStream(
    _ id: EffectID?,
    operation: @escaping @Sendable (Environment, W.Focus, Send<Action>) async -> Void
  ) -> Bool {
    let started = core.withLock { core -> (Int, W.Focus, [Task<Void, Never>])? in
      guard !core.isStopped else { return nil }
      let (token, superseded) = core.register(id, isFinite: false, replacing: true)
      return (token, core.space.focus, superseded)
    }
    guard let (token, focus, superseded) = started else { return false }
    for task in superseded { task.cancel() }
    let send = Send(host: self, token: token)
    let environment = environment
    let task = Task(executorPreference: executor) { [weak self] in
      guard send.isActive else { return }
      await operation(environment, focus, send)
      self?.core.withLock { $0.end(token: token) }
    }
    if !core.withLock({ $0.attach(task, to: token) }) { task.cancel() }
    return true
  }

  func deliver(_ action: Action, from token: Int) {
    let mustDrain = core.withLock { core in
      core.runs[token] == nil ? false : core.enqueue(.sent(action, token: token))
    }
    if mustDrain { drain() }
  }

  func isLive(_ token: Int) -> Bool {
    core.withLock { !$0.isStopped && $0.runs[token] != nil }
  }

  /// Handles the queue until it is empty. Only the caller that claimed the drain calls this.
  @inlinable
  func drain() {
    while true {
      core.lock()
      let core = self.core.value
      guard let message = core.pointee.next() else {
        let waiters = core.pointee.endDrain()
        self.core.unlock()
        for waiter in waiters { waiter.resume() }
        return
      }
      self.core.unlock()
      handle(message)
    }
  }

  @usableFromInline
  func handle(_ message: Message<Environment, W>) {
    switch message {
    case .plan(let plan):
      execute(plan)
    case .result(let action, let token, let rest):
      let (isLive, next) = core.withLock { $0.complete(token) }
      if isLive, apply(action) { proceed(rest) }
      // After the steps that follow this result (a log line, say): the next run under the id
      // starts once this run's workflow has gone as far as it can.
      if let (token, waiting) = next {
        launch(token, focus: waiting.focus, operation: waiting.operation, rest: waiting.rest)
      }
    case .sent(let action, _):
      _ = apply(action)
    case .subscribe(let observer, let initial):
      guard
        let space = core.withLock({ core -> W? in
          guard !core.isStopped else { return nil }
          core.observers.append(observer)
          return core.space
        })
      else { return }
      if initial { observer.notify(space) }
    }
  }

  /// Adds an observer of the space, in turn with the queue.
  func observe(
    initial: Bool, onlyOnChange isEqual: (@Sendable (W.Focus, W.Focus) -> Bool)?,
    _ notify: @escaping @Sendable (W) -> Void
  ) -> Subscription {
    let (id, mustDrain) = core.withLock { core in
      core.nextObserverID += 1
      let observer = Observer(
        id: core.nextObserverID, onlyOnChange: isEqual != nil, notify: notify)
      if let isEqual, core.isEqual == nil { core.isEqual = isEqual }
      return (observer.id, core.enqueue(.subscribe(observer, initial: initial)))
    }
    if mustDrain { drain() }
    return Subscription { [weak self] in
      self?.core.withLock { core in core.observers.removeAll { $0.id == id } }
    }
  }

  func stop() {
    let (tasks, waiters) = core.withLock { $0.stop() }
    for task in tasks { task.cancel() }
    for waiter in waiters { waiter.resume() }
  }

  func idle() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let isIdle = core.withLock { core -> Bool in
        if core.isIdle { return true }
        core.idleWaiters.append(continuation)
        return false
      }
      if isIdle { continuation.resume() }
    }
  }
}

/// A handle to stop observing a component.
public final class Subscription: Sendable {
  private let onCancel: Lock<(@Sendable () -> Void)?>

  init(_ onCancel: @escaping @Sendable () -> Void) { self.onCancel = Lock(onCancel) }

  /// Stops the observer from being called; calling it again does nothing.
  public func cancel() {
    onCancel.withLock { $0.take() }?()
  }
}
