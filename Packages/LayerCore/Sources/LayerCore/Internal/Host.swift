/// The flow, held weakly by everything a machine keeps (its callback, its work).
@usableFromInline
final class WeakHost: @unchecked Sendable {
  // @unchecked: `flow`, `calls` and `gate` are set once, by the flow's initializer, before the
  // flow is shared; `mountGroups` is used only while the flow is wired, by the code that makes it.
  @exclusivity(unchecked) @usableFromInline weak var flow: AnyObject?
  @exclusivity(unchecked) @usableFromInline var calls: HostCalls?
  /// The flow's stop gate: what a machine's own mailbox calls it inside (held strongly: it
  /// refers to nothing).
  @exclusivity(unchecked) @usableFromInline var gate: StopGate?
  /// The flow's mounted children's delivery groups (see ``MountGroup``).
  @exclusivity(unchecked) @usableFromInline var mountGroups = MountGroups()
  @inlinable init() {}

  /// The flow, while it exists.
  @inlinable
  var host: HostHandle? {
    guard let flow, let calls else { return nil }
    return HostHandle(flow: flow, calls: calls)
  }
}

/// What machines' callbacks and work call on the flow, as functions made where the flow's types
/// are known: through a protocol they would run as generic code, looking up type metadata on
/// every call. A class: a ``HostHandle`` is made for each call a machine makes on the flow, and
/// a copy of six closures is six retains (and six releases), a copy of this one.
@usableFromInline
final class HostCalls: Sendable {
  @usableFromInline let isLive: @Sendable (AnyObject, Run<OwnedWorkID>?) -> Bool
  @usableFromInline let enqueue:
    @Sendable (AnyObject, Run<OwnedWorkID>?, @escaping @Sendable () -> Void) -> Void
  @usableFromInline let startRun:
    @Sendable (
      AnyObject, Int, AnyWorkID?, WorkLifetime,
      @escaping @Sendable (Run<OwnedWorkID>) async -> Void
    ) -> Void
  @usableFromInline let startMainActorRun:
    @Sendable (AnyObject, Int, @escaping @MainActor @Sendable (Run<OwnedWorkID>) -> Void) -> Void
  @usableFromInline let cancelRun: @Sendable (AnyObject, Int, AnyWorkID) -> Void
  @usableFromInline let cancelRuns: @Sendable (AnyObject, ClosedRange<Int>) -> Void

  @inlinable
  init(
    isLive: @escaping @Sendable (AnyObject, Run<OwnedWorkID>?) -> Bool,
    enqueue:
      @escaping @Sendable (AnyObject, Run<OwnedWorkID>?, @escaping @Sendable () -> Void) ->
      Void,
    startRun:
      @escaping @Sendable (
        AnyObject, Int, AnyWorkID?, WorkLifetime,
        @escaping @Sendable (Run<OwnedWorkID>) async -> Void
      ) -> Void,
    startMainActorRun:
      @escaping @Sendable (
        AnyObject, Int, @escaping @MainActor @Sendable (Run<OwnedWorkID>) -> Void
      ) -> Void,
    cancelRun: @escaping @Sendable (AnyObject, Int, AnyWorkID) -> Void,
    cancelRuns: @escaping @Sendable (AnyObject, ClosedRange<Int>) -> Void
  ) {
    self.isLive = isLive
    self.enqueue = enqueue
    self.startRun = startRun
    self.startMainActorRun = startMainActorRun
    self.cancelRun = cancelRun
    self.cancelRuns = cancelRuns
  }
}

/// The flow, held strongly for one call.
@usableFromInline
struct HostHandle {
  @usableFromInline let flow: AnyObject
  @usableFromInline let calls: HostCalls

  @inlinable
  init(flow: AnyObject, calls: HostCalls) {
    self.flow = flow
    self.calls = calls
  }

  /// Whether outputs from `run` (`nil`: from `process`) still arrive.
  @inlinable
  func isLive(_ run: Run<OwnedWorkID>?) -> Bool { calls.isLive(flow, run) }

  /// Queues `job` behind what the flow is handling, if `run` is live.
  @inlinable
  func enqueue(from run: Run<OwnedWorkID>?, _ job: @escaping @Sendable () -> Void) {
    calls.enqueue(flow, run, job)
  }

  @inlinable
  func startRun(
    machine: Int, id: AnyWorkID?, lifetime: WorkLifetime,
    operation: @escaping @Sendable (Run<OwnedWorkID>) async -> Void
  ) {
    calls.startRun(flow, machine, id, lifetime, operation)
  }

  /// Starts `operation` on the main actor as finite work of `machine`.
  @inlinable
  func startMainActorRun(
    machine: Int, _ operation: @escaping @MainActor @Sendable (Run<OwnedWorkID>) -> Void
  ) {
    calls.startMainActorRun(flow, machine, operation)
  }

  @inlinable
  func cancelRun(machine: Int, id: AnyWorkID) { calls.cancelRun(flow, machine, id) }

  /// Cancels all work of the machines in `machines` (a list element's, when it leaves).
  @inlinable
  func cancelRuns(machines: ClosedRange<Int>) { calls.cancelRuns(flow, machines) }
}
