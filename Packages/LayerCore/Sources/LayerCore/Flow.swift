import Synchronization

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
public final class Flow<C: Core>: Sendable {
  /// Everything the flow does; this object is only the user's reference to it.
  @usableFromInline let runtime: FlowRuntime<C>

  /// A flow of `core`, not started; `monitor` (for a testing tool) sees what every layer gets
  /// and emits.
  ///
  /// Inlinable, like everything a flow calls while it is made, runs and stops, so that a core's
  /// flow is compiled for its types, not run as generic code.
  @inlinable
  package init(core: C, executor: (any TaskExecutor)?, monitor: FlowMonitor<C.Event>? = nil) {
    runtime = FlowRuntime(core: core, executor: executor, monitor: monitor)
  }

  /// Released, the flow stops (R6): queued events are dropped, not reduced; work is cancelled;
  /// work handing in an event when the last reference goes does not keep it running.
  deinit { if !runtime.gate.isStopped { runtime.stop() } }

  /// The state now; `nil` until the reducer first sets one.
  public var state: C.State? { runtime.state }

  /// Whether the flow was stopped.
  public var isStopped: Bool { runtime.isStopped }

  /// Phase two: the first `process(nil)` of every machine, ahead of anything queued.
  @inlinable
  package func start() { runtime.start() }

  /// Whether the work whose run has token `run` (``FlowMonitor/started``) is still going.
  package func isRunning(_ run: Int) -> Bool { runtime.isLive(Run(token: run)) }

  /// Sends an event to the reducer from outside the layers (a test, a driver, a command line).
  ///
  /// Safe from any thread. After ``stop()`` it is ignored.
  ///
  /// - Complexity: O(1) plus the reducer and, if it sets a state, every layer's delivery.
  @inlinable
  public func send(_ event: C.Event) { runtime.send(event) }

  /// Stops the flow: running work is cancelled and what it sends later dropped, queued events
  /// are discarded, later events ignored.
  ///
  /// When `stop()` returns, nothing begins any more: no layer gets a state, no machine
  /// processes, and work wrapped in ``WhileRunning`` (a save, a log line) never begins. A
  /// delivery begun on another thread is waited for; called from inside one, `stop()` returns
  /// at once and no further layer is called once that one returns.
  @inlinable
  public func stop() { runtime.stop() }

  /// Returns when no event is queued or handled and no finite work runs. Work started with
  /// ``WorkLifetime/untilCancelled`` (a timer) does not count. Returns at once after ``stop()``.
  public func idle() async { await runtime.idle() }
}

/// The engine of a ``Flow``: everything but the user's reference. Machines, their work and
/// the layers' routes hold it weakly and deliver through it; when the last ``Flow`` reference
/// goes, the flow's `deinit` stops it, even while work is handing it an event (R6 release).
@usableFromInline
final class FlowRuntime<C: Core>: Sendable {
  @usableFromInline let lock: Lock<FlowState<C>>
  /// Who handles the queue: ``DrainClaim/draining`` while a caller does, plus
  /// ``DrainClaim/recheck`` when something it must look at happened meanwhile (a message
  /// queued, a caller waiting for idle). Set only under the lock; the drainer clears it without
  /// the lock when nothing happened, so a send that reduced under the lock and delivered outside
  /// it takes the lock once.
  @usableFromInline let claim = Atomic<Int>(0)
  @usableFromInline let core: C
  /// What the layers that get states do with a new one, in layer order, as one function: a
  /// chain of closures calls each layer's without the retain and release an array's element
  /// costs.
  @usableFromInline let deliverAll: @Sendable (C.State) -> Void
  /// Each layer's first `process(nil)`, in order.
  @usableFromInline let starts: [@Sendable () -> Void]
  /// The layers' event mappings: held here only, so that a released flow frees them.
  @usableFromInline let routes: [any AnyObject & Sendable]
  @usableFromInline let executor: (any TaskExecutor)?
  /// Where layer deliveries, machine starts and work results begin: `stop()` closes it and
  /// waits for what began on other threads (R6).
  @usableFromInline let gate: StopGate
  /// A testing tool's look at the work machines start (``FlowMonitor/started``).
  @usableFromInline let started: (@Sendable (Int, Int, AnyWorkID?) -> Void)?

