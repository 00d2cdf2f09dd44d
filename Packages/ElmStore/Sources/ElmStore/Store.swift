import Synchronization

/// A store: the state of an app, the update function that is the only thing changing it, and
/// the effects that react to each action.
///
/// ```swift
/// enum CounterAction { case increment, decrement, reset }
///
/// func updateCounter(state: inout Int, action: CounterAction) {
///   switch action {
///   case .increment: state += 1
///   case .decrement: state = max(0, state - 1)
///   case .reset: state = 0
///   }
/// }
///
/// let store = Store(state: 0, update: updateCounter)
/// store.dispatch(.increment)
/// store.state  // 1
/// ```
///
/// Actions are handled one at a time, in the order they arrive, from any thread. An action
/// dispatched while another is handled — by an effect, an observer or another thread — waits in
/// a queue behind it and is never nested; whoever finds the store idle handles the queue. After
/// each action the store notifies its observers, then runs the effect with the new state.
///
/// A store stops when ``stop()`` is called or when it is released: its running effects are
/// cancelled, their late results are dropped, and later actions are ignored. Effects hold the
/// store weakly, so a running timer never keeps it alive.
public final class Store<State: Sendable, Action: Sendable>: Sendable {
  /// Everything the store does; this object is only the user's reference to it.
  @usableFromInline let runtime: StoreRuntime<State, Action>

  /// Creates a store and, if given, dispatches `initialAction`.
  ///
  /// - Parameters:
  ///   - state: The initial state.
  ///   - update: Applies an action to the state. Keep it pure: it runs while the store is locked.
  ///   - effect: What to do after each action: dispatch more, or start asynchronous work.
  ///   - initialAction: An action to dispatch at once, such as `.load`.
  ///   - executor: Where asynchronous effects run; `nil` for the global concurrent executor.
  @inlinable
  public convenience init(
    state: State,
    update: @escaping @Sendable (inout State, Action) -> Void,
    effect: Effect<State, Action> = .none,
    initialAction: Action? = nil,
    executor: (any TaskExecutor)? = nil
  ) {
    self.init(
      state: state, update: update, effect: effect, initialAction: initialAction,
      executor: executor, monitor: nil)
  }

  // Inlinable, so the runtime is made where the state and action types are known: it keeps
  // the functions its effects deliver through from there (see `StoreRuntime.calls`).
  @inlinable
  package init(
    state: State,
    update: @escaping @Sendable (inout State, Action) -> Void,
    effect: Effect<State, Action>,
    initialAction: Action?,
    executor: (any TaskExecutor)?,
    monitor: (@Sendable (Processed<State, Action>) -> Void)?
  ) {
    runtime = StoreRuntime(
      state: state, update: update, effect: effect, executor: executor, monitor: monitor)
    if let initialAction { runtime.dispatch(initialAction) }
  }

  /// Released, the store stops (R6): queued actions are dropped, not handled; effects are
  /// cancelled; an effect handing in a result when the last reference goes does not keep it
  /// running.
  deinit { if !runtime.gate.isStopped { runtime.stop() } }

  /// The state now.
  ///
  /// An action dispatched while another thread was handling the queue may not be applied yet;
  /// ``idle()`` waits until it is.
  public var state: State { runtime.state }

  /// How many effect runs are going, finite or not (for the test store).
  package var runningEffectCount: Int { runtime.runningEffectCount }

  /// Whether `run` is still going (for the test store).
  package func isRunning(_ run: Run<AnyWorkID>) -> Bool { runtime.isLiveNow(run) }

  /// Dispatches `action`: applies it now, or queues it behind the action being handled.
  ///
  /// Safe from any thread or task, from inside observers and effects. Ignored after ``stop()``.
  ///
  /// - Complexity: O(1) plus the update, the observers and the effect.
  @inlinable
  public func dispatch(_ action: Action) { runtime.dispatch(action) }

