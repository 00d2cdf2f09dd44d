import Synchronization

/// Where a wired machine's outputs go, with the work that sent them (`nil` from `process`).
@usableFromInline
struct Sink<Output>: Sendable {
  @usableFromInline let body: @Sendable (Output, Run<OwnedWorkID>?) -> Void

  @inlinable
  init(_ body: @escaping @Sendable (Output, Run<OwnedWorkID>?) -> Void) { self.body = body }

  @inlinable
  func send(_ output: Output, _ run: Run<OwnedWorkID>?) { body(output, run) }
}

/// A wired machine: what its parent calls.
@usableFromInline
struct Node<Input>: Sendable {
  /// Processes one input.
  @usableFromInline let process: @Sendable (consuming Input) -> Void
  /// Delivers the first `process(nil)` to every child machine below.
  @usableFromInline let start: @Sendable () -> Void

  @inlinable
  init(
    process: @escaping @Sendable (consuming Input) -> Void, start: @escaping @Sendable () -> Void
  ) {
    self.process = process
    self.start = start
  }

  /// A node whose calls wait in `mailbox` and run as the flow's work, one at a time.
  @usableFromInline
  init(mailbox: Mailbox<Input>, host: WeakHost) {
    process = { input in mailbox.post(.input(input), host: host) }
    start = { mailbox.post(.start, host: host) }
  }
}

/// What a machine is wired with: where its outputs go, and the flow.
@usableFromInline
struct Wiring<Output> {
  @usableFromInline let sink: Sink<Output>
  @usableFromInline let host: WeakHost
  let ids: MachineIDs
  /// Reads the input the machine would get now (the flow's state, mapped by the machine's
  /// layer), for a machine that looks at it only now and then instead of keeping the last one;
  /// `nil` where the machine is not a layer's own (inside a composition).
  @usableFromInline let reader: InputReading?

  @usableFromInline
  init(sink: Sink<Output>, host: WeakHost, ids: MachineIDs, reader: InputReading? = nil) {
    self.sink = sink
    self.host = host
    self.ids = ids
    self.reader = reader
  }

  /// The same wiring with outputs going to `sink`.
  func sending<Other>(_ sink: Sink<Other>) -> Wiring<Other> {
    Wiring<Other>(sink: sink, host: host, ids: ids)
  }

  /// A new id for a child machine, naming its work.
  @usableFromInline
  func makeMachineID() -> Int { ids.next() }
}

/// Numbers the child machines of one flow: while it is wired, and later for the machines of
/// list elements that join.
@usableFromInline
final class MachineIDs: Sendable {
  @usableFromInline let last = Atomic(0)

  @inlinable init() {}

  /// A new id.
  @inlinable
  func next() -> Int { last.add(1, ordering: .relaxed).newValue }

  /// The last id handed out.
  var peek: Int { last.load(ordering: .relaxed) }
}

/// The flow, held weakly by everything a machine keeps (its callback, its work).
@usableFromInline
final class WeakHost: @unchecked Sendable {
  // @unchecked: `flow` and `calls` are set once, by the flow's initializer, before the flow is
  // shared; `mountGroups` is used only while the flow is wired, by the code that makes it.
  @exclusivity(unchecked) @usableFromInline weak var flow: AnyObject?
  @exclusivity(unchecked) @usableFromInline var calls: HostCalls?
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
/// every call.
@usableFromInline
struct HostCalls: Sendable {
  @usableFromInline let isLive: @Sendable (AnyObject, Run<OwnedWorkID>?) -> Bool
  @usableFromInline let enqueue:
    @Sendable (AnyObject, Run<OwnedWorkID>?, @escaping @Sendable () -> Void) -> Void
  @usableFromInline let startRun:
    @Sendable (
      AnyObject, Int, AnyWorkID?, WorkLifetime,
      @escaping @Sendable (Run<OwnedWorkID>) async -> Void
    ) -> Void
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
    cancelRun: @escaping @Sendable (AnyObject, Int, AnyWorkID) -> Void,
    cancelRuns: @escaping @Sendable (AnyObject, ClosedRange<Int>) -> Void
  ) {
    self.isLive = isLive
    self.enqueue = enqueue
    self.startRun = startRun
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

  @inlinable
  func cancelRun(machine: Int, id: AnyWorkID) { calls.cancelRun(flow, machine, id) }

  /// Cancels all work of the machines in `machines` (a list element's, when it leaves).
  @inlinable
  func cancelRuns(machines: ClosedRange<Int>) { calls.cancelRuns(flow, machines) }
}

/// A node set after the machine that refers to it is built (``Machine/redirect(_:)``).
final class NodeReference<Input>: @unchecked Sendable {
  // @unchecked: `node` is set once while the flow is wired, before any output can be sent.
  var node: Node<Input>?
  init() {}
}

/// The calls waiting for a machine on ``MachineQueue/new`` or ``MachineQueue/main``; they run
/// as the flow's work, one at a time, in order (on the main actor for `.main`).
@usableFromInline
final class Mailbox<Input>: Sendable {
  enum Call {
    case start
    case input(Input)
  }

  private let node: Node<Input>
  private let onMainActor: Bool
  private let calls = Lock<(waiting: [Call], isRunning: Bool)>(([], false))

  @usableFromInline
  init(_ node: Node<Input>, onMainActor: Bool = false) {
    self.node = node
    self.onMainActor = onMainActor
  }

  func post(_ call: Call, host: WeakHost) {
    let mustRun = calls.withLock { calls -> Bool in
      calls.waiting.append(call)
      guard !calls.isRunning else { return false }
      calls.isRunning = true
      return true
    }
    guard mustRun else { return }
    // The task holds the flow weakly, like all work: a released flow is freed mid-drain.
    host.host?.startRun(machine: 0, id: nil, lifetime: .finite) { [self] run in
      if onMainActor {
        await MainActor.run { self.deliver(run, host) }
      } else {
        deliver(run, host)
      }
    }
  }

  /// Calls the machine with every call waiting, as long as the flow runs.
  private func deliver(_ run: Run<OwnedWorkID>, _ host: WeakHost) {
    while let call = next() {
      guard host.host?.isLive(run) == true else { continue }
      switch call {
      case .start: node.start()
      case .input(let input): node.process(input)
      }
    }
  }

  private func next() -> Call? {
    calls.withLock { calls in
      guard !calls.waiting.isEmpty else {
        calls.isRunning = false
        return nil
      }
      return calls.waiting.removeFirst()
    }
  }
}