  /// A flow of `core`, not started; `monitor` (for a testing tool) sees what every layer gets
  /// and emits.
  ///
  /// Inlinable, like everything a flow calls while it is made, runs and stops, so that a core's
  /// flow is compiled for its types, not run as generic code.
  @inlinable
  init(core: C, executor: (any TaskExecutor)?, monitor: FlowMonitor<C.Event>?) {
    self.core = core
    self.executor = executor
    started = monitor?.started
    let gate = StopGate()
    self.gate = gate
    lock = Lock(FlowState(state: core.initialState))
    let host = WeakHost()
    let receive: @Sendable (C.Event, Run<OwnedWorkID>?) -> Void = { event, run in
      guard let flow = host.flow else { return }
      unsafeDowncast(flow, to: FlowRuntime<C>.self).receive(event, from: run)
    }
    let ids = MachineIDs()
    let readState: @Sendable () -> Any? = {
      guard let flow = host.flow else { return nil }
      return unsafeDowncast(flow, to: FlowRuntime<C>.self).state.map { $0 as Any }
    }
    // Phase one: wire every machine. Nothing runs until `start()` queues phase two.
    let layers = core.layers.enumerated().map { index, layer in
      guard let monitor else {
        return layer.build(
          LayerWiring(
            receive: receive, host: host, ids: ids, tap: nil, readState: readState))
      }
      return layer.build(
        LayerWiring(
          receive: { event, run in
            monitor.emitted(index, event)
            receive(event, run)
          }, host: host, ids: ids, tap: { monitor.received(index, $0) },
          children: monitor.children?.tap(layer: index), readState: readState))
    }
    routes = layers.compactMap { $0.route }
    deliverAll = Self.chain(layers, gate: gate)
    starts = layers.map { $0.start }
    host.calls = HostCalls(
      isLive: { unsafeDowncast($0, to: FlowRuntime<C>.self).isLive($1) },
      enqueue: { unsafeDowncast($0, to: FlowRuntime<C>.self).enqueue(from: $1, $2) },
      startRun: {
        unsafeDowncast($0, to: FlowRuntime<C>.self).startRun(
          machine: $1, id: $2, lifetime: $3, operation: $4)
      },
      cancelRun: { unsafeDowncast($0, to: FlowRuntime<C>.self).cancelRun(machine: $1, id: $2) },
      cancelRuns: { unsafeDowncast($0, to: FlowRuntime<C>.self).cancelRuns(machines: $1) })
    host.flow = self
  }

  /// What the layers that get states do with one, in layer order, as one function: a chain of
  /// closures, each calling the ones before it and then its layer's, which costs less than an
  /// array's element retains. A layer that can make its own link (``LayerNode/link``: one
  /// closure, made where its types are known) makes it; for the others the link is made here,
  /// once for any state, handing the state on by address. No layer gets the state once the flow
  /// stopped (a stop from inside an earlier layer).
  ///
  /// Consecutive layers of one mounted child are one link: their group reads the child's state
  /// out of the parent's once for all of them (see ``MountGroup``).
  @usableFromInline
  static func chain(_ layers: [LayerNode<C.State>], gate: StopGate) -> @Sendable (C.State) -> Void {
    var all: @Sendable (C.State) -> Void = { _ in }
    // One pass over the layers, each looked at once: a group's run of members that follow
    // each other is held until a layer that is not its next member ends it.
    var run: (first: MountGroupMember<C.State>, last: Int)?
    func endRun() {
      guard let (first, last) = run else { return }
      run = nil
      let (earlier, deliverRun, members) = (all, first.deliver, first.index..<last + 1)
      all = { state in
        earlier(state)
        if !gate.isStopped { deliverRun(state, members, gate) }
      }
    }
    for layer in layers {
      guard let deliver = layer.deliver else { continue }
      if let member = layer.member {
        if let (first, last) = run, member.group === first.group, member.index == last + 1 {
          run = (first, member.index)
          continue
        }
        endRun()
        run = (member, member.index)
        continue
      }
      endRun()
      let earlier = all
      if let link = layer.link {
        all = link(earlier, gate)
        continue
      }
      all = { state in
        earlier(state)
        if !gate.isStopped { deliver(state) }
      }
    }
    endRun()
    return all
  }