  /// Stops the store: effects are cancelled, observers released, later actions ignored.
  ///
  /// When `stop()` returns, nothing begins any more: no observer is called again, no effect
  /// starts, no late effect result is applied, and work an effect wraps in
  /// `Send.ifActive` never begins. An observer call or effect begun on another
  /// thread is waited for; called from inside one, `stop()` returns at once and the store calls
  /// nothing more once it returns. Callable from any thread; calling it again does nothing.
  @inlinable
  public func stop() { runtime.stop() }

  /// Returns when nothing is queued and no finite effect is running.
  ///
  /// Effects started with ``EffectLifetime/untilCancelled`` (a timer, say) do not count: a store
  /// waiting only on them is idle. Returns at once after ``stop()``.
  public func idle() async { await runtime.idle() }

  /// Calls `observer` with the current state, then after every action.
  ///
  /// The current state is delivered in order with the queue: `observer` never sees a state
  /// older than one it saw before. Observers are called outside the store's lock, one at a time,
  /// in the order they subscribed; they may dispatch.
  ///
  /// - Returns: A subscription; call ``Subscription/cancel()`` to stop observing.
  @discardableResult
  public func subscribe(_ observer: @escaping @Sendable (State) -> Void) -> Subscription {
    runtime.addObserver(observer)
  }
}

/// The engine of a ``Store``: everything but the user's reference. Effects and subscriptions
/// hold it weakly and deliver through it; when the last ``Store`` reference goes, the store's
/// `deinit` stops it, even while an effect is handing it a result (R6 release).
@usableFromInline
final class StoreRuntime<State: Sendable, Action: Sendable>: Sendable {
  @usableFromInline let core: Lock<StoreCore<State, Action>>
  /// Who handles the queue; see ``DrainClaim``.
  @usableFromInline let claim = DrainClaim()
  @usableFromInline let update: @Sendable (inout State, Action) -> Void
  @usableFromInline let effect: Effect<State, Action>
  /// Whether an action with no observer can be applied in place: no effect and no monitor.
  @usableFromInline let isPlain: Bool
  @usableFromInline let monitor: (@Sendable (Processed<State, Action>) -> Void)?
  @usableFromInline let executor: (any TaskExecutor)?
  @usableFromInline let nextObserverID = Atomic(0)
  /// How an effect's ``Send`` delivers to this store: a function made where the state and
  /// action types are known, so a result is handled by specialized code rather than through
  /// the store's generic conformance to `EffectHost`.
  @usableFromInline let calls = StoreCalls<Action>()
  /// Where observer calls and effects begin: ``stop()`` closes it and waits for what began on
  /// other threads (R6).
  @usableFromInline let gate = StopGate()
  /// The runs started while the effect handles an action, when a monitor records them.
  @usableFromInline let startLog: Lock<[StartedRun]?>?

  @inlinable
  init(
    state: State,
    update: @escaping @Sendable (inout State, Action) -> Void,
    effect: Effect<State, Action>,
    executor: (any TaskExecutor)?,
    monitor: (@Sendable (Processed<State, Action>) -> Void)?
  ) {
    core = Lock(StoreCore(state: state))
    self.update = update
    self.effect = effect
    self.executor = executor
    self.monitor = monitor
    isPlain = effect.body == nil && monitor == nil
    startLog = monitor == nil ? nil : Lock(nil)
    calls.deliver = { [weak self] action, origin in self?.deliver(action, from: origin) }
    // Called only through the store itself (its conformance to `EffectHost`), so it is alive.
    unowned(unsafe) let this = self
    calls.isLive = { this.isLiveNow($0) }
    calls.cancel = { this.cancelNow($0) }
    calls.startRun = { key, isFinite, replacing in
      this.withCore { $0.start(key, isFinite: isFinite, replacing: replacing) }
    }
    calls.attach = { task, run in this.withCore { $0.runs.attach(task, to: run) } }
    // Called from a run's task, which may outlive the store.
    calls.finishRun = { [weak self] run in
      guard let self else { return }
      withCore { core in core.runs.finish(run) != nil ? core.settledWaiters(claim) : [] }
        .resumeAll()
    }
  }

