/// The runtime of a Model-Update-Effect app: one owner of the state, one queue for events and
/// effect results, and effect handlers that run as tasks.
///
/// ```swift
/// let loop = Loop(update: CounterUpdate(), effectHandler: CounterEffects(storage: storage),
///                 state: CounterState())
/// let subscription = loop.observe { state in render(state) }
/// loop.start()            // applies `first(state:)` and starts its effects
/// loop.send(.increment)   // from anywhere: a view, a thread, a task
/// ```
///
/// Events and results are handled one at a time, in the order they arrive, from any thread: an
/// event sent while another message is handled — by an observer or another thread — waits in the
/// queue behind it, never nested, and whoever finds the loop idle handles the queue. Each
/// message runs the update (under the loop's lock: keep it pure and quick), publishes the state
/// to observers if it changed, cancels the effects the update cancels, and starts the ones it
/// dispatches.
///
/// A result is applied to the state current when it arrives, never to the state its effect
/// started from. The results of a cancelled or superseded effect, and of any effect after
/// ``stop()``, are dropped, even when the handler ignores cancellation. Effects hold the loop
/// weakly, so releasing it stops it, timers included.
public final class Loop<U: Update, H: EffectHandler>: Sendable where H.Effect == U.Effect {
  public typealias State = U.State
  public typealias Event = U.Event
  public typealias Effect = U.Effect

  /// Everything the loop does; this object is only the user's reference to it.
  @usableFromInline let runtime: LoopRuntime<U, H>
  let update: U
  let effectHandler: H
  let executor: (any TaskExecutor)?
  let monitor: (@Sendable (Processed<State, Event, Effect>) -> Void)?

  /// Creates a loop whose state is what ``Update/first(state:)`` makes of `state`; its first
  /// effects start with ``start()``.
  ///
  /// As in Unison, `first`'s state is applied here, so an observer added before `start()` sees
  /// that state first, never one `first` would replace.
  ///
  /// - Parameters:
  ///   - update: The app's logic.
  ///   - effectHandler: Runs the effects the update dispatches.
  ///   - state: The state handed to ``Update/first(state:)``.
  ///   - executor: Where effect handlers run; `nil` for the global concurrent executor.
  public convenience init(
    update: U, effectHandler: H, state: State, executor: (any TaskExecutor)? = nil
  ) {
    self.init(
      update: update, effectHandler: effectHandler, state: state, executor: executor,
      monitor: nil)
  }

  package init(
    update: U, effectHandler: H, state: State, executor: (any TaskExecutor)?,
    monitor: (@Sendable (Processed<State, Event, Effect>) -> Void)?
  ) {
    runtime = LoopRuntime(
      update: update, effectHandler: effectHandler, state: state, executor: executor,
      monitor: monitor)
    self.update = update
    self.effectHandler = effectHandler
    self.executor = executor
    self.monitor = monitor
  }

  /// Released, the loop stops (R6): queued events are dropped, not handled; effects are
  /// cancelled; an effect handing in a result when the last reference goes does not keep it
  /// running.
  deinit { if !runtime.gate.isStopped { runtime.stop() } }

  /// The state now.
  public var state: State { runtime.state }

  /// Whether ``start()`` was called.
  public var isStarted: Bool { runtime.isStarted }

  /// Starts the effects of the update's ``Update/first(state:)`` (its state was applied when the
  /// loop was made); then handles the events sent so far. Calling it again, or after
  /// ``stop()``, does nothing.
  @inlinable
  public func start() { runtime.start() }

  /// Sends `event`: handles it now, or queues it behind the message being handled.
  ///
  /// Safe from any thread or task, from inside observers and effect handlers. Events sent
  /// before ``start()`` wait for it; events sent after ``stop()`` are ignored.
  ///
  /// - Complexity: O(1) plus the update, the observers and starting the effects.
  @inlinable
  public func send(_ event: Event) { runtime.send(event) }

  /// A new loop with the same update, effect handler and executor, from this loop's state now:
  /// how a stopped loop goes on. It is not started, and runs `first(state:)` on that state like
  /// any new loop; observers are not carried over.
  public func restarted() -> Loop {
    Loop(
      update: update, effectHandler: effectHandler, state: state, executor: executor,
      monitor: monitor)
  }

  /// A function that sends events to this loop, for a view to call (Unison's `handler`). It
  /// holds the loop weakly.
  public var handler: @Sendable (Event) -> Void {
    { [weak self] event in self?.send(event) }
  }