  deinit {
    // Stopped before its release (the usual end): nothing left to stop. Asked of the gate, not
    // the core, whose generic type this code would look up.
    if gate.isStopped { return }
    lock.withLock { $0.stop() }.complete()
    gate.stop()
  }

  /// The state now; `nil` until the reducer first sets one.
  @usableFromInline var state: C.State? { lock.withLock { $0.state } }

  /// Whether the flow was stopped.
  var isStopped: Bool { lock.withLock { $0.phase.isStopped } }

  /// Phase two: the first `process(nil)` of every machine, ahead of anything queued.
  @inlinable
  func start() {
    let mustDrain = lock.withLock { flow -> Bool in
      guard flow.phase == .created else { return false }
      flow.phase = .running
      flow.queue.insertNext(.start)
      return claimOrRecheck()
    }
    if mustDrain { drain() }
  }

  /// Sends an event to the reducer from outside the layers (a test, a driver, a command line).
  ///
  /// Safe from any thread. After ``stop()`` it is ignored.
  ///
  /// - Complexity: O(1) plus the reducer and, if it sets a state, every layer's delivery.
  @inlinable
  func send(_ event: C.Event) { handle(event, from: nil) }

  /// Reduces `event` (sent from outside, or by `run`'s work, or by a machine when `run` is
  /// `nil`) and delivers the state at once when nobody is handling the queue and the flow
  /// runs; queues it otherwise. Dropped once the flow stopped or the run ended.
  @inlinable
  func handle(_ event: C.Event, from run: Run<OwnedWorkID>?) {
    lock.lock()
    let locked = lock.value
    // Work's events ask their run; others only whether the flow stopped.
    if let run {
      if !locked.pointee.isLive(run) { return lock.unlock() }
    } else if locked.pointee.phase.isStopped {
      return lock.unlock()
    }
    // Only the lock's holders set the claim, so a claim found free stays free while it is held.
    if claim.load(ordering: .relaxed) != 0 || !locked.pointee.phase.isRunning {
      let mustDrain = enqueue(.event(event, from: run), in: locked)
      lock.unlock()
      if mustDrain { drain() }
      return
    }
    guard let state = locked.pointee.reduce(core, event) else { return lock.unlock() }
    // Callers waiting for idle now wait for finite work, which only ends through
    // `settledWaiters`: that asks this drain to look again, so none is missed here.
    claim.store(DrainClaim.draining, ordering: .relaxed)
    // Entered under the lock: a stop waits for this delivery (R6).
    let entered = gate.enter()
    lock.unlock()
    if entered {
      deliver(state)
      gate.leave()
    }
    // Nothing happened meanwhile: let go without the lock. Otherwise drain what came.
    if !claim.compareExchange(
      expected: DrainClaim.draining, desired: 0, ordering: .acquiringAndReleasing
    ).exchanged {
      drain()
    }
  }

  /// Queues `message` (the caller holds the lock); returns whether the caller must drain.
  @inlinable
  func enqueue(_ message: Message<C.Event>, in locked: UnsafeMutablePointer<FlowState<C>>)
    -> Bool
  {
    guard !locked.pointee.phase.isStopped else { return false }
    _ = locked.pointee.queue.append(message, mayDrain: false)
    return locked.pointee.phase.isRunning && claimOrRecheck()
  }

