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

  @usableFromInline let core: Lock<ExplorerCore<Environment, W>>
  /// Who handles the queue; see ``DrainClaim``.
  @usableFromInline let claim = DrainClaim()
  @usableFromInline let dispatcher: Dispatcher<Environment, W.Focus, W.Action, Input>
  @usableFromInline let environment: Environment
  @usableFromInline let executor: (any TaskExecutor)?
  /// How an effect's ``Send`` delivers here: a function made where this explorer's types are
  /// known, so a result is handled by specialized code rather than through the explorer's
  /// generic conformance to `EffectHost`.
  @usableFromInline let calls = ExplorerCalls<W.Action, Step>()
  /// Where observer calls, effect bodies and work begin: `stop()` closes it and waits for what
  /// began on other threads (R6).
  @usableFromInline let gate = StopGate()
  /// The value observers' `==` and the value they were handed last: kept, without a lock, by
  /// whoever holds the drain (``claim``), the only caller that handles messages and tells
  /// observers.
  @exclusivity(unchecked) @usableFromInline nonisolated(unsafe) var valueFan = ValueFan<W.Value>()
  /// The id of the value observers' place among the subscribers; observer ids start at 1.
  @inlinable static var valueFanID: Int { 0 }

  @inlinable
  init(
    space: W, environment: Environment,
    dispatcher: Dispatcher<Environment, W.Focus, W.Action, Input>,
    executor: (any TaskExecutor)?
  ) {
    core = Lock(ExplorerCore(space: space, watches: dispatcher.departures.map { $0.makeWatch() }))
    self.environment = environment
    self.dispatcher = dispatcher
    self.executor = executor
    calls.deliver = { [weak self] action, run in self?.deliver(action, from: run) }
    calls.deliverResult = { [weak self] run, action, rest in
      self?.deliverResult(action, from: run, rest: rest)
    }
  }

  // Stopped before its release (the usual end): nothing left to stop.
  deinit { if !gate.isStopped { stop() } }

  @inlinable var space: W { core.withLock { $0.space } }

  /// The focus now, copied out of the lock alone (not the rest of the space: a store's render
  /// function).
  @inlinable var focus: W.Focus { core.withLock { $0.space.withFocus { $0 } } }

  /// Handles `input` now, or queues it behind the message being handled.
  ///
  /// The dispatcher is a pure function of the input, so the sender runs it before taking the
  /// lock: an input that is one action, with nobody watching, is applied in one critical
  /// section. What it makes of the input still takes its turn in the queue.
  ///
  /// That case — one action, no observer, no child to watch, nobody draining — is all that is
  /// inlined where a component is sent to; everything else is ``send(_:locked:)``, called
  /// with the lock held.
  @inlinable @inline(__always)
  func send(_ input: Input) {
    let plan = dispatcher.plan(input)
    core.lock()
    let locked = core.value
    guard
      locked.pointee.subscribers.isEmpty, dispatcher.departures.isEmpty,
      !locked.pointee.phase.isStopped, !claim.isHeld
    else { return send(consume plan, locked: locked) }
    // Consumed, not matched on a copy: the action's function is moved out of the plan, not
    // retained for the match and released with the plan (nor in a `where` clause, which
    // keeps the plan whole for the cases after it).
    switch consume plan {
    case .action(let action):
      locked.pointee.space.select(consume action)
      core.unlock()
    case let plan:
      send(plan, locked: locked)
    }
  }

  /// The rest of ``send(_:)``: `plan` handled, or queued, under the lock the caller took on
  /// `locked`, which it releases.
  @inlinable @inline(never)
  func send(
    _ plan: consuming Plan<Environment, W.Focus, W.Action>,
    locked: UnsafeMutablePointer<ExplorerCore<Environment, W>>
  ) {
    if locked.pointee.phase.isStopped { return core.unlock() }
    if claim.isHeld {
      // The drainer may let go meanwhile (without the lock): then this caller drains.
      _ = locked.pointee.queue.append(.plan(consume plan), claiming: claim, mayDrain: false)
      let mustDrain = claim.claim()
      core.unlock()
      if mustDrain { drain() }
      return
    }
    switch consume plan {
    case .action(let action):
      if locked.pointee.subscribers.isEmpty, dispatcher.departures.isEmpty {
        locked.pointee.space.select(consume action)
        return core.unlock()
      }
      claim.hold(lookingAgain: !locked.pointee.idleWaiters.isEmpty)
      // Entered under the lock: a stop waits for this input's observers and effects (R6).
      if gate.enter() {
        // One action: applied in this critical section, not in one more.
        applyLocked(consume action, locked)
        gate.leave()
      } else {
        core.unlock()
      }
    case let plan:
      claim.hold(lookingAgain: !locked.pointee.idleWaiters.isEmpty)
      let entered = gate.enter()
      core.unlock()
      if entered {
        execute(plan)
        gate.leave()
      }
    }
    // Nothing queued meanwhile: the drain is given back without the lock.
    if !claim.release() { drain() }
  }

  @inlinable
  func execute(_ plan: Plan<Environment, W.Focus, W.Action>) {
    switch plan {
    case .none: break
    case .action(let action): _ = apply(action)
    case .steps(let steps): proceed(steps[...])
    }
  }

  /// Applies `action` to the space and tells the observers; `false` if stopped.
  @inlinable
  func apply(_ action: consuming Action) -> Bool {
    core.lock()
    let locked = core.value
    guard !locked.pointee.phase.isStopped else {
      core.unlock()
      return false
    }
    applyLocked(consume action, locked)
    return true
  }

  /// Applies `action` to `locked`, the core the caller locked (and found running), then unlocks:
  /// the work of the children the action removed is cancelled (R13) and the observers are told,
  /// outside the lock. With nobody watching, nothing is copied out of it for them.
  @inlinable
  func applyLocked(
    _ action: consuming Action, _ locked: UnsafeMutablePointer<ExplorerCore<Environment, W>>
  ) {
    let watchesChildren = !dispatcher.departures.isEmpty
    guard !locked.pointee.subscribers.isEmpty else {
      locked.pointee.space.select(consume action)
      guard watchesChildren else { return core.unlock() }
      let departed = locked.pointee.removeDeparted()
      core.unlock()
      departed.cancel()
      return
    }
    let changed = locked.pointee.select(consume action)
    if !watchesChildren, locked.pointee.subscribers.count == 1,
      locked.pointee.subscribers[0].id == Self.valueFanID
    {
      // Only observers of changed values: their list alone is copied out. The space is read
      // where it is kept, not copied: only the drain's holder, this caller, changes it.
      let observers = locked.pointee.valueObservers
      core.unlock()
      if !gate.isStopped { notifyOfValue(observers, Self.space(in: locked)) }
      return
    }
    let departed = watchesChildren ? locked.pointee.removeDeparted() : DepartedTasks()
    if locked.pointee.subscribers.count == 1, locked.pointee.subscribers[0].id == Self.valueFanID {
      // As above, with the departed children's work to cancel.
      let observers = locked.pointee.valueObservers
      core.unlock()
      departed.cancel()
      if !gate.isStopped { notifyOfValue(observers, Self.space(in: locked)) }
      return
    }
    let observers = locked.pointee.subscribers
    let valueObservers = locked.pointee.valueObservers
    core.unlock()
    departed.cancel()
    // The space is read where it is kept, not copied out of the lock: only the drain's holder,
    // this caller, changes it, and what observers send waits in the queue meanwhile.
    notify(observers, valueObservers, Self.space(in: locked), changed: changed)
  }

  /// Calls `observers` with the space at `space` (and `valueObservers` with its value, where
  /// they sit among them); none once stopped (a stop from inside an observer). Only the drain's
  /// holder calls it.
  @inlinable
  func notify(
    _ observers: [Subscriber<W>], _ valueObservers: [Subscriber<W.Value>],
    _ space: UnsafePointer<W>, changed: Bool
  ) {
    observers.withUnsafeBufferPointer { observers in
      for index in observers.indices
      where (changed || !observers[index].onlyOnChange) && !gate.isStopped {
        if observers[index].id == Self.valueFanID {
          notifyOfValue(valueObservers, space)
        } else {
          Lender.lend(at: space, observers[index].notify)
        }
      }
    }
  }

  /// Calls `observers` with the value of the space at `space`, extracted once for all of them,
  /// unless it is the last one's equal. Only the drain's holder calls it, which is who keeps
  /// ``valueFan``.
  @inlinable @inline(__always)
  func notifyOfValue(_ observers: [Subscriber<W.Value>], _ space: UnsafePointer<W>) {
    // Every value observer left: nothing to extract or compare.
    guard !observers.isEmpty, valueFan.isSame.isSet else { return }
    let value = Self.value(at: space)
    // Moved out, not copied: one retain and release fewer per round.
    if let last = valueFan.last.take(), valueFan.isSame(last, value) {
      valueFan.last = consume last
      return
    }
    observers.notifyEach(of: value) { gate.isStopped }
    // Kept after the calls, moved rather than copied before them: nobody else reads it meanwhile.
    valueFan.last = consume value
  }

  /// Where `core` keeps the space: read through a plain address, so that ThreadSanitizer sees
  /// reads of the space's bytes only, never an access to the whole core (see
  /// ``ExplorerCore/space``).
  @inlinable @inline(__always)
  static func space(in core: UnsafeMutablePointer<ExplorerCore<Environment, W>>) -> UnsafePointer<W>
  {
    UnsafePointer(
      (UnsafeMutableRawPointer(core) + spaceOffset).assumingMemoryBound(to: W.self))
  }

  /// The value of the space at `space`, extracted where the space is kept. Called on the
  /// pointee (`space.pointee.extract()`), it is copied first, everything it holds retained and
  /// released again (the whole state, for each round of notifications); lent (``Lender``), its
  /// parts are lent to `extract`.
  @inlinable @inline(__always)
  static func value(at space: UnsafePointer<W>) -> W.Value {
    Lender.lend(at: space) { $0.extract() }
  }

  /// `body` called with the focus of the space at `space`, lent where it is kept rather than
  /// copied out of it (see ``value(at:)``).
  @inlinable @inline(__always)
  static func withFocus<Result>(
    at space: UnsafePointer<W>, _ body: (W.Focus) throws -> Result
  ) rethrows -> Result {
    try Lender.lend(at: space) { try $0.withFocus(body) }
  }

  /// The space's offset in the core.
  @inlinable static var spaceOffset: Int {
    MemoryLayout<ExplorerCore<Environment, W>>.offset(of: \.space)!
  }

  /// Runs `steps` in order until one must wait for asynchronous work; that work's result
  /// carries the rest.
  @inlinable
  func proceed(_ steps: ArraySlice<Step>) {
    var steps = steps
    // The one step a read made, taken before the rest without making a new slice of them.
    var first: Step?
    while let step = first.take() ?? steps.popFirst() {
      switch step.kind {
      case .action(let action):
        guard apply(action) else { return }
      case .perform(let body):
        // Read where the space is kept, without the lock (see `read`).
        guard !gate.isStopped else { return }
        Self.withFocus(at: Self.space(in: core.value)) { body(environment, $0) }
      case .call(let body):
        // Nothing to copy out of the lock, so none taken: the gate says whether it stopped.
        guard !gate.isStopped else { return }
        body(environment)
      case .task(let id, let whenRunning, let operation):
        return start(id, whenRunning: whenRunning, operation: operation, rest: steps)
      case .stream(let id, let operation):
        guard startStream(id, operation: operation) else { return }
      case .cancel(let id):
        core.withLock { $0.remove(id) }?.cancel()
      case .read(let next):
        // Only the drain's holder changes the space, and that is who runs steps: the space is
        // read where it is kept, without the lock and without copying the state out of it.
        guard !gate.isStopped else { return }
        let following = Self.withFocus(at: Self.space(in: core.value), next)
        // Most reads add nothing (no log line, no save) or one step: no new slice then; nor
        // when the read was the last step (a load after a push): what it made is all there is.
        if following.count == 1 {
          first = following[0]
        } else if !following.isEmpty {
          steps = steps.isEmpty ? following[...] : following[...] + steps
        }
      case .parallel(let workflows):
        // Each goes as far as it can now (up to its first task, which carries its rest).
        for workflow in workflows { proceed(workflow[...]) }
      }
    }
  }

  /// Starts a task step, or queues it behind the run under its id.
  // Inlinable, as the task it starts: unspecialized, each use of the core's generic types
  // looks their metadata up.
  @inlinable
  func start(
    _ id: AnyWorkID?, whenRunning: WhenRunning,
    operation: Work<Environment, W.Focus, Action>,
    rest: ArraySlice<Step>
  ) {
    // Set by the locked section, rather than returned in a tuple of optionals, each copy of
    // which retains and releases everything in it.
    var focus: W.Focus?
    var superseded: Task<Void, Never>?
    var departed = DepartedTasks()
    let run = core.withLock { core -> Run<AnyWorkID>? in
      guard !core.phase.isStopped else { return nil }
      // Copied out only for work that reads it.
      if operation.seesFocus { focus = core.space.focus }
      if whenRunning == .enqueue, let id, core.runs.isRunning(id, finiteOnly: true) {
        core.waiting[id, default: WaitingLine()].append(
          Waiting(operation: operation, focus: focus, rest: rest))
        return nil
      }
      guard let started = core.start(id, isFinite: true) else { return nil }
      superseded = started.superseded
      departed = started.departed
      return started.run
    }
    guard let run else { return }
    superseded?.cancel()
    departed.cancel()
    launch(run, focus: focus, operation: operation, rest: rest)
  }

  @inlinable
  func launch(
    _ run: Run<AnyWorkID>, focus: W.Focus?,
    operation: Work<Environment, W.Focus, Action>,
    rest: ArraySlice<Step>
  ) {
    let (environment, gate, executor, deliverResult) = (
      environment, gate, executor, calls.deliverResult
    )
    // The runtime's gate is the work's: `WhileRunning` work never begins after stop.
    let task = gate.startTask(on: executor) { [weak self] in
      // Work a later step superseded before its task began still runs, cancelled: the
      // environment sees the call and its cancellation (R5), whenever the task starts. Only a
      // stopped (or released) runtime starts nothing more (R6).
      guard self?.hasStopped == false else { return }
      let action: Action
      switch operation {
      // The state is there for work that sees it (`start`).
      case .seeing(let operation): action = await operation(environment, focus!)
      case .blind(let operation): action = await operation(environment)
      }
      // Through the function made where the explorer's types are known (specialized).
      deliverResult?(run, action, rest)
    }
    if !core.withLock({ $0.runs.attach(task, to: run) }) { task.cancel() }
  }

  /// Queues the result of `run`, unless the run is over. The run stays registered until
  /// its result is handled, so a run that supersedes it meanwhile still drops the result.
  @inlinable
  func deliverResult(_ action: Action, from run: Run<AnyWorkID>, rest: ArraySlice<Step>) {
    let mustDrain = core.withLock { core in
      core.isLive(run) ? core.enqueue(.result(action, from: run, rest: rest), claim) : false
    }
    if mustDrain { drain() }
  }

  @inlinable
  func startStream(
    _ id: AnyWorkID?,
    operation: @escaping @Sendable (Environment, W.Focus, Send<Action>) async -> Void
  ) -> Bool {
    // Set by the locked section rather than returned in a tuple of optionals (see `start`).
    var focus: W.Focus?
    var superseded: Task<Void, Never>?
    var departed = DepartedTasks()
    let run = core.withLock { core -> Run<AnyWorkID>? in
      guard let started = core.start(id, isFinite: false) else { return nil }
      focus = core.space.focus
      superseded = started.superseded
      departed = started.departed
      return started.run
    }
    guard let run, let focus else { return false }
    superseded?.cancel()
    departed.cancel()
    let send = Send(host: self, deliver: calls.deliver, run: run)
    let (environment, gate, executor) = (environment, gate, executor)
    let task = gate.startTask(on: executor) { [weak self] in
      // As for a task step: superseded before it began, it still runs, cancelled (R5).
      guard self?.hasStopped == false else { return }
      await operation(environment, focus, send)
      self?.core.withLock { core in
        // A stream that returned on its own: what it sent stays queued.
        if core.isLive(run) { _ = core.runs.finish(run) }
      }
    }
    if !core.withLock({ $0.runs.attach(task, to: run) }) { task.cancel() }
    return true
  }

  @inlinable
  func deliver(_ action: Action, from run: Run<AnyWorkID>) {
    let mustDrain = core.withLock { core in
      core.isLive(run) ? core.enqueue(.sent(action, from: run), claim) : false
    }
    if mustDrain { drain() }
  }

  @usableFromInline
  func isLive(_ run: Run<AnyWorkID>) -> Bool { core.withLock { $0.isLive(run) } }

  /// Whether the runtime was stopped.
  @inlinable var hasStopped: Bool { core.withLock { $0.phase.isStopped } }

  /// Goes on with the drain on a task of the explorer's own, on its executor.
  @usableFromInline
  func handOverDrain() {
    Task(executorPreference: executor) { [weak self] in self?.drain() }
  }

  /// Handles the queue until it is empty. Only the caller that claimed the drain calls this.
  ///
  /// A caller handles at most `messagesPerTurn` messages; then a task of the explorer's own
  /// goes on with the rest, so `send` returns however fast actions arrive (R6, progress).
  @inlinable
  func drain() {
    var handled = 0
    while true {
      core.lock()
      let locked = core.value
      guard !locked.pointee.phase.isStopped, locked.pointee.queue.hasNext else {
        let waiters = locked.pointee.endDrain(claim)
        core.unlock()
        waiters.resumeAll()
        return
      }
      if handled == messagesPerTurn {
        // The drain stays claimed, for the explorer's task.
        core.unlock()
        return handOverDrain()
      }
      handled += 1
      let message = locked.pointee.queue.next()
      // Entered under the lock: a stop waits for this message's observers and effects (R6).
      let entered = gate.enter()
      core.unlock()
      guard entered else { continue }
      handle(message)
      gate.leave()
    }
  }

  @inlinable
  func handle(_ message: Message<Environment, W>) {
    switch message {
    case .plan(let plan):
      execute(plan)
    case .result(let action, let run, let rest):
      let (isLive, next) = core.withLock { $0.finish(run) }
      if isLive, apply(action) { proceed(rest) }
      // After the steps that follow this result (a log line, say): the next run under the id
      // starts once this run's workflow has gone as far as it can.
      if let (run, waiting) = next {
        launch(run, focus: waiting.focus, operation: waiting.operation, rest: waiting.rest)
      }
    case .sent(let action, _):
      _ = apply(action)
    case .join(let body):
      guard let space = core.withLock({ $0.phase.isStopped ? nil : $0.space }) else { return }
      body(space)
    case .subscribe(let observer, let initial):
      guard
        let space = core.withLock({ core -> W? in
          guard !core.phase.isStopped else { return nil }
          core.subscribers.append(observer)
          return core.space
        })
      else { return }
      if initial, !gate.isStopped {
        observer.notify(space)
      }
    }
  }

  /// Adds an observer of the space, in turn with the queue.
  @inlinable
  func observe(
    initial: Bool, onlyOnChange isEqual: (@Sendable (W.Focus, W.Focus) -> Bool)?,
    _ notify: @escaping @Sendable (W) -> Void
  ) -> Subscription {
    let (id, mustDrain) = core.withLock { core in
      core.nextObserverID += 1
      let observer = Subscriber(
        id: core.nextObserverID, onlyOnChange: isEqual != nil, notify: notify)
      if let isEqual, !core.isEqual.isSet { core.isEqual = Comparison(isEqual) }
      return (observer.id, core.enqueue(.subscribe(observer, initial: initial), claim))
    }
    if mustDrain { drain() }
    return Subscription { [weak self] in
      self?.core.withLock { core in core.subscribers.removeAll { $0.id == id } }
    }
  }

  /// Runs `body` in turn with the queue, with the space then; nothing after stop.
  @inlinable
  func inTurn(_ body: @escaping @Sendable (W) -> Void) {
    if core.withLock({ $0.enqueue(.join(body), claim) }) { drain() }
  }

  /// Adds an observer at once; only from work run ``inTurn(_:)``.
  @inlinable
  func attach(
    onlyOnChange isEqual: (@Sendable (W.Focus, W.Focus) -> Bool)?,
    _ notify: @escaping @Sendable (W) -> Void
  ) {
    core.withLock { core in
      guard !core.phase.isStopped else { return }
      core.nextObserverID += 1
      core.subscribers.append(
        Subscriber(id: core.nextObserverID, onlyOnChange: isEqual != nil, notify: notify))
      if let isEqual, !core.isEqual.isSet { core.isEqual = Comparison(isEqual) }
    }
  }

  /// Calls `observer` with the space's value in turn with the queue, then after every action
  /// that changed it (`isSame` tells): Bow Arch's view observers. The value is extracted once
  /// per action for all such observers and compared with the last one, by the drain's holder,
  /// with no lock of their own: a change of one value costs one copy of their list.
  @inlinable
  func observeValues(
    isSame: @escaping @Sendable (W.Value, W.Value) -> Bool,
    _ observer: @escaping @Sendable (W.Value) -> Void
  ) -> Subscription {
    let id = core.withLock { core in
      core.nextObserverID += 1
      return core.nextObserverID
    }
    // Run by the explorer itself, which is alive while it runs it.
    inTurn { [unowned(unsafe) self] space in
      let value = space.extract()
      let isFirst = core.withLock { core -> Bool? in
        guard !core.phase.isStopped else { return nil }
        let isFirst = core.valueObservers.isEmpty
        core.valueObservers.append(Subscriber(id: id, notify: observer))
        if !core.subscribers.contains(where: { $0.id == Self.valueFanID }) {
          // Where the first joined, the value observers are told among the others.
          core.subscribers.append(Subscriber(id: Self.valueFanID, notify: { _ in }))
        }
        return isFirst
      }
      guard let isFirst else { return }
      // The comparison starts from the value the first observer gets (again after all left).
      if isFirst { valueFan = ValueFan(isSame: isSame, last: value) }
      observer(value)
    }
    return Subscription { [weak self] in
      self?.core.withLock { core in core.valueObservers.removeAll { $0.id == id } }
    }
  }

  /// Stops for good; returns once what began on other threads has ended (R6).
  // Inlinable: unspecialized, each use of the core's generic types looks their metadata up.
  @inlinable
  func stop() {
    core.withLock { $0.stop() }.complete()
    gate.stop()
  }

  func idle() async {
    await core.waitUntilIdle(
      drain: claim, isIdle: { $0.isIdle(draining: false) }, waiters: { $1(&$0.idleWaiters) })
  }
}

