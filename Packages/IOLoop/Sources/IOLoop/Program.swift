/// A running program: a pure app, one handler per IO type, and the loop between them.
///
/// ```swift
/// let main = Main(app: Counter.self, handlers: ViewHandler(render: show), StorageHandler(storage))
/// main.start()                                // the initial outputs go to the handlers
/// main.send(IOInput(.increment, nil))          // an input from outside, typed by position
/// ```
///
/// Inputs are handled one at a time in arrival order, from any thread: an input sent while
/// another is handled — by a handler, or another thread — is queued, never nested, and whoever
/// finds the program idle handles the queue. Each input runs the app's pure `run(input:)` under
/// the program's lock, then hands the step's outputs to the handlers outside it: IO types in the
/// order the app lists them, each list in order, one `handle` at a time.
///
/// Work a handler starts runs as tasks the program owns: ``stop()`` (or releasing the program)
/// cancels them and drops whatever they send afterwards, and work with an id is replaced by newer
/// work with the same id. ``run()`` implements SimpleFunctional's promise: it returns the final
/// state once no input is queued, no output is being handled and no work is running.
public final class Main<App: PureApp, each Handler: IOHandler>: Sendable
where
  App.Input == IOInput<repeat (each Handler).IO>,
  App.Outputs == IOOutputs<repeat (each Handler).IO>
{
  /// Everything the program does; this object is only the user's reference to it.
  @usableFromInline let runtime: MainRuntime<App, repeat each Handler>

  /// Creates a program for a ``PureApp`` and its handlers, in the order of its IO types.
  /// Nothing is handled before ``start()``.
  ///
  /// - Parameters:
  ///   - app: The app; its `start()` gives the initial state and outputs (called now: it is
  ///     pure).
  ///   - handlers: One handler per IO type.
  ///   - executor: Where handlers' work runs; `nil` for the global concurrent executor.
  @inlinable
  public convenience init(
    app: App.Type, handlers: repeat each Handler, executor: (any TaskExecutor)? = nil
  ) {
    let (state, outputs) = App.start()
    self.init(state: state, outputs: outputs, handlers: repeat each handlers, executor: executor)
  }

  /// Creates a program that starts from a given state instead of the app's `start()`: a
  /// restored session, or a test's fixture.
  ///
  /// - Parameters:
  ///   - state: The initial state.
  ///   - outputs: What ``start()`` hands to the handlers.
  ///   - handlers: One handler per IO type.
  ///   - executor: Where handlers' work runs; `nil` for the global concurrent executor.
  @inlinable
  public init(
    state: App, outputs: App.Outputs = .none, handlers: repeat each Handler,
    executor: (any TaskExecutor)? = nil
  ) {
    runtime = MainRuntime(
      state: state, outputs: outputs, handlers: repeat each handlers, executor: executor)
  }

  /// Released, the program stops (R6): queued inputs are dropped, not handled; work is
  /// cancelled; work handing in an input when the last reference goes does not keep it running.
  deinit { if !runtime.gate.isStopped { runtime.stop() } }

  /// The state now.
  public var state: App { runtime.state }

  /// Hands the initial outputs to the handlers, then handles the inputs sent so far. Calling it
  /// again, or after ``stop()``, does nothing.
  public func start() { runtime.start() }

  /// Starts the program and returns its final state when it is over: no input queued, no
  /// output being handled, no work running (a timer keeps it alive until cancelled). The
  /// program is stopped when this returns.
  public func run() async -> App { await runtime.run() }

  /// Sends an input from outside the handlers (a test, a driver, a command line).
  ///
  /// Safe from any thread or task. Inputs sent before ``start()`` wait for it; after ``stop()``
  /// they are ignored.
  ///
  /// - Complexity: O(1) plus the app's step and its outputs' handling.
  @inlinable
  public func send(_ input: App.Input) { runtime.send(input) }

  /// Sends `input`, an input of the IO type `io`, from outside the handlers: like
  /// ``send(_:)`` with an ``IOInput`` whose element for `io` is set, without building one (the
  /// cheaper way for a screen's intents).
  ///
  /// ```swift
  /// main.send(.increment, from: ScreenIO<CounterView, CounterIntent>.self)
  /// ```
  ///
  /// - Precondition: `io` is one of the program's IO types (if it is listed twice, the first).
  @inlinable
  public func send<IO: IOType>(_ input: IO.Input, from io: IO.Type) {
    _ = runtime.submit(slot: slot(of: io), payload: IOPayload(input))
  }

  /// The index of `io` among the program's IO types.
  @usableFromInline
  func slot<IO: IOType>(of io: IO.Type) -> Int {
    var slot = -1
    var index = 0
    repeat noteSlot((each Handler).IO.self, of: io, slot: &slot, index: &index)
    precondition(slot >= 0, "\(IO.self) is not an IO type of this program")
    return slot
  }

  /// A sender of inputs of the IO type `io`, to keep and call later from any thread (a screen's
  /// buttons, a command line): typed by the IO type instead of a position in an ``IOInput``.
  /// Like a handler's ``IOContext/sender``, it holds the program weakly, and counts the inputs
  /// it could not deliver once the program is stopped or released.
  ///
  /// ```swift
  /// let intents = main.sender(for: ScreenIO<CounterView, CounterIntent>.self)
  /// intents(.increment)  // as main.send(IOInput(.increment, nil, nil))
  /// ```
  ///
  /// - Precondition: `io` is one of the program's IO types (if it is listed twice, the first).
  public func sender<IO: IOType>(for io: IO.Type) -> IOInputSender<IO> {
    IOInputSender(
      route: IORoute(host: runtime.reference, slot: slot(of: io), embed: nil, scope: []))
  }

  /// Stops the program: running work is cancelled and what it sends later dropped, queued
  /// inputs are discarded, later inputs ignored.
  ///
  /// When `stop()` returns, nothing begins any more: no observer or handler is called, and work
  /// wrapped in ``WhileRunning`` (a save, a log line) never begins. An observer or handler call
  /// begun on another thread is waited for; called from inside one, `stop()` returns at once
  /// and nothing more is called once that call returns.
  @inlinable
  public func stop() { runtime.stop() }

  /// Returns when no input is queued or handled and no finite work runs. Work started with
  /// ``IOLifetime/untilCancelled`` (a timer) does not count. Returns at once after ``stop()``.
  public func idle() async { await runtime.idle() }

  /// Calls `observer` with `transform` of the state now, then after each step whose
  /// transformed state differs from the one before: how a screen, or one row of it, follows
  /// the program without a screen IO type.
  ///
  /// The current value is delivered in order with the queue (an observer added before
  /// ``start()`` gets it at start), so an observer never sees a state older than one it saw.
  /// Observers are called outside the lock, one at a time, after the step and before its
  /// outputs are handled; they may send inputs. Each step costs each observer one `transform`
  /// and one comparison.
  ///
  /// - Returns: A subscription; call ``Subscription/cancel()`` to stop observing.
  @inlinable
  @discardableResult
  public func observe<Value: Equatable & Sendable>(
    _ transform: @escaping @Sendable (App) -> Value,
    _ observer: @escaping @Sendable (Value) -> Void
  ) -> Subscription {
    subscribe(distinct(transform, observer))
  }

  /// Adds `notify` as a subscriber, in queue order.
  @usableFromInline
  func subscribe(_ notify: @escaping @Sendable (App) -> Void) -> Subscription {
    runtime.subscribe(notify)
  }

  /// Calls `observer` with row `id` of the identified list at `path` (`nil`: not in the list),
  /// then whenever that row changes: how a screen follows one row of a long list, such as one
  /// child program of a ``ProgramsHandler``.
  ///
  /// The observers of rows of one list share one subscriber, which looks up each observed row
  /// after a step and calls only the observers whose row changed: a step that changes one row
  /// of 10,000 costs the same with 20 rows observed as with one, and nothing for the rows
  /// nobody observes. Delivered in order with the queue, like ``observe(_:_:)``.
  ///
  /// ```swift
  /// main.observe(\.rows, id: 7) { row in render(row) }  // only when row 7 changes
  /// ```
  ///
  /// - Returns: A subscription; call ``Subscription/cancel()`` to stop observing.
  /// - Complexity: O(1) per step for each observed row, whatever the length of the list.
  @inlinable
  @discardableResult
  public func observe<ID: Hashable & Sendable, Row: Equatable & Sendable>(
    _ path: KeyPath<App, IdentifiedList<ID, Row>> & Sendable, id: ID,
    _ observer: @escaping @Sendable (Row?) -> Void
  ) -> Subscription {
    let runtime = self.runtime
    return Subscription(
      RowObserving.observe(
        path, id, observer, table: { body in runtime.core.withLock { body(&$0.rowObservers) } },
        subscribe: { runtime.subscribe($0).cancel }))
  }

  /// Calls `observer` with `transform` of row `id` of the identified list at `path` (`nil`: not
  /// in the list), then whenever that value changes; see ``observe(_:id:_:)``.
  @inlinable
  @discardableResult
  public func observe<
    ID: Hashable & Sendable, Row: Equatable & Sendable, Value: Equatable & Sendable
  >(
    _ path: KeyPath<App, IdentifiedList<ID, Row>> & Sendable, id: ID,
    _ transform: @escaping @Sendable (Row?) -> Value,
    _ observer: @escaping @Sendable (Value) -> Void
  ) -> Subscription {
    observe(path, id: id, distinct(transform, observer))
  }
}