  /// A handler for the child presented at `path` now (a sheet's view calls it), or `nil` when
  /// nothing is presented there. It belongs to this presentation: once the child is dismissed —
  /// or, for an `Identifiable` child, replaced by one with another id — the events it sends are
  /// ignored, also while a later child is presented at `path`. The check is made in queue
  /// order, when the event's turn comes. (A child that is not `Identifiable` has no identity:
  /// any child presented at `path` is taken for this one.)
  ///
  /// ```swift
  /// if let form = loop.handler(presented: \.form) {
  ///   form(.form(.save))
  /// }
  /// ```
  public func handler<Child: Sendable>(
    presented path: KeyPath<State, Child?> & Sendable
  ) -> (@Sendable (Event) -> Void)? {
    guard let presented = state[keyPath: path] else { return nil }
    let isSame = presentationIdentity(Child.self)
    return { [weak runtime] event in
      runtime?.send(event) { state in
        state[keyPath: path].map { isSame(presented, $0) } ?? false
      }
    }
  }

  /// Stops the loop: effects are cancelled and their late results dropped, observers released,
  /// later events ignored.
  ///
  /// When `stop()` returns, nothing begins any more: no observer is called, no effect handler
  /// starts, and work an effect handler wraps in ``WhileRunning`` (a save, a log line) never
  /// begins. An observer call begun on another thread is waited for; called from inside an
  /// observer, `stop()` returns at once and no observer is called after that one returns.
  ///
  /// Stopping is final: a stopped loop never runs again, and ``start()`` on it does nothing.
  /// To go on from where it stopped, make a new loop with ``restarted()``.
  @inlinable
  public func stop() { runtime.stop() }

  /// Returns when nothing is queued or handled and no effect handler is running.
  ///
  /// An effect whose handler returned ``EffectResult/repeating(_:)`` (a timer) does not count:
  /// a loop waiting only on streams is idle. Returns at once after ``stop()``.
  public func idle() async { await runtime.idle() }

  /// Calls `observer` with the current state, then with every state that differs from the one
  /// before.
  ///
  /// The current state is delivered in order with the queue, so `observer` never sees a state
  /// older than one it saw. Observers are called outside the lock, one at a time, in the order
  /// they subscribed; they may send events.
  ///
  /// - Returns: A subscription; call ``Subscription/cancel()`` to stop observing.
  @inlinable
  @discardableResult
  public func observe(_ observer: @escaping @Sendable (State) -> Void) -> Subscription {
    runtime.observe(observer)
  }

  /// Calls `observer` with `transform` of the current state, then whenever that value changes:
  /// an observer of what a screen shows rather than of every field.
  ///
  /// - Returns: A subscription; call ``Subscription/cancel()`` to stop observing.
  @discardableResult
  public func observe<Value: Equatable & Sendable>(
    _ transform: @escaping @Sendable (State) -> Value,
    _ observer: @escaping @Sendable (Value) -> Void
  ) -> Subscription {
    observe(distinct(transform, observer))
  }

  /// Calls `observer` with row `id` of the identified list at `path` (`nil`: not in the list),
  /// then whenever that row changes: how a screen follows one row of a long list.
  ///
  /// The observers of rows of one list share one observer of the loop, which looks up each
  /// observed row after an update and calls only the observers whose row changed: an update
  /// that changes one row of 10,000 costs the same with 20 rows observed as with one, and
  /// nothing for the rows nobody observes. Delivered in order with the queue, like
  /// ``observe(_:)``.
  ///
  /// ```swift
  /// loop.observe(\.rows, id: 7) { row in render(row) }  // only when row 7 changes
  /// ```
  ///
  /// - Returns: A subscription; call ``Subscription/cancel()`` to stop observing.
  /// - Complexity: O(1) per update for each observed row, whatever the length of the list.
  @inlinable
  @discardableResult
  public func observe<ID: Hashable & Sendable, Row: Equatable & Sendable>(
    _ path: KeyPath<State, IdentifiedList<ID, Row>> & Sendable, id: ID,
    _ observer: @escaping @Sendable (Row?) -> Void
  ) -> Subscription {
    let runtime = self.runtime
    return Subscription(
      RowObserving.observe(
        path, id, observer, table: { body in runtime.core.withLock { body(&$0.rowObservers) } },
        subscribe: { runtime.observe($0).cancel }))
  }

