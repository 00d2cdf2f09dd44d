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
  @usableFromInline let process: @Sendable (Input) -> Void
  /// Delivers the first `process(nil)` to every child machine below.
  @usableFromInline let start: @Sendable () -> Void

  @inlinable
  init(process: @escaping @Sendable (Input) -> Void, start: @escaping @Sendable () -> Void) {
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
final class MachineIDs: Sendable {
  private let last = Lock(0)

  /// A new id.
  func next() -> Int {
    last.withLock { last in
      last += 1
      return last
    }
  }

  /// The last id handed out.
  var peek: Int { last.withLock { $0 } }
}

/// The flow, held weakly by everything a machine keeps (its callback, its work).
@usableFromInline
final class WeakHost: @unchecked Sendable {
  // @unchecked: `host` is set once, by the flow's initializer, before the flow is shared.
  @usableFromInline weak var host: (any FlowHost)?
  init() {}
}

/// A node set after the machine that refers to it is built (``Machine/redirect(_:)``).
final class NodeReference<Input>: @unchecked Sendable {
  // @unchecked: `node` is set once while the flow is wired, before any output can be sent.
  var node: Node<Input>?
  init() {}
}

/// What machines' callbacks and work talk to: the flow, type-erased.
@usableFromInline
protocol FlowHost: AnyObject, Sendable {
  /// Whether outputs from `run` (`nil`: from `process`) still arrive.
  func isLive(_ run: Run<OwnedWorkID>?) -> Bool
  /// Queues `job` behind what the flow is handling, if `run` is live.
  func enqueue(from run: Run<OwnedWorkID>?, _ job: @escaping @Sendable () -> Void)
  func startRun(
    machine: Int, id: AnyWorkID?, lifetime: WorkLifetime,
    operation: @escaping @Sendable (Run<OwnedWorkID>) async -> Void)
  func cancelRun(machine: Int, id: AnyWorkID)
  /// Cancels all work of the machines in `machines` (a list element's, when it leaves).
  func cancelRuns(machines: ClosedRange<Int>)
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
