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
  ///
  /// Inlinable, so that it is compiled for the core's types: as generic code, each read
  /// looked up the type metadata of the flow's guarded state (about 250 instructions).
  @inlinable
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