/// The engine of a ``Main``: everything but the user's reference. Handlers' contexts, work
/// and subscriptions hold it weakly and deliver through it; when the last ``Main`` reference
/// goes, the program's `deinit` stops it, even while work is handing it an input (R6 release).
@usableFromInline
final class MainRuntime<App: PureApp, each Handler: IOHandler>: IOHost, Sendable
where
  App.Input == IOInput<repeat (each Handler).IO>,
  App.Outputs == IOOutputs<repeat (each Handler).IO>
{
  @usableFromInline let core: Lock<ProgramCore<App, App.Input>>
  /// Where the core keeps the state (``ProgramCore/state``): observers are lent it there,
  /// outside the lock, by the drain's holder, who alone changes it (under the lock); a copy
  /// would retain everything the state holds and release it again, for every step.
  @usableFromInline let stateOffset: Int
  /// Who handles the queue; see ``DrainClaim``.
  @usableFromInline let claim = DrainClaim()
  @usableFromInline let initialOutputs: App.Outputs
  /// The handlers, by IO type, as existentials: an output is handed to its handler through
  /// the handler's own `_handle`, compiled for its type, never through generic code over the
  /// pack.
  @usableFromInline let handlers: [any IOHandler]
  @usableFromInline let executor: (any TaskExecutor)?
  /// Where observer and handler calls begin: `stop()` closes it and waits for what began on
  /// other threads (R6).
  @usableFromInline let gate = StopGate()
  /// What handlers' contexts and work call, as functions made where the program's types are
  /// known: through the `IOHost` existential they would run as generic code, looking up type
  /// metadata on every input.
  @usableFromInline let entries: HostEntries
  /// This program, held weakly, for every route to it.
  @usableFromInline let reference = HostReference()

  /// Creates a program that starts from a given state instead of the app's `start()`: a
  /// restored session, or a test's fixture.
  ///
  /// - Parameters:
  ///   - state: The initial state.
  ///   - outputs: What ``start()`` hands to the handlers.
  ///   - handlers: One handler per IO type.
  ///   - executor: Where handlers' work runs; `nil` for the global concurrent executor.
  @inlinable
  init(
    state: App, outputs: App.Outputs, handlers: repeat each Handler,
    executor: (any TaskExecutor)?
  ) {
    entries = HostEntries(
      receive: { host, value, slot, run in
        unsafeDowncast(host, to: MainRuntime<App, repeat each Handler>.self).deliver(
          value, slot: slot, from: run)
      },
      startRun: { host, slot, id, lifetime, operation in
        unsafeDowncast(host, to: MainRuntime<App, repeat each Handler>.self).launch(
          slot: slot, id: id, lifetime: lifetime, operation: operation)
      },
      cancelRun: { host, slot, id in
        unsafeDowncast(host, to: MainRuntime<App, repeat each Handler>.self).cancel(
          slot: slot, id: id)
      },
      cancelAllRuns: { host, slot in
        unsafeDowncast(host, to: MainRuntime<App, repeat each Handler>.self).cancel(slot: slot)
      },
      cancelRuns: { host, slot, base, children in
        unsafeDowncast(host, to: MainRuntime<App, repeat each Handler>.self).cancel(
          slot: slot, base: base, children: children)
      },
      cancelChildRuns: { host, slot, base, child in
        unsafeDowncast(host, to: MainRuntime<App, repeat each Handler>.self).cancel(
          slot: slot, base: base, child: child)
      })
    core = Lock(ProgramCore(state: state))
    stateOffset = ProgramCore<App, App.Input>.stateOffset
    initialOutputs = outputs
    self.handlers = existentials(repeat each handlers)
    self.executor = executor
    reference.host = self
  }

  deinit {
    // Stopped before its release (the usual end): nothing left to stop. Asked of the gate, not
    // the core, whose generic type this code would look up.
    if gate.isStopped { return }
    core.withLock { $0.stop() }.complete()
    gate.stop()
  }

  /// The state now, copied under the lock. Read through the state's offset: compiled once for
  /// any app, code that reads a field of the core looks up the core's generic type.
  @inlinable
  var state: App {
    core.lock()
    let current = state(in: core.value).pointee
    core.unlock()
    return current
  }

  /// Hands the initial outputs to the handlers, then handles the inputs sent so far. Calling it
  /// again, or after ``stop()``, does nothing.
  func start() {
    let mustDrain = core.withLock { $0.phase.start(&$0.queue, with: .start, claiming: claim) }
    if mustDrain { drain() }
  }

  /// Starts the program and returns its final state when it is over: no input queued, no
  /// output being handled, no work running (a timer keeps it alive until cancelled). The
  /// program is stopped when this returns.
  func run() async -> App {
    start()
    await core.waitUntilIdle(
      drain: claim, isIdle: { $0.isOver(draining: false) }, waiters: { $1(&$0.endWaiters) })
    let final = state
    stop()
    return final
  }

  /// Sends an input from outside the handlers (a test, a driver, a command line).
  ///
  /// Safe from any thread or task. Inputs sent before ``start()`` wait for it; after ``stop()``
  /// they are ignored.
  ///
  /// - Complexity: O(1) plus the app's step and its outputs' handling.
  @inlinable
  func send(_ input: App.Input) { _ = submit(slot: input.slot, payload: input.payload) }

  /// Handles `payload`, the input of the IO type at `slot`, at once when the program is idle, or
  /// queues it. Returns whether it was taken (not after stop).
  @inlinable
  func submit(slot: Int, payload: consuming IOPayload) -> Bool {
    core.lock()
    let locked = core.value
    if locked.pointee.phase.isStopped {
      core.unlock()
      return false
    }
    if claim.isHeld || !locked.pointee.phase.isRunning {
      // The drainer may let go meanwhile (without the lock): then this caller drains.
      let mustDrain = locked.pointee.enqueue(.input(slot: slot, payload: payload, from: nil), claim)
      core.unlock()
      if mustDrain { drain() }
      return true
    }
    stepLocked(App.Input(slot: slot, payload: payload))
    return true
  }

  /// ``submit(slot:payload:)`` for an input from `run`: taken only while the run is live.
  ///
  /// Written out, not folded with ``submit(slot:payload:)`` into one function over an optional
  /// run: that one measured 422 -> 503 instructions per dispatch (the optional run's value
  /// witnesses) and copied a run's boxed input once more (one more allocation per tick of a
  /// nested stopwatch).
  @inlinable
  func submit(slot: Int, payload: consuming IOPayload, from run: Run<OwnedWorkID>) -> Bool {
    core.lock()
    let locked = core.value
    if !locked.pointee.isLive(run) {
      core.unlock()
      return false
    }
    if claim.isHeld || !locked.pointee.phase.isRunning {
      let mustDrain = locked.pointee.enqueue(.input(slot: slot, payload: payload, from: run), claim)
      core.unlock()
      if mustDrain { drain() }
      return true
    }
    stepLocked(App.Input(slot: slot, payload: payload))
    return true
  }

  /// Handles an input at once, called under the lock while the program runs and nobody drains:
  /// this caller claims the drain, with no queue in between. Unlocks.
  @inlinable
  func stepLocked(_ input: borrowing App.Input) {
    let locked = core.value
    let (outputs, changed) = locked.pointee.step(input)
    if outputs.isEmpty, locked.pointee.subscribers.isEmpty { return core.unlock() }
    // Observers or outputs: claim the drain, call them outside the lock, then hand over to
    // `drain` for whatever they or other threads sent meanwhile.
    claim.hold(lookingAgain: locked.pointee.hasWaiters)
    let observers = locked.pointee.subscribers
    // Entered under the lock: a stop waits for this step's observers and outputs (R6).
    let entered = gate.enter()
    core.unlock()
    if entered {
      notify(observers, at: state(in: locked), changed: changed)
      if !outputs.isEmpty, !gate.isStopped { handle(outputs) }
      gate.leave()
    }
    endDrain()
  }

  /// Ends the drain `send` claimed, unless something was queued meanwhile (or somebody waits):
  /// then it drains. No lock in the usual case.
  @inlinable @inline(__always)
  func endDrain() {
    if !claim.release() { drain() }
  }

  /// Stops the program: running work is cancelled and what it sends later dropped, queued
  /// inputs are discarded, later inputs ignored.
  ///
  /// When `stop()` returns, nothing begins any more: no observer or handler is called, and work
  /// wrapped in ``WhileRunning`` (a save, a log line) never begins. An observer or handler call
  /// begun on another thread is waited for; called from inside one, `stop()` returns at once
  /// and nothing more is called once that call returns.
  // Inlinable: unspecialized, each use of the core's generic types looks their metadata up.
  @inlinable
  func stop() {
    core.withLock { $0.stop() }.complete()
    gate.stop()
  }

  /// Calls `observers` with the state at `state` (those called only on change, if it
  /// `changed`) inside the gate's section, none once stopped. The state is lent where the core
  /// keeps it: only the drain's holder, the caller, changes it.
  @inlinable @inline(__always)
  func notify(_ observers: [Subscriber<App>], at state: UnsafePointer<App>, changed: Bool) {
    guard !observers.isEmpty else { return }
    Lender.lend(at: state) { state in
      observers.notifyEach(of: state, changed: changed) { gate.isStopped }
    }
  }

  /// Where `core` keeps the state: read through a plain address, so that ThreadSanitizer sees
  /// reads of the state's bytes only, never an access to the whole core.
  @inlinable @inline(__always)
  func state(in core: UnsafeMutablePointer<ProgramCore<App, App.Input>>) -> UnsafePointer<App> {
    UnsafePointer((UnsafeMutableRawPointer(core) + stateOffset).assumingMemoryBound(to: App.self))
  }

  /// Returns when no input is queued or handled and no finite work runs. Work started with
  /// ``IOLifetime/untilCancelled`` (a timer) does not count. Returns at once after ``stop()``.
  func idle() async {
    await core.waitUntilIdle(
      drain: claim, isIdle: { $0.isIdle(draining: false) }, waiters: { $1(&$0.idleWaiters) })
  }

  /// Goes on with the drain on a task of the program's own, on its executor.
  @usableFromInline
  func handOverDrain() {
    Task(executorPreference: executor) { [weak self] in self?.drain() }
  }

  /// Handles the queue until it is empty. Only the caller that claimed the drain calls this.
  ///
  /// A caller handles at most `messagesPerTurn` inputs; then a task of the program's own goes
  /// on with the rest, so `send` returns however fast inputs arrive (R6, progress).
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
        // The drain stays claimed, for the program's task.
        core.unlock()
        return handOverDrain()
      }
      handled += 1
      let input: App.Input
      switch locked.pointee.queue.next() {
      case .start:
        let entered = gate.enter()
        core.unlock()
        if entered {
          handle(initialOutputs)
          gate.leave()
        }
        continue
      case .subscribe(let observer):
        locked.pointee.subscribers.append(observer)
        let entered = gate.enter()
        core.unlock()
        if entered {
          Lender.lend(at: state(in: locked)) { observer.notify($0) }
          gate.leave()
        }
        continue
      case .input(let slot, let payload, _):
        // Queued by a route of the IO type at `slot`, or by `send`: `value` is its input.
        input = App.Input(slot: slot, payload: payload)
      }
      let (outputs, changed) = locked.pointee.step(input)
      let observers = locked.pointee.subscribers
      guard gate.enter() else {
        core.unlock()
        continue
      }
      core.unlock()
      notify(observers, at: state(in: locked), changed: changed)
      if !gate.isStopped { handle(outputs) }
      gate.leave()
    }
  }

  /// Adds `notify` as a subscriber, in queue order; with `isEqual`, it is called after a step
  /// only if the step changed the state.
  @inlinable
  func subscribe(
    _ notify: @escaping @Sendable (App) -> Void,
    onlyOnChange isEqual: (@Sendable (App, App) -> Bool)? = nil
  ) -> Subscription {
    let (id, mustDrain) = core.withLock { core in
      core.lastObserverID += 1
      let id = core.lastObserverID
      if let isEqual, !core.isEqual.isSet { core.isEqual = Comparison(isEqual) }
      let subscriber = Subscriber(id: id, onlyOnChange: isEqual != nil, notify: notify)
      return (id, core.enqueue(.subscribe(subscriber), claim))
    }
    if mustDrain { drain() }
    return Subscription { [weak self] in
      self?.core.withLock { core in core.subscribers.removeAll { $0.id == id } }
    }
  }

  /// Hands `outputs` to the handlers: IO types in order, each list in order.
  @inlinable
  func handle(_ outputs: App.Outputs) {
    outputs.forEachList { entry in
      handlers[entry.slot]._handle(
        list: entry, route: IORouteSeed(host: reference, slot: entry.slot))
    }
  }

  // MARK: IOHost

  @usableFromInline
  func receive(_ value: any Sendable, slot: Int, from run: Run<OwnedWorkID>?) -> Bool {
    entries.receive(self, value, slot, run)
  }

  /// Queues `value`, the input of the IO type at `slot`, if `run` (when given) is live.
  @inlinable
  func deliver(_ value: any Sendable, slot: Int, from run: Run<OwnedWorkID>?) -> Bool {
    if let run { return submit(slot: slot, payload: IOPayload(erased: value), from: run) }
    return submit(slot: slot, payload: IOPayload(erased: value))
  }

  @usableFromInline
  func startRun(
    slot: Int, id: AnyWorkID?, lifetime: IOLifetime,
    operation: @escaping @Sendable (Run<OwnedWorkID>) async -> Void
  ) {
    entries.startRun(self, slot, id, lifetime, operation)
  }

  /// Files work and starts its task.
  @inlinable
  func launch(
    slot: Int, id: AnyWorkID?, lifetime: IOLifetime,
    operation: @escaping @Sendable (Run<OwnedWorkID>) async -> Void
  ) {
    // A section until the task is filed: a stop meanwhile waits, then cancels it (R6).
    guard gate.enter() else { return }
    file(slot: slot, id: id, lifetime: lifetime, operation: operation)
    gate.leave()
  }

  /// Files work and starts its task, inside a section of the gate.
  @inlinable
  func file(
    slot: Int, id: AnyWorkID?, lifetime: IOLifetime,
    operation: @escaping @Sendable (Run<OwnedWorkID>) async -> Void
  ) {
    guard
      let (run, superseded) = core.withLock({
        $0.start(slot: slot, id: id, isFinite: lifetime == .finite)
      })
    else { return }
    superseded?.cancel()
    // The task holds the program weakly: only the sender inside `operation` refers to it. The
    // program's gate is the work's: `WhileRunning` work never begins after stop (R6).
    let (workGate, executor) = (gate, executor)
    let task = workGate.startTask(on: executor) { [weak self] in
      await operation(run)
      self?.finish(run)
    }
    if !core.withLock({ $0.runs.attach(task, to: run) }) { task.cancel() }
  }

  @inlinable
  func finish(_ run: Run<OwnedWorkID>) {
    core.withLock { $0.finish(run, claim) }.resumeAll()
  }

  @usableFromInline
  func cancelRun(slot: Int, id: AnyWorkID) { entries.cancelRun(self, slot, id) }

  @usableFromInline
  func cancelRuns(slot: Int) { entries.cancelAllRuns(self, slot) }

  @usableFromInline
  func cancelRuns(slot: Int, base: [AnyWorkID], child: () -> AnyWorkID) {
    entries.cancelChildRuns(self, slot, base, child)
  }

  @usableFromInline
  func cancelRuns(slot: Int, base: [AnyWorkID], children: () -> [AnyWorkID]) {
    entries.cancelRuns(self, slot, base, children)
  }

  /// Cancels the work filed under `id` in `slot`, if any.
  @inlinable
  func cancel(slot: Int, id: AnyWorkID) {
    let (task, waiters) = core.withLock { core in
      (
        core.remove(.id(OwnedWorkID(owner: slot, id: id))),
        core.settledWaiters(claim)
      )
    }
    task?.cancel()
    waiters.resumeAll()
  }

  /// Cancels all the work in `slot`.
  @inlinable
  func cancel(slot: Int) {
    let (tasks, waiters) = core.withLock { core in
      (core.removeAll(slot: slot), core.settledWaiters(claim))
    }
    for task in tasks { task.cancel() }
    waiters.resumeAll()
  }

  /// Cancels the work in `slot` filed in the scope of `child` under `base`, or within it.
  @inlinable
  func cancel(slot: Int, base: [AnyWorkID], child: () -> AnyWorkID) {
    let (tasks, waiters) = core.withLock { core in
      (core.removeAll(slot: slot, base: base, child: child), core.settledWaiters(claim))
    }
    for task in tasks { task.cancel() }
    waiters.resumeAll()
  }

  /// Cancels the work in `slot` filed in the scope of each of `children` under `base`.
  @inlinable
  func cancel(slot: Int, base: [AnyWorkID], children: () -> [AnyWorkID]) {
    let (tasks, waiters) = core.withLock { core in
      (core.removeAll(slot: slot, base: base, children: children), core.settledWaiters(claim))
    }
    for task in tasks { task.cancel() }
    waiters.resumeAll()
  }

  @usableFromInline
  func isLive(_ run: Run<OwnedWorkID>) -> Bool { core.withLock { $0.isLive(run) } }
}