  /// Calls `observer` with `transform` of row `id` of the identified list at `path` (`nil`: not
  /// in the list), then whenever that value changes; see ``observe(_:id:_:)``.
  @inlinable
  @discardableResult
  public func observe<
    ID: Hashable & Sendable, Row: Equatable & Sendable, Value: Equatable & Sendable
  >(
    _ path: KeyPath<State, IdentifiedList<ID, Row>> & Sendable, id: ID,
    _ transform: @escaping @Sendable (Row?) -> Value,
    _ observer: @escaping @Sendable (Value) -> Void
  ) -> Subscription {
    observe(path, id: id, distinct(transform, observer))
  }
}

/// The engine of a ``Loop``: everything but the user's reference. Effects and subscriptions
/// hold it weakly and deliver through it; when the last ``Loop`` reference goes, the loop's
/// `deinit` stops it, even while an effect is handing it a result (R6 release).
@usableFromInline
final class LoopRuntime<U: Update, H: EffectHandler>: Sendable where H.Effect == U.Effect {
  @usableFromInline typealias State = U.State
  @usableFromInline typealias Event = U.Event
  @usableFromInline typealias Effect = U.Effect

  @usableFromInline let core: Lock<LoopCore<State, Event, Effect>>
  /// Who handles the queue; see ``DrainClaim``.
  @usableFromInline let claim = DrainClaim()
  @usableFromInline let update: U
  @usableFromInline let effectHandler: H
  @usableFromInline let executor: (any TaskExecutor)?
  @usableFromInline let monitor: (@Sendable (Processed<State, Event, Effect>) -> Void)?
  /// The effects of ``Update/first(state:)``, which ``start()`` starts; its state is the
  /// loop's from construction on.
  @usableFromInline let firstEffects: [Effect]
  @usableFromInline let nextObserverID = Lock(0)
  /// Where observer calls and effect launches begin: `stop()` closes it and waits for what
  /// began on other threads (R6).
  @usableFromInline let gate = StopGate()

  @inlinable
  init(
    update: U, effectHandler: H, state: State, executor: (any TaskExecutor)?,
    monitor: (@Sendable (Processed<State, Event, Effect>) -> Void)?
  ) {
    let first = update.first(state: state)
    core = Lock(LoopCore(state: first.initialState, children: update.children.makeTrackers()))
    firstEffects = first.initialEffects
    self.update = update
    self.effectHandler = effectHandler
    self.executor = executor
    self.monitor = monitor
  }

  deinit {
    // Stopped before its release (the usual end): nothing left to stop. Asked of the gate, not
    // the core, whose generic type this code would look up.
    if gate.isStopped { return }
    core.withLock { $0.stop() }.complete()
    gate.stop()
  }

  /// The state now.
  var state: State { core.withLock { $0.state } }

  /// Whether ``start()`` was called.
  var isStarted: Bool { core.withLock { $0.phase != .created } }

  /// Starts the effects of the update's ``Update/first(state:)`` (its state was applied when the
  /// loop was made); then handles the events sent so far. Calling it again, or after
  /// ``stop()``, does nothing.
  @inlinable
  func start() {
    let mustDrain = core.withLock { $0.phase.start(&$0.queue, with: .start, claiming: claim) }
    if mustDrain { drain() }
  }

  /// Sends `event`: handles it now, or queues it behind the message being handled.
  ///
  /// Safe from any thread or task, from inside observers and effect handlers. Events sent
  /// before ``start()`` wait for it; events sent after ``stop()`` are ignored.
  ///
  /// - Complexity: O(1) plus the update, the observers and starting the effects.
  @inlinable
  func send(_ event: Event) {
    // Straight-line locking: one lock when nothing watches and the update starts no effect.
    core.lock()
    let locked = core.value
    if locked.pointee.phase.isStopped { return core.unlock() }
    if !locked.pointee.phase.isRunning || monitor != nil || claim.isHeld {
      // The drainer may let go meanwhile (without the lock): then this caller drains.
      let mustDrain = locked.pointee.enqueue(.event(event), claim)
      core.unlock()
      if mustDrain { drain() }
      return
    }
    // The loop's own state, changed in place: the update is its only holder while it runs.
    let result = update.handle(event: event, changing: &locked.pointee.state)
    if result.effects.isEmpty, result.cancellations.isEmpty,
      !result.stateChanged || locked.pointee.children.isEmpty
    {
      guard result.stateChanged, !locked.pointee.subscribers.isEmpty else {
        return core.unlock()
      }
      // Only observers to tell: claim the drain, notify outside the lock, then hand over to
      // `drain` for whatever they or other threads sent meanwhile.
      let next = locked.pointee.state
      claim.hold(lookingAgain: !locked.pointee.idleWaiters.isEmpty)
      let observers = locked.pointee.subscribers
      core.unlock()
      if gate.enter() {
        observers.notifyEach(of: next) { gate.isStopped }
        gate.leave()
      }
      // Nothing sent meanwhile: the drain is given back without the lock.
      if !claim.release() { drain() }
      return
    }
    claim.hold(lookingAgain: !locked.pointee.idleWaiters.isEmpty)
    let step = locked.pointee.apply(result)
    // Entered under the lock, so a stop waits for this step's cancellations and launches.
    let entered = gate.enter()
    core.unlock()
    perform(step, entered: entered)
    if !claim.release() { drain() }
  }