/// A handle to stop observing a component.
public final class Subscription: Sendable {
  private let onCancel: Lock<(@Sendable () -> Void)?>

  @usableFromInline
  init(_ onCancel: @escaping @Sendable () -> Void) { self.onCancel = Lock(onCancel) }

  /// Stops the observer from being called; calling it again does nothing.
  public func cancel() {
    onCancel.withLock { $0.take() }?()
  }
}

/// Functions an explorer's effects call it through, made where its types are known.
///
/// `@unchecked Sendable`, and exclusivity unchecked (checked, every read of a class's variable
/// costs ~100 instructions): written once, in the explorer's initializer, before it is shared.
@usableFromInline
final class ExplorerCalls<Action: Sendable, Step: Sendable>: @unchecked Sendable {
  @exclusivity(unchecked) @usableFromInline var deliver:
    (@Sendable (Action, Run<AnyWorkID>) -> Void)?
  @exclusivity(unchecked) @usableFromInline var deliverResult:
    (@Sendable (Run<AnyWorkID>, Action, ArraySlice<Step>) -> Void)?

  @inlinable init() {}
}

/// What the value observers of an explorer compare each value with.
@usableFromInline
struct ValueFan<Value> {
  /// The values' `==`, given by the first observer; not set until one joined.
  @usableFromInline var isSame = Comparison<Value>()
  /// The value handed out last.
  @usableFromInline var last: Value?

  /// No value observer yet.
  @inlinable init() {}

  /// The first value observer joined, given `last`.
  @inlinable init(isSame: @escaping @Sendable (Value, Value) -> Bool, last: Value) {
    self.isSame = Comparison(isSame)
    self.last = last
  }
}
