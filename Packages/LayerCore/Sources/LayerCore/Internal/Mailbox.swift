/// A node set after the machine that refers to it is built (``Machine/redirect(_:)``).
final class NodeReference<Input>: @unchecked Sendable {
  // @unchecked: `node` is set once while the flow is wired, before any output can be sent.
  var node: Node<Input>?
  init() {}
}

/// The calls waiting for a machine on ``MachineQueue/new`` or ``MachineQueue/main``; they run
/// as the flow's work, one at a time, in order (on the main actor for `.main`).
///
/// A call waits as a function, its input inside: the mailbox is the same type for every
/// machine, so queueing and taking a call runs no generic code (which would look up the type
/// metadata of the machine's input, and of the arrays and optionals of it, on every call).
@usableFromInline
final class Mailbox: Sendable {
  private let onMainActor: Bool
  private let calls = Lock<(waiting: [@Sendable () -> Void], isRunning: Bool)>(([], false))

  @usableFromInline
  init(onMainActor: Bool = false) {
    self.onMainActor = onMainActor
  }

  @usableFromInline
  func post(_ call: @escaping @Sendable () -> Void, host: WeakHost) {
    let mustRun = calls.withLock { calls -> Bool in
      calls.waiting.append(call)
      guard !calls.isRunning else { return false }
      calls.isRunning = true
      return true
    }
    guard mustRun else { return }
    // The task holds the flow weakly, like all work: a released flow is freed mid-drain.
    if onMainActor {
      host.host?.startMainActorRun(machine: 0) { [self] run in deliver(run, host) }
    } else {
      host.host?.startRun(machine: 0, id: nil, lifetime: .finite) { [self] run in
        deliver(run, host)
      }
    }
  }

  /// Makes every call waiting, as long as the flow runs. Each call is a section of the flow's
  /// stop gate, as the flow's own deliveries are: on the main actor (or wherever this task
  /// runs), a `stop()` on another thread either waits for the call or the call never begins
  /// (R6).
  private func deliver(_ run: Run<OwnedWorkID>, _ host: WeakHost) {
    while let call = next() {
      guard let gate = host.gate, gate.enter() else { continue }
      if host.host?.isLive(run) == true { call() }
      gate.leave()
    }
  }

  private func next() -> (@Sendable () -> Void)? {
    calls.withLock { calls in
      guard !calls.waiting.isEmpty else {
        calls.isRunning = false
        return nil
      }
      return calls.waiting.removeFirst()
    }
  }
}