  /// Claims the drain if nobody has it, or asks the drainer to look at the queue and the
  /// waiters again before it lets go. Call it holding the lock; returns whether it claimed.
  @inlinable
  func claimOrRecheck() -> Bool {
    var current = claim.load(ordering: .relaxed)
    while true {
      let isFree = current & DrainClaim.draining == 0
      let (exchanged, found) = claim.compareExchange(
        expected: current, desired: isFree ? DrainClaim.draining : current | DrainClaim.recheck,
        ordering: .acquiringAndReleasing)
      if exchanged { return isFree }
      current = found
    }
  }

  /// The idle waiters to resume now (the caller holds the lock). While a drain is in progress
  /// the drainer is asked to look again before it lets go; once it has let go, idle is decided
  /// here.
  @inlinable
  func settledWaiters(_ flow: inout FlowState<C>) -> [CheckedContinuation<Void, Never>] {
    if flow.idleWaiters.isEmpty { return [] }
    if flow.phase.isStopped { return flow.idleWaiters.take(if: true) }
    if recheckIfDraining() { return [] }
    return flow.idleWaiters.take(if: flow.isIdle(draining: false))
  }

  /// Asks the drainer, if there is one, to look again; returns whether there was one.
  @inlinable
  func recheckIfDraining() -> Bool {
    var current = claim.load(ordering: .relaxed)
    while current & DrainClaim.draining != 0 {
      let (exchanged, found) = claim.compareExchange(
        expected: current, desired: current | DrainClaim.recheck,
        ordering: .acquiringAndReleasing)
      if exchanged { return true }
      current = found
    }
    return false
  }

  /// Stops the flow: running work is cancelled and what it sends later dropped, queued events
  /// are discarded, later events ignored.
  ///
  /// When `stop()` returns, nothing begins any more: no layer gets a state, no machine
  /// processes, and work wrapped in ``WhileRunning`` (a save, a log line) never begins. A
  /// delivery begun on another thread is waited for; called from inside one, `stop()` returns
  /// at once and no further layer is called once that one returns.
  @inlinable
  func stop() {
    lock.withLock { $0.stop() }.complete()
    gate.stop()
  }

