/// A running core: its state, its wired layers, the queue between them, and the work its
/// machines started.
///
/// Events are reduced one at a time in arrival order, from any thread: an event emitted while
/// another is handled — by a machine's `process`, its work, or another thread — is queued, never
/// nested, and reduced against the state current when its turn comes. Whoever finds the flow
/// idle handles the queue; the reducer runs under the flow's lock, the machines outside it.
///
/// ``stop()`` (or releasing the flow) cancels all work machines started and drops what they
/// send afterwards.
public final class Flow<C: Core>: FlowHost, Sendable {
  @usableFromInline let lock: Lock<FlowState<C>>
  @usableFromInline let core: C
  /// What the layers that get states do with a new one, in layer order, as one function: a
  /// chain of closures calls each layer's without the retain and release an array's element
  /// costs.
  @usableFromInline let deliverAll: @Sendable (C.State) -> Void
  /// Each layer's first `process(nil)`, in order.
  @usableFromInline let starts: [@Sendable () -> Void]
  /// The layers' event mappings: held here only, so that a released flow frees them.
  let routes: [any AnyObject & Sendable]
  let executor: (any TaskExecutor)?

  /// A flow of `core`, not started; `monitor` (for a testing tool) sees what every layer gets
  /// and emits.
  package init(core: C, executor: (any TaskExecutor)?, monitor: FlowMonitor<C.Event>? = nil) {
    self.core = core
    self.executor = executor
    lock = Lock(FlowState())
    let host = WeakHost()
    // Typed, so an event reaches `receive` without a dynamic cast from `any FlowHost`.
    let reference = FlowReference<C>()
    let receive: @Sendable (C.Event, Run<OwnedWorkID>?) -> Void = { event, run in
      reference.flow?.receive(event, from: run)
    }
    let ids = MachineIDs()
    // Phase one: wire every machine. Nothing runs until `start()` queues phase two.
    let layers = core.layers.enumerated().map { index, layer in
      guard let monitor else {
        return layer.build(LayerWiring(receive: receive, host: host, ids: ids, tap: nil))
      }
      return layer.build(
        LayerWiring(
          receive: { event, run in
            monitor.emitted(index, event)
            receive(event, run)
          }, host: host, ids: ids, tap: { monitor.received(index, $0) }))
    }
    routes = layers.compactMap { $0.route }
    var deliverAll: @Sendable (C.State) -> Void = { _ in }
    for layer in layers {
      guard let deliver = layer.deliver else { continue }
      let earlier = deliverAll
      deliverAll = { state in
        earlier(state)
        deliver(state)
      }
    }
    self.deliverAll = deliverAll
    starts = layers.map { $0.start }
    host.host = self
    reference.flow = self
  }

  deinit {
    lock.withLock { $0.stop() }.complete()
  }

  /// The state now; `nil` until the reducer first sets one.
  public var state: C.State? { lock.withLock { $0.state } }

  /// Whether the flow was stopped.
  public var isStopped: Bool { lock.withLock { $0.phase.isStopped } }

  /// Phase two: the first `process(nil)` of every machine, ahead of anything queued.
  package func start() {
    let mustDrain = lock.withLock { $0.phase.start(&$0.queue, with: .start) }
    if mustDrain { drain() }
  }

  /// Sends an event to the reducer from outside the layers (a test, a driver, a command line).
  ///
  /// Safe from any thread. After ``stop()`` it is ignored.
  ///
  /// - Complexity: O(1) plus the reducer and, if it sets a state, every layer's delivery.
  @inlinable
  public func send(_ event: C.Event) {
    lock.lock()
    let locked = lock.value
    if locked.pointee.phase.isStopped { return lock.unlock() }
    if locked.pointee.queue.isDraining || !locked.pointee.phase.isRunning {
      let mustDrain = locked.pointee.enqueue(.event(event, from: nil))
      lock.unlock()
      if mustDrain { drain() }
      return
    }
    guard let state = locked.pointee.reduce(core, event) else { return lock.unlock() }
    locked.pointee.queue.startDraining()
    lock.unlock()
    deliver(state)
    endDrain()
  }

  /// Ends the drain `send` claimed, unless something was queued meanwhile (or the flow
  /// stopped, or somebody waits for idle): then it drains. One lock round in the usual case.
  @inlinable
  func endDrain() {
    lock.lock()
    let locked = lock.value
    if !locked.pointee.queue.hasNext, !locked.pointee.phase.isStopped,
      locked.pointee.idleWaiters.isEmpty
    {
      locked.pointee.queue.endDrain()
      return lock.unlock()
    }
    lock.unlock()
    drain()
  }