extension Main where App: Equatable {
  /// Calls `observer` with the state now, then with every state that differs from the one
  /// before; see ``observe(_:_:)``.
  @inlinable
  @discardableResult
  public func observe(_ observer: @escaping @Sendable (App) -> Void) -> Subscription {
    // One comparison per step for all such observers, made by the runtime, rather than one
    // per observer.
    runtime.subscribe(observer, onlyOnChange: { $0 == $1 })
  }
}

/// A handle to stop observing a ``Main``.
public final class Subscription: Sendable {
  private let onCancel: Lock<(@Sendable () -> Void)?>

  @usableFromInline
  init(_ onCancel: @escaping @Sendable () -> Void) { self.onCancel = Lock(onCancel) }

  /// Stops the observer from being called; calling it again does nothing.
  public func cancel() {
    onCancel.withLock { $0.take() }?()
  }
}

/// Types, listed as a pack with no requirements.
///
/// An index found here costs only the comparisons (which fold away where the types are known):
/// a pack iterated where its elements must be `IOType`s opens each element with its conformance,
/// which is looked up, a call on every step, even where everything else folds away.
@usableFromInline
struct TypeList<each Element> {
  /// The index of `type` in the list; -1 if it is not in it.
  @inlinable @inline(__always)
  static func index<T>(of type: T.Type) -> Int {
    var slot = -1
    var index = 0
    repeat noteSlot((each Element).self, of: type, slot: &slot, index: &index)
    return slot
  }
}