  /// Returns when no event is queued or handled and no finite work runs. Work started with
  /// ``WorkLifetime/untilCancelled`` (a timer) does not count. Returns at once after ``stop()``.
  func idle() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      lock.withLock { flow in
        flow.idleWaiters.append(continuation)
        return settledWaiters(&flow)
      }.resumeAll()
    }
  }

  /// Hands `state` to every layer, in order.
  @inlinable
  func deliver(_ state: C.State) { deliverAll(state) }

  /// Goes on with the drain on a task of the flow's own, on its executor.
  @usableFromInline
  func handOverDrain() {
    Task(executorPreference: executor) { [weak self] in self?.drain() }
  }

  /// Handles the queue until it is empty. Only the caller that claimed the drain calls this.
  ///
  /// A caller handles at most `messagesPerTurn` events; then a task of the flow's own goes on
  /// with the rest, so `send` returns however fast events arrive (R6, progress).
  @inlinable
  func drain() {
    var handled = 0
    while true {
      lock.lock()
      let locked = lock.value
      // The drainer looks at everything now, so what asked for a second look is seen.
      claim.store(DrainClaim.draining, ordering: .relaxed)
      guard !locked.pointee.phase.isStopped, locked.pointee.queue.hasNext else {
        locked.pointee.queue.endDrain(keepingCapacity: !locked.pointee.phase.isStopped)
        claim.store(0, ordering: .releasing)
        let waiters = locked.pointee.idleWaiters.take(if: locked.pointee.isIdle(draining: false))
        lock.unlock()
        waiters.resumeAll()
        return
      }
      if handled == messagesPerTurn {
        // The drain stays claimed, for the flow's task.
        lock.unlock()
        return handOverDrain()
      }
      handled += 1
      let message = locked.pointee.queue.take()
      switch message {
      case .start:
        // The core's initial state, if it has one, follows every machine's first input.
        let initial = locked.pointee.state
        let entered = gate.enter()
        lock.unlock()
        guard entered else { continue }
        for start in starts where !gate.isStopped { start() }
        if let initial, !gate.isStopped { deliver(initial) }
        gate.leave()
      // Messages from work that was cancelled were removed from the queue with it; work that
      // finished after sending still counts.
      case .event(let event, _):
        guard let state = locked.pointee.reduce(core, event) else {
          lock.unlock()
          continue
        }
        let entered = gate.enter()
        lock.unlock()
        guard entered else { continue }
        deliver(state)
        gate.leave()
      case .job(let job, _):
        let entered = gate.enter()
        lock.unlock()
        guard entered else { continue }
        job()
        gate.leave()
      }
    }
  }

  // MARK: What machines call

  /// An event from a machine or its work: handled as one sent from outside is.
  @inlinable
  func receive(_ event: C.Event, from run: Run<OwnedWorkID>?) { handle(event, from: run) }

  @inlinable
  func isLive(_ run: Run<OwnedWorkID>?) -> Bool { lock.withLock { $0.isLive(run) } }

  @inlinable
  func enqueue(from run: Run<OwnedWorkID>?, _ job: @escaping @Sendable () -> Void) {
    lock.lock()
    let locked = lock.value
    let mustDrain = locked.pointee.isLive(run) && enqueue(.job(job, from: run), in: locked)
    lock.unlock()
    if mustDrain { drain() }
  }

  @inlinable
  func startRun(
    machine: Int, id: AnyWorkID?, lifetime: WorkLifetime,
    operation: @escaping @Sendable (Run<OwnedWorkID>) async -> Void
  ) {
    // A section until the task is filed: a stop meanwhile waits, then cancels it (R6).
    guard gate.enter() else { return }
    defer { gate.leave() }
    guard
      let (run, superseded) = lock.withLock({
        $0.start(machine: machine, id: id, isFinite: lifetime == .finite)
      })
    else { return }
    superseded?.cancel()
    started?(run.token, machine, id)
    // The task holds the flow weakly: only the callback inside `operation` refers to it. The
    // flow's gate is the work's: `WhileRunning` work never begins after stop (R6).
    let (workGate, executor) = (gate, executor)
    let task = startEffectTask(on: executor) { [weak self] in
      await workGate.scoping(executor: executor) { await operation(run) }
      self?.finish(run)
    }
    if !lock.withLock({ $0.runs.attach(task, to: run) }) { task.cancel() }
  }

  @inlinable
  func finish(_ run: Run<OwnedWorkID>) {
    lock.withLock { flow in
      flow.finish(run) ? settledWaiters(&flow) : []
    }.resumeAll()
  }

  @inlinable
  func cancelRuns(machines: ClosedRange<Int>) {
    let (tasks, waiters) = lock.withLock { flow in
      (flow.removeAll(machines: machines), settledWaiters(&flow))
    }
    for task in tasks { task.cancel() }
    waiters.resumeAll()
  }

  @inlinable
  func cancelRun(machine: Int, id: AnyWorkID) {
    let (task, waiters) = lock.withLock { flow in
      (
        flow.remove(.id(OwnedWorkID(owner: machine, id: id))),
        settledWaiters(&flow)
      )
    }
    task?.cancel()
    waiters.resumeAll()
  }
}

/// What a testing tool sees of a flow's layers: each input a layer's machine gets (after the
/// layer's mapper) and each event a layer emits (after its event mapper), by layer index.
@usableFromInline
package struct FlowMonitor<Event>: Sendable {
  @usableFromInline package var received: @Sendable (_ layer: Int, _ input: any Sendable) -> Void
  @usableFromInline package var emitted: @Sendable (_ layer: Int, _ event: Event) -> Void
  /// What happens to each child of a layer that has children.
  @usableFromInline package var children: ChildMonitor?
  /// Work a machine started: its run's token, the machine and the work's id (`nil`: none).
  @usableFromInline package var started:
    (@Sendable (_ run: Int, _ machine: Int, _ id: AnyWorkID?) -> Void)?

  package init(
    received: @escaping @Sendable (Int, any Sendable) -> Void,
    emitted: @escaping @Sendable (Int, Event) -> Void,
    children: ChildMonitor? = nil,
    started: (@Sendable (Int, Int, AnyWorkID?) -> Void)? = nil
  ) {
    self.received = received
    self.emitted = emitted
    self.children = children
    self.started = started
  }
}