  deinit {
    // Stopped before its release (the usual end): nothing left to stop. Asked of the gate, not
    // the core, whose generic type this code would look up.
    if gate.isStopped { return }
    withCore { $0.stop() }.complete()
    gate.stop()
  }

  /// The state now.
  ///
  /// An action dispatched while another thread was handling the queue may not be applied yet;
  /// ``idle()`` waits until it is.
  var state: State { withCore { $0.state } }

  /// How many effect runs are going, finite or not (for the test store).
  var runningEffectCount: Int { withCore { $0.runs.count } }

  /// Dispatches `action`: applies it now, or queues it behind the action being handled.
  ///
  /// Safe from any thread or task, from inside observers and effects. Ignored after ``stop()``.
  ///
  /// - Complexity: O(1) plus the update, the observers and the effect.
  @inlinable
  func dispatch(_ action: Action) {
    // Straight-line locking rather than `withCore`: values captured by a closure were copied
    // (retained and released) several times more. One lock for the common cases: applied in
    // place when nothing watches, or applied and claimed for notifying when only observers do.
    core.lock()
    switch core.value.pointee.accept(action, isPlain: isPlain, update: update, claim: claim) {
    case .done:
      return core.unlock()
    case .mustDrain:
      core.unlock()
      return drain()
    case .mustHandle:
      core.unlock()
      return handle(action)
    case .applied(let changed):
      let state = core.value.pointee.state
      let observers = core.value.pointee.subscribers
      core.unlock()
      if gate.enter() {
        notify(observers, of: state, changed: changed)
        gate.leave()
      }
      finishDrain()
    }
  }

  /// Calls `observers` with `state` (those that want only changes, if it `changed`); inside a
  /// section of the gate, and none once the store stopped (a stop from inside an observer).
  @inlinable @inline(__always)
  func notify(_ observers: [Subscriber<State>], of state: State, changed: Bool) {
    observers.notifyEach(of: state, changed: changed) { gate.isStopped }
  }

  /// Handles `action` when observers or effects must see it: at once if nobody is draining
  /// the queue (then drains what they dispatch), else behind the queue.
  @inlinable
  func handle(_ action: Action) {
    guard monitor == nil else {
      // The test store's path: every action through the queue, recorded with its states.
      if withCore({ $0.enqueue(.action(action, from: nil), claim) }) { drain() }
      return
    }
    // A tuple, not an optional step: optionals of generic structs were copied through runtime
    // value witnesses here, which cost more than the rest of the dispatch.
    let (claimed, changed, state, observers) = withCore {
      core -> (Bool?, Bool, State, [Subscriber<State>]) in
      guard !core.phase.isStopped else { return (false, false, core.state, []) }
      guard !claim.isHeld else {
        // The drainer may let go meanwhile (without the lock): then this caller drains.
        let mustDrain = core.queue.append(.action(action, from: nil), claiming: claim)
        return (mustDrain ? nil : false, false, core.state, [])
      }
      claim.hold(lookingAgain: !core.idleWaiters.isEmpty)
      let changed = core.apply(action, update: update)
      return (true, changed, core.state, core.subscribers)
    }
    guard let claimed else { return drain() }
    guard claimed else { return }
    if gate.enter() {
      notify(observers, of: state, changed: changed)
      if let body = effect.body, !gate.isStopped { body(state, action, Dispatch(host: self)) }
      gate.leave()
    }
    finishDrain()
  }

  /// Queues `action`, to be handled only if `condition` holds for the state when its turn
  /// comes (a presented child's scope: nothing once that child was dismissed).
  @inlinable
  func dispatch(_ action: Action, if condition: @escaping @Sendable (State) -> Bool) {
    if withCore({ $0.enqueue(.guarded(action, if: condition), claim) }) { drain() }
  }