/// Notes `index` as `slot` if `candidate` is `io` and no slot was found yet. Advances `index`.
///
/// Generic, not over existential metatypes: an IO type made an `any IOType.Type` is looked up
/// with its conformance each time, where only its identity is compared.
@inlinable @inline(__always)
func noteSlot<Candidate, IO>(
  _ candidate: Candidate.Type, of io: IO.Type, slot: inout Int, index: inout Int
) {
  if slot < 0, ObjectIdentifier(candidate) == ObjectIdentifier(io) { slot = index }
  index += 1
}

/// A program's `IOHost` entry points, made where its types are known.
@usableFromInline
struct HostEntries: Sendable {
  @usableFromInline let receive: @Sendable (AnyObject, any Sendable, Int, Run<OwnedWorkID>?) -> Bool
  @usableFromInline let startRun:
    @Sendable (
      AnyObject, Int, AnyWorkID?, IOLifetime, @escaping @Sendable (Run<OwnedWorkID>) async -> Void
    ) -> Void
  @usableFromInline let cancelRun: @Sendable (AnyObject, Int, AnyWorkID) -> Void
  @usableFromInline let cancelAllRuns: @Sendable (AnyObject, Int) -> Void
  @usableFromInline let cancelRuns:
    @Sendable (AnyObject, Int, [AnyWorkID], () -> [AnyWorkID]) -> Void
  @usableFromInline let cancelChildRuns:
    @Sendable (AnyObject, Int, [AnyWorkID], () -> AnyWorkID) -> Void

  @inlinable
  init(
    receive: @escaping @Sendable (AnyObject, any Sendable, Int, Run<OwnedWorkID>?) -> Bool,
    startRun:
      @escaping @Sendable (
        AnyObject, Int, AnyWorkID?, IOLifetime, @escaping @Sendable (Run<OwnedWorkID>) async -> Void
      ) -> Void,
    cancelRun: @escaping @Sendable (AnyObject, Int, AnyWorkID) -> Void,
    cancelAllRuns: @escaping @Sendable (AnyObject, Int) -> Void,
    cancelRuns: @escaping @Sendable (AnyObject, Int, [AnyWorkID], () -> [AnyWorkID]) -> Void,
    cancelChildRuns: @escaping @Sendable (AnyObject, Int, [AnyWorkID], () -> AnyWorkID) -> Void
  ) {
    self.receive = receive
    self.startRun = startRun
    self.cancelRun = cancelRun
    self.cancelAllRuns = cancelAllRuns
    self.cancelRuns = cancelRuns
    self.cancelChildRuns = cancelChildRuns
  }
}