/// What a testing tool sees of the children of the layers that have them — a presented layer's
/// presentations, a `forEach` layer's rows — by layer index and child: a row by its id, a
/// presentation by its number (the first is 1).
@usableFromInline
package struct ChildMonitor: Sendable {
  /// A child's machine was made; its work is filed under `machines` (`nil`: it has none).
  @usableFromInline package var presented:
    @Sendable (_ layer: Int, _ child: AnyWorkID, _ machines: ClosedRange<Int>?) -> Void
  /// A child's machine got `input`.
  @usableFromInline package var received:
    @Sendable (_ layer: Int, _ child: AnyWorkID, _ input: any Sendable) -> Void
  /// A child's machine sent `output`, in its own type (before the layer maps it to an event).
  @usableFromInline package var emitted:
    @Sendable (_ layer: Int, _ child: AnyWorkID, _ output: any Sendable) -> Void
  /// A child was dismissed: its machine dropped, its work cancelled.
  @usableFromInline package var dismissed: @Sendable (_ layer: Int, _ child: AnyWorkID) -> Void

  package init(
    presented: @escaping @Sendable (Int, AnyWorkID, ClosedRange<Int>?) -> Void,
    received: @escaping @Sendable (Int, AnyWorkID, any Sendable) -> Void,
    emitted: @escaping @Sendable (Int, AnyWorkID, any Sendable) -> Void,
    dismissed: @escaping @Sendable (Int, AnyWorkID) -> Void
  ) {
    self.presented = presented
    self.received = received
    self.emitted = emitted
    self.dismissed = dismissed
  }

  /// This monitor for the children of layer `layer`.
  @usableFromInline
  func tap(layer: Int) -> ChildTap {
    ChildTap(
      presented: { presented(layer, $0, $1) }, received: { received(layer, $0, $1) },
      emitted: { emitted(layer, $0, $1) }, dismissed: { dismissed(layer, $0) })
  }
}

/// A ``ChildMonitor`` bound to one layer: what a layer with children tells about them.
@usableFromInline
struct ChildTap: Sendable {
  @usableFromInline let presented: @Sendable (AnyWorkID, ClosedRange<Int>?) -> Void
  @usableFromInline let received: @Sendable (AnyWorkID, any Sendable) -> Void
  @usableFromInline let emitted: @Sendable (AnyWorkID, any Sendable) -> Void
  @usableFromInline let dismissed: @Sendable (AnyWorkID) -> Void

  @usableFromInline
  init(
    presented: @escaping @Sendable (AnyWorkID, ClosedRange<Int>?) -> Void,
    received: @escaping @Sendable (AnyWorkID, any Sendable) -> Void,
    emitted: @escaping @Sendable (AnyWorkID, any Sendable) -> Void,
    dismissed: @escaping @Sendable (AnyWorkID) -> Void
  ) {
    self.presented = presented
    self.received = received
    self.emitted = emitted
    self.dismissed = dismissed
  }

  /// `sink`, telling this tap first what child `child` sends while it still arrives (not
  /// what the work of a dismissed child sends late, which the flow drops).
  @usableFromInline
  func sink<Output: Sendable>(
    _ sink: Sink<Output>, of child: AnyWorkID, host: WeakHost
  ) -> Sink<Output> {
    let emitted = self.emitted
    return Sink { output, run in
      if host.host?.isLive(run) ?? false { emitted(child, output) }
      sink.send(output, run)
    }
  }
}

/// The values of a flow's drain claim.
@usableFromInline
enum DrainClaim {
  /// A caller is handling the queue.
  @usableFromInline static let draining = 1
  /// Something happened that the drainer must look at before it lets go.
  @usableFromInline static let recheck = 2
}