  /// Ends the drain this caller claimed, or, if something was dispatched meanwhile, drains it.
  @inlinable @inline(__always)
  func finishDrain() {
    // Usually nothing was dispatched meanwhile: the drain is given back without the lock.
    if !claim.release() { drain() }
  }

  /// Stops the store: effects are cancelled, observers released, later actions ignored.
  ///
  /// When `stop()` returns, nothing begins any more: no observer is called again, no effect
  /// starts, and no late effect result is applied. An observer call or effect begun on another
  /// thread is waited for; called from inside one, `stop()` returns at once and the store
  /// calls nothing more once it returns. Callable from any thread; calling it again does
  /// nothing.
  // Inlinable, as every entry that runs the store's code: unspecialized, each use of the
  // core's generic types looks their metadata up.
  @inlinable
  func stop() {
    withCore { $0.stop() }.complete()
    gate.stop()
  }

  /// Returns when nothing is queued and no finite effect is running.
  ///
  /// Effects started with ``EffectLifetime/untilCancelled`` (a timer, say) do not count: a store
  /// waiting only on them is idle. Returns at once after ``stop()``.
  func idle() async {
    await core.waitUntilIdle(
      drain: claim, isIdle: { $0.isIdle(draining: false) }, waiters: { $1(&$0.idleWaiters) })
  }

  @inlinable
  func addObserver(
    _ observer: @escaping @Sendable (State) -> Void,
    onlyOnChange isEqual: (@Sendable (State, State) -> Bool)? = nil
  ) -> Subscription {
    let id = nextObserverID.wrappingAdd(1, ordering: .relaxed).newValue
    let entry = Subscriber(id: id, onlyOnChange: isEqual != nil, notify: observer)
    let mustDrain = withCore { core in
      if let isEqual, !core.isEqual.isSet { core.isEqual = Comparison(isEqual) }
      return core.enqueue(.subscribe(entry), claim)
    }
    if mustDrain { drain() }
    return Subscription { [weak self] in
      self?.withCore { core in core.subscribers.removeAll { $0.id == id } }
    }
  }

  /// Calls `observer` with row `id` of the list at `path` now (`nil`: not in the list), in
  /// queue order, then whenever that row changes, without asking about any other row.
  @inlinable
  func observeRow<ID: Hashable & Sendable, Row: Equatable & Sendable>(
    _ path: KeyPath<State, IdentifiedList<ID, Row>> & Sendable, _ id: ID,
    _ observer: @escaping @Sendable (Row?) -> Void
  ) -> Subscription {
    Subscription(
      RowObserving.observe(
        path, id, observer, table: { body in core.withLock { body(&$0.rowObservers) } },
        subscribe: { addObserver($0).cancel }))
  }

  /// Handles the queue until it is empty. Only the caller that claimed the drain calls this.
  ///
  /// A caller handles at most `messagesPerTurn` actions; then a task of the store's own goes on
  /// with the rest, so `dispatch` returns however fast actions arrive (R6, progress).
  @inlinable
  func drain() {
    let recordsStates = monitor != nil
    var handled = 0
    while true {
      var waiters: [CheckedContinuation<Void, Never>] = []
      var records: [Processed<State, Action>] = []
      let (kind, action, state, observers, changed) = withCore { core in
        core.next(
          update: update, recordsStates: recordsStates, handOver: handled == messagesPerTurn,
          idleWaiters: &waiters, records: &records, claim: claim)
      }
      handled += 1
      switch kind {
      case .drained:
        waiters.resumeAll()
        return
      case .handedOver:
        return handOverDrain()
      case .skipped:
        continue
      case .applied, .subscribed: break
      }
      guard gate.enter() else { continue }
      defer { gate.leave() }
      notify(observers, of: state, changed: changed || kind == .subscribed)
      guard kind == .applied, !gate.isStopped else { continue }
      guard let monitor else {
        if let action, let body = effect.body { body(state, action, Dispatch(host: self)) }
        continue
      }
      // The test store's path: each record with the runs its effect started.
      startLog?.withLock { $0 = [] }
      if let action, let body = effect.body { body(state, action, Dispatch(host: self)) }
      let started: [StartedRun] =
        startLog?.withLock { log -> [StartedRun] in
          defer { log = nil }
          return log ?? []
        } ?? []
      for var record in records {
        record.started = started
        monitor(record)
      }
    }
  }