  /// Stops the flow: running work is cancelled and what it sends later dropped, queued events
  /// are discarded, later events ignored.
  public func stop() {
    lock.withLock { $0.stop() }.complete()
  }

  /// Returns when no event is queued or handled and no finite work runs. Work started with
  /// ``WorkLifetime/untilCancelled`` (a timer) does not count. Returns at once after ``stop()``.
  public func idle() async {
    await lock.wait(until: { $0.isIdle }, park: { $0.idleWaiters.append($1) })
  }

  /// Hands `state` to every layer, in order.
  @inlinable
  func deliver(_ state: C.State) { deliverAll(state) }

  /// Handles the queue until it is empty. Only the caller that claimed the drain calls this.
  @inlinable
  func drain() {
    while true {
      lock.lock()
      let locked = lock.value
      guard !locked.pointee.phase.isStopped, locked.pointee.queue.hasNext else {
        let waiters = locked.pointee.endDrain()
        lock.unlock()
        waiters.resumeAll()
        return
      }
      let message = locked.pointee.queue.take()
      switch message {
      case .start:
        lock.unlock()
        for start in starts { start() }
      // Messages from work that was cancelled were removed from the queue with it; work that
      // finished after sending still counts.
      case .event(let event, _):
        guard let state = locked.pointee.reduce(core, event) else {
          lock.unlock()
          continue
        }
        lock.unlock()
        deliver(state)
      case .job(let job, _):
        lock.unlock()
        job()
      }
    }
  }

  // MARK: FlowHost

  func receive(_ event: C.Event, from run: Run<OwnedWorkID>?) {
    let mustDrain = lock.withLock { flow -> Bool in
      guard flow.isLive(run) else { return false }
      return flow.enqueue(.event(event, from: run))
    }
    if mustDrain { drain() }
  }

  @usableFromInline
  func isLive(_ run: Run<OwnedWorkID>?) -> Bool { lock.withLock { $0.isLive(run) } }

  @usableFromInline
  func enqueue(from run: Run<OwnedWorkID>?, _ job: @escaping @Sendable () -> Void) {
    let mustDrain = lock.withLock { flow -> Bool in
      guard flow.isLive(run) else { return false }
      return flow.enqueue(.job(job, from: run))
    }
    if mustDrain { drain() }
  }

  @usableFromInline
  func startRun(
    machine: Int, id: AnyWorkID?, lifetime: WorkLifetime,
    operation: @escaping @Sendable (Run<OwnedWorkID>) async -> Void
  ) {
    guard
      let (run, superseded) = lock.withLock({
        $0.start(machine: machine, id: id, isFinite: lifetime == .finite)
      })
    else { return }
    superseded?.cancel()
    // The task holds the flow weakly: only the callback inside `operation` refers to it.
    let task = Task(executorPreference: executor) { [weak self] in
      await operation(run)
      self?.finish(run)
    }
    if !lock.withLock({ $0.runs.attach(task, to: run) }) { task.cancel() }
  }

  func finish(_ run: Run<OwnedWorkID>) {
    lock.withLock { $0.finish(run) }.resumeAll()
  }

  @usableFromInline
  func cancelRuns(machines: ClosedRange<Int>) {
    let (tasks, waiters) = lock.withLock { flow in
      (flow.removeAll(machines: machines), flow.idleWaiters.take(if: flow.isIdle))
    }
    for task in tasks { task.cancel() }
    waiters.resumeAll()
  }

  @usableFromInline
  func cancelRun(machine: Int, id: AnyWorkID) {
    let (task, waiters) = lock.withLock { flow in
      (
        flow.remove(.id(OwnedWorkID(owner: machine, id: id))),
        flow.idleWaiters.take(if: flow.isIdle)
      )
    }
    task?.cancel()
    waiters.resumeAll()
  }
}

/// The flow, held weakly and typed, by the layers' event sinks.
final class FlowReference<C: Core>: @unchecked Sendable {
  // @unchecked: `flow` is set once, by the flow's initializer, before the flow is shared.
  weak var flow: Flow<C>?
  init() {}
}

/// What a testing tool sees of a flow's layers: each input a layer's machine gets (after the
/// layer's mapper) and each event a layer emits (after its event mapper), by layer index.
package struct FlowMonitor<Event>: Sendable {
  package var received: @Sendable (_ layer: Int, _ input: any Sendable) -> Void
  package var emitted: @Sendable (_ layer: Int, _ event: Event) -> Void

  package init(
    received: @escaping @Sendable (Int, any Sendable) -> Void,
    emitted: @escaping @Sendable (Int, Event) -> Void
  ) {
    self.received = received
    self.emitted = emitted
  }
}