  /// Queues `event`, to be handled only if `condition` holds for the state when its turn comes.
  @inlinable
  func send(_ event: Event, if condition: @escaping @Sendable (State) -> Bool) {
    let mustDrain = core.withLock { $0.enqueue(.guarded(event, if: condition), claim) }
    if mustDrain { drain() }
  }

  /// Stops the loop: effects are cancelled and their late results dropped, observers released,
  /// later events ignored.
  ///
  /// When `stop()` returns, nothing begins any more: no observer is called, no effect handler
  /// starts, and work an effect handler wraps in ``WhileRunning`` (a save, a log line) never
  /// begins. An observer call begun on another thread is waited for; called from inside an
  /// observer, `stop()` returns at once and no observer is called after that one returns.
  ///
  /// Stopping is final: a stopped loop never runs again, and ``start()`` on it does nothing.
  /// To go on from where it stopped, make a new loop with ``restarted()``.
  // Inlinable: unspecialized, each use of the core's generic types looks their metadata up.
  @inlinable
  func stop() {
    core.withLock { $0.stop() }.complete()
    gate.stop()
  }

  /// Returns when nothing is queued or handled and no effect handler is running.
  ///
  /// An effect whose handler returned ``EffectResult/repeating(_:)`` (a timer) does not count:
  /// a loop waiting only on streams is idle. Returns at once after ``stop()``.
  func idle() async {
    await core.waitUntilIdle(
      drain: claim, isIdle: { $0.isIdle(draining: false) }, waiters: { $1(&$0.idleWaiters) })
  }

  /// Calls `observer` with the current state, then with every state that differs from the one
  /// before.
  ///
  /// The current state is delivered in order with the queue, so `observer` never sees a state
  /// older than one it saw. Observers are called outside the lock, one at a time, in the order
  /// they subscribed; they may send events.
  ///
  /// - Returns: A subscription; call ``Subscription/cancel()`` to stop observing.
  // Inlinable, like every entry that may drain: a drain begun in unspecialized code runs its
  // whole loop, and the tasks of the effects it starts, through metadata lookups.
  @inlinable
  func observe(_ observer: @escaping @Sendable (State) -> Void) -> Subscription {
    let id = nextObserverID.withLock { id in
      id += 1
      return id
    }
    let mustDrain = core.withLock {
      $0.enqueue(.subscribe(Subscriber(id: id, notify: observer)), claim)
    }
    if mustDrain { drain() }
    return Subscription { [weak self] in
      self?.core.withLock { core in core.subscribers.removeAll { $0.id == id } }
    }
  }

  /// Handles the queue until it is empty. Only the caller that claimed the drain calls this.
  ///
  /// A caller handles at most `messagesPerTurn` messages; then a task of the loop's own goes on
  /// with the rest, so `send` returns however fast events arrive (R6, progress).
  @inlinable
  func drain() {
    var handled = 0
    while true {
      core.lock()
      let locked = core.value
      guard locked.pointee.hasNext else {
        let waiters = locked.pointee.endDrain(claim)
        core.unlock()
        waiters.resumeAll()
        return
      }
      if handled == messagesPerTurn {
        // The drain stays claimed, for the loop's task.
        core.unlock()
        return handOverDrain()
      }
      handled += 1
      let message = locked.pointee.queue.next()
      let input: Processed<State, Event, Effect>.Input
      let result: InPlaceResult<Effect>
      switch message {
      case .start:
        input = .first
        result = InPlaceResult(stateChanged: false, effects: firstEffects)
      case .event(let event):
        input = .event(event)
        result = update.handle(event: event, changing: &locked.pointee.state)
      case .guarded(let event, let condition):
        guard condition(locked.pointee.state) else {
          core.unlock()
          continue
        }
        input = .event(event)
        result = update.handle(event: event, changing: &locked.pointee.state)
      case .result(let value, _):
        input = .result(value)
        result = update.handle(result: value, changing: &locked.pointee.state)
      case .subscribe(let observer):
        locked.pointee.subscribers.append(observer)
        let now = locked.pointee.state
        core.unlock()
        _ = gate.ifOpen { observer.notify(now) }
        continue
      }
      let step = locked.pointee.apply(result)
      let entered = gate.enter()
      core.unlock()
      monitor?(
        Processed(
          input: input, after: step.state, effects: result.effects,
          cancellations: result.cancellations, dismissed: step.dismissed))
      perform(step, entered: entered)
    }
  }