  /// Goes on with the drain on a task of the store's own, on its executor.
  @usableFromInline
  func handOverDrain() {
    Task(executorPreference: executor) { [weak self] in self?.drain() }
  }

  /// Runs `body` on the locked core.
  @inlinable @inline(__always)
  func withCore<Result>(_ body: (inout StoreCore<State, Action>) -> Result) -> Result {
    core.withLock(body)
  }
}

extension Store where State: Equatable {
  /// Calls `observer` with the current state, then after every action that changed it.
  ///
  /// - Returns: A subscription; call ``Subscription/cancel()`` to stop observing.
  @inlinable @discardableResult
  public func subscribe(_ observer: @escaping @Sendable (State) -> Void) -> Subscription {
    runtime.addObserver(observer, onlyOnChange: { $0 == $1 })
  }
}

extension Store {
  /// Calls `observer` with `transform` of the current state, then whenever `transform` of the
  /// state changes: an observer of what a screen shows, not of every field.
  ///
  /// ```swift
  /// store.subscribe(CounterView.init) { view in render(view) }
  /// ```
  ///
  /// - Returns: A subscription; call ``Subscription/cancel()`` to stop observing.
  @inlinable @discardableResult
  public func subscribe<Value: Equatable & Sendable>(
    _ transform: @escaping @Sendable (State) -> Value,
    _ observer: @escaping @Sendable (Value) -> Void
  ) -> Subscription {
    runtime.addObserver(distinct(transform, observer))
  }
}

/// A handle to stop observing a ``Store``.
public final class Subscription: Sendable {
  private let onCancel: Lock<(@Sendable () -> Void)?>

  @usableFromInline init(_ onCancel: @escaping @Sendable () -> Void) {
    self.onCancel = Lock(onCancel)
  }

  /// Stops the observer from being called; calling it again does nothing.
  public func cancel() {
    onCancel.withLock { $0.take() }?()
  }
}

/// Functions a store's effects call it through, made where its types are known.
///
/// `@unchecked Sendable`, and exclusivity unchecked (checked, every read of a class's variable
/// costs ~100 instructions): written once, in the store's initializer, before the store is
/// shared.
@usableFromInline
final class StoreCalls<Action: Sendable>: @unchecked Sendable {
  @exclusivity(unchecked) @usableFromInline var deliver:
    (@Sendable (Action, Run<AnyWorkID>) -> Void)?
  // Not optional: a function kept in an optional is kept for any type, and one read out of it
  // is wrapped again to be called (an allocation per call).
  @exclusivity(unchecked) @usableFromInline var isLive: @Sendable (Run<AnyWorkID>) -> Bool = { _ in
    false
  }
  @exclusivity(unchecked) @usableFromInline var cancel: @Sendable (RunKey<AnyWorkID>) -> Void = {
    _ in
  }
  /// Files a new run (or returns `nil` once stopped): the run, and the one it supersedes.
  @exclusivity(unchecked) @usableFromInline var startRun:
    @Sendable (RunKey<AnyWorkID>?, _ isFinite: Bool, _ replacing: Bool) -> (
      run: Run<AnyWorkID>, superseded: Task<Void, Never>?
    )? = { _, _, _ in nil }
  /// Gives a filed run its task; `false` if the run was cancelled meanwhile.
  @exclusivity(unchecked) @usableFromInline var attach:
    @Sendable (Task<Void, Never>, Run<AnyWorkID>) -> Bool = { _, _ in
      false
    }
  /// Notes that a run's operation returned.
  @exclusivity(unchecked) @usableFromInline var finishRun: @Sendable (Run<AnyWorkID>) -> Void = {
    _ in
  }

  @inlinable init() {}
}
