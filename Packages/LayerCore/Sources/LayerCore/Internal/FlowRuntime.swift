/// The engine of a ``Flow``: everything but the user's reference. Machines, their work and
/// the layers' routes hold it weakly and deliver through it; when the last ``Flow`` reference
/// goes, the flow's `deinit` stops it, even while work is handing it an event (R6 release).
@usableFromInline
final class FlowRuntime<C: Core>: Sendable {
  @usableFromInline let lock: Lock<FlowCore<C>>
  /// Who handles the queue. A send that reduced under the lock and delivered outside it gives
  /// the drain back without the lock when nothing happened meanwhile: it takes the lock once.
  @usableFromInline let claim = DrainClaim()
  @usableFromInline let core: C
  /// What the layers that get states do with a new one, in layer order, as one function: a
  /// chain of closures calls each layer's without the retain and release an array's element
  /// costs.
  @usableFromInline let deliverAll: @Sendable (C.State) -> Void
  /// Whether any layer gets states: with none, a send reduces under the lock and is done (no
  /// drain claimed, no gate entered, no empty chain called).
  @usableFromInline let delivers: Bool
  /// Where the state sits in the lock's ``FlowCore`` (see ``deliverReduced(in:)``).
  @usableFromInline let stateOffset: Int
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
    lock = Lock(FlowCore(state: core.initialState))
    stateOffset = MemoryLayout<FlowCore<C>>.offset(of: \FlowCore<C>.state)!
    let host = WeakHost()
    host.gate = gate
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
    delivers = layers.contains { $0.deliver != nil }
    starts = layers.map { $0.start }
    host.calls = HostCalls(
      isLive: { unsafeDowncast($0, to: FlowRuntime<C>.self).isLive($1) },
      enqueue: { unsafeDowncast($0, to: FlowRuntime<C>.self).enqueue(from: $1, $2) },
      startRun: {
        unsafeDowncast($0, to: FlowRuntime<C>.self).startRun(
          machine: $1, id: $2, lifetime: $3, operation: $4)
      },
      startMainActorRun: {
        unsafeDowncast($0, to: FlowRuntime<C>.self).startMainActorRun(machine: $1, operation: $2)
      },
      cancelRun: { unsafeDowncast($0, to: FlowRuntime<C>.self).cancelRun(machine: $1, id: $2) },
      cancelRuns: { unsafeDowncast($0, to: FlowRuntime<C>.self).cancelRuns(machines: $1) })
    host.flow = self
  }

  /// What the layers that get states do with one, in layer order, as one function: a chain of
  /// closures, each calling the ones before it and then its layer's, which costs less than an
  /// array's element retains. A layer that can make its own link (``LayerNode/Chaining/link(_:)``: one
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
      if case .member(let member) = layer.chaining {
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
      if case .link(let link) = layer.chaining {
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
  @inlinable var state: C.State? { lock.withLock { $0.state } }

  /// Whether the flow was stopped.
  var isStopped: Bool { lock.withLock { $0.phase.isStopped } }

  /// ``Flow/start()``: queues phase two ahead of anything queued, and drains if nobody does.
  @inlinable
  func start() {
    let mustDrain = lock.withLock { flow -> Bool in
      guard flow.phase == .created else { return false }
      flow.phase = .running
      flow.queue.insertNext(.start)
      return claim.claim()
    }
    if mustDrain { drain() }
  }

  /// ``Flow/send(_:)``: an event from outside the layers.
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
    // Only the lock's holders claim the drain, so one found free stays free while it is held.
    if claim.isHeld || !locked.pointee.phase.isRunning {
      let mustDrain = enqueue(.event(event, from: run), in: locked)
      lock.unlock()
      if mustDrain { drain() }
      return
    }
    guard locked.pointee.reduce(core, event), delivers else { return lock.unlock() }
    // Callers waiting for idle now wait for finite work, which only ends through
    // `settledWaiters`: that asks this drain to look again, so none is missed here.
    claim.hold()
    // Entered under the lock: a stop waits for this delivery (R6).
    let entered = gate.enter()
    lock.unlock()
    if entered {
      deliverReduced(in: locked)
      gate.leave()
    }
    // Nothing happened meanwhile: let go without the lock. Otherwise drain what came.
    if !claim.release() { drain() }
  }

  /// Queues `message` (the caller holds the lock); returns whether the caller must drain.
  @inlinable
  func enqueue(_ message: Message<C.Event>, in locked: UnsafeMutablePointer<FlowCore<C>>)
    -> Bool
  {
    guard !locked.pointee.phase.isStopped else { return false }
    _ = locked.pointee.queue.append(message, claiming: claim, mayDrain: false)
    return locked.pointee.phase.isRunning && claim.claim()
  }

  /// The idle waiters to resume now (the caller holds the lock); while a drain is in progress
  /// none, and the drainer is asked to look again before it lets go.
  @inlinable
  func settledWaiters(_ flow: inout FlowCore<C>) -> [CheckedContinuation<Void, Never>] {
    if flow.phase.isStopped { return flow.idleWaiters.take(if: true) }
    return flow.idleWaiters.settled(isIdle: flow.isIdle(draining: false), drain: claim)
  }

  /// ``Flow/stop()``: the state stops under the lock (work cancelled, the queue dropped), then
  /// the gate closes and waits for the sections begun on other threads.
  @inlinable
  func stop() {
    lock.withLock { $0.stop() }.complete()
    gate.stop()
  }

  /// ``Flow/idle()``: waits, resumed by whoever settles the flow last.
  func idle() async {
    await lock.waitUntilIdle(
      drain: claim, isIdle: { $0.isIdle(draining: false) }, waiters: { $1(&$0.idleWaiters) })
  }

  /// Hands `state` to every layer, in order.
  @inlinable
  func deliver(_ state: C.State) { deliverAll(state) }

  /// Hands the state the reducer just set to every layer, read where the flow keeps it rather
  /// than copied out (a copy retains everything the state holds, and releases it after). The
  /// caller holds the drain, and only the drain's holder changes the state (under the lock), so
  /// it stays as it is until the layers are done; anyone else reads it under the lock.
  ///
  /// Read through a plain address, not an access to the core: another thread's access to the
  /// whole core (queueing an event, under the lock) is, for ThreadSanitizer, an access that an
  /// `inout` of the state outside the lock would overlap. The address is the optional's
  /// payload's, which an optional keeps at its start (Swift's layout of single-payload enums):
  /// unwrapped with `!`, the state would be copied, and so it would be read as `pointee` to be
  /// handed on (see ``Lender``).
  @inlinable
  func deliverReduced(in locked: UnsafeMutablePointer<FlowCore<C>>) {
    let state = (UnsafeRawPointer(locked) + stateOffset).assumingMemoryBound(to: C.State.self)
    Lender.lend(at: state, deliverAll)
  }

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
      guard !locked.pointee.phase.isStopped, locked.pointee.queue.hasNext else {
        let waiters = locked.pointee.endDrain(claim)
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
      let message = locked.pointee.queue.next()
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
        guard locked.pointee.reduce(core, event) else {
          lock.unlock()
          continue
        }
        let entered = gate.enter()
        lock.unlock()
        guard entered else { continue }
        deliverReduced(in: locked)
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
    // The task holds the flow weakly: only the callback inside `operation` refers to it. The
    // flow's gate is the work's, for all of its task: `WhileRunning` work never begins after
    // stop (R6).
    let (workGate, executor) = (gate, executor)
    file(machine: machine, id: id, isFinite: lifetime == .finite) { run in
      workGate.startTask(on: executor) { [weak self] in
        await operation(run)
        self?.finish(run, of: machine)
      }
    }
  }

  /// Files a new run of `machine` and the task `makeTask` starts for it. A section of the stop
  /// gate until the task is filed: a stop meanwhile waits, then cancels it (R6).
  @inlinable
  func file(
    machine: Int, id: AnyWorkID?, isFinite: Bool,
    _ makeTask: (Run<OwnedWorkID>) -> Task<Void, Never>
  ) {
    guard gate.enter() else { return }
    defer { gate.leave() }
    guard
      let (run, superseded) = lock.withLock({
        $0.start(machine: machine, id: id, isFinite: isFinite)
      })
    else { return }
    superseded?.cancel()
    started?(run.token, machine, id)
    let task = makeTask(run)
    if !lock.withLock({ $0.runs.attach(task, to: run) }) { task.cancel() }
  }

  /// Starts `operation` on the main actor as finite work of `machine`: one task that runs there
  /// at once, for a machine whose calls run on the main actor (``MachineQueue/main``). An effect
  /// task would begin elsewhere and then hop to the main actor, and back again to finish.
  @inlinable
  func startMainActorRun(
    machine: Int, operation: @escaping @MainActor @Sendable (Run<OwnedWorkID>) -> Void
  ) {
    // `operation` enters the gate again for each call it makes.
    file(machine: machine, id: nil, isFinite: true) { run in
      Task { @MainActor [weak self] in
        operation(run)
        self?.finish(run, of: machine)
      }
    }
  }

  @inlinable
  func finish(_ run: Run<OwnedWorkID>, of machine: Int) {
    lock.withLock { flow in
      flow.finish(run, of: machine) ? settledWaiters(&flow) : []
    }.resumeAll()
  }

  @inlinable
  func cancelRuns(machines: ClosedRange<Int>) {
    let (tasks, waiters) = lock.withLock { flow in
      (flow.removeAll(machines: machines), settledWaiters(&flow))
    }
    tasks.cancelAll()
    waiters.resumeAll()
  }

  @inlinable
  func cancelRun(machine: Int, id: AnyWorkID) {
    let (task, waiters) = lock.withLock { flow in
      (
        flow.remove(.id(OwnedWorkID(owner: machine, id: id)), of: machine),
        settledWaiters(&flow)
      )
    }
    task?.cancel()
    waiters.resumeAll()
  }
}