  /// Goes on with the drain on a task of the loop's own, on its executor.
  @inlinable
  func handOverDrain() {
    Task(executorPreference: executor) { [weak self] in self?.drain() }
  }

  /// Carries out a step after unlocking: cancel, notify, start; the last two only inside the
  /// gate's section, `entered` while the step was taken.
  @inlinable
  func perform(_ step: Step<State, Effect>, entered: Bool) {
    for task in step.cancelled { task.cancel() }
    guard entered else { return }
    if step.notifies {
      step.observers.notifyEach(of: step.state) { gate.isStopped }
    }
    for launch in step.started where !gate.isStopped { self.launch(launch.effect, launch.run) }
    gate.leave()
  }

  /// Runs `effect`'s handler as a task that feeds its results back while `run` is live.
  @inlinable
  func launch(_ effect: Effect, _ run: Run<Effect.ID>) {
    // On the loop, inside the gate the caller entered: no task, and the run ends here.
    if effectHandler.handleNow(effect) { return finish(run) }
    // A section until the task is filed: a stop meanwhile waits, then cancels it (R6).
    guard gate.enter() else { return }
    defer { gate.leave() }
    let effectHandler = self.effectHandler
    let (workGate, executor) = (gate, executor)
    // The loop's gate is the handler's: `WhileRunning` work never begins after stop (R6).
    let task = workGate.startTask(on: executor) { [weak self] in
      let result = await effectHandler.handle(effect)
      switch result.kind {
      case .single(let value):
        _ = self?.deliver(value, from: run)
      case .empty:
        break
      case .repeating(let box):
        self?.becomeLongLived(run)
        for await value in box.stream {
          guard self?.deliver(value, from: run) == true else { break }
        }
      case .mapped(let next):
        self?.becomeLongLived(run)
        while let value = await next() {
          guard self?.deliver(value, from: run) == true else { break }
        }
      }
      self?.finish(run)
    }
    if !core.withLock({ $0.runs.attach(task, to: run) }) { task.cancel() }
  }

  /// Queues `value` from `run` if that run is still live; returns whether it was.
  @inlinable
  func deliver(_ value: Effect.Result, from run: Run<Effect.ID>) -> Bool {
    let (isLive, mustDrain) = core.withLock { core -> (Bool, Bool) in
      guard core.isLive(run) else { return (false, false) }
      return (true, core.enqueue(.result(value, from: run), claim))
    }
    if mustDrain { drain() }
    return isLive
  }

  @inlinable
  func becomeLongLived(_ run: Run<Effect.ID>) {
    let waiters = core.withLock { core in
      core.runs.becomeLongLived(run) ? core.settledWaiters(claim) : []
    }
    waiters.resumeAll()
  }

  @inlinable
  func finish(_ run: Run<Effect.ID>) {
    let waiters = core.withLock { core in
      core.isLive(run) && core.runs.finish(run) != nil ? core.settledWaiters(claim) : []
    }
    waiters.resumeAll()
  }
}

extension Loop where U.State: InitialState {
  /// Creates a loop that starts from the state's ``InitialState/initial``.
  public convenience init(update: U, effectHandler: H, executor: (any TaskExecutor)? = nil) {
    self.init(update: update, effectHandler: effectHandler, state: .initial, executor: executor)
  }
}

extension Loop where H == HandleEffects<NoEffect>, U.Effect == NoEffect {
  /// Creates a loop whose update starts no effects.
  public convenience init(update: U, state: State, executor: (any TaskExecutor)? = nil) {
    self.init(update: update, effectHandler: .none, state: state, executor: executor)
  }
}

/// A handle to stop observing a ``Loop``.
public final class Subscription: Sendable {
  private let onCancel: Lock<(@Sendable () -> Void)?>

  @usableFromInline
  init(_ onCancel: @escaping @Sendable () -> Void) { self.onCancel = Lock(onCancel) }

  /// Stops the observer from being called; calling it again does nothing.
  public func cancel() {
    onCancel.withLock { $0.take() }?()
  }
}
