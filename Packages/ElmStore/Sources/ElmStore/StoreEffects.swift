#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension StoreRuntime: EffectHost {
  @usableFromInline var isOwner: Bool { true }

  @usableFromInline
  func currentState() -> Any? {
    withCore { core in core.phase.isStopped ? nil : core.state as Any }
  }

  @inlinable
  func deliver(_ action: Action, from origin: Run<AnyWorkID>) {
    let mustDrain = withCore { core in
      core.isLive(origin) ? core.enqueue(.action(action, from: origin), claim) : false
    }
    if mustDrain { drain() }
  }

  // The conformance is generic code: what it does for an effect runs through functions the
  // store made where its types are known (`calls`), where it can, not here, where each access
  // to the store's core looks up its type's metadata.
  @usableFromInline
  func isLive(_ origin: Run<AnyWorkID>) -> Bool {
    calls.isLive(origin)
  }

  @usableFromInline
  func cancel(_ key: RunKey<AnyWorkID>) { calls.cancel(key) }

  /// Whether what `origin` sends still arrives.
  @inlinable
  func isLiveNow(_ origin: Run<AnyWorkID>) -> Bool {
    withCore { $0.isLive(origin) }
  }

  // Not through `calls`: the operation and handler passed on from generic code would be
  // wrapped in a thunk each (an allocation per effect).
  @usableFromInline
  func start(
    _ key: RunKey<AnyWorkID>?, lifetime: EffectLifetime, keepsRunning: Bool,
    operation: @escaping @Sendable (Send<Action>) async throws -> Void,
    catch handler: (@Sendable (any Error, Send<Action>) -> Void)?
  ) {
    // A section until the task is filed: a stop meanwhile waits, then cancels it (R6).
    guard gate.enter() else { return }
    defer { gate.leave() }
    // The core is reached through `calls` (see `isLive`); the task is made here, where the
    // operation is (passed on to a function made for the store's types, it would be wrapped).
    let calls = self.calls
    guard let (run, superseded) = calls.startRun(key, lifetime == .finite, !keepsRunning)
    else { return }
    superseded?.cancel()
    if monitor != nil {
      startLog?.withLock { $0?.append(StartedRun(run: run, key: key)) }
    }
    let send = Send(
      host: self, deliver: calls.deliver, origin: run, gate: gate, executor: executor)
    let (workGate, executor) = (gate, executor)
    // The store's gate is the run's: `WhileRunning` work never begins after stop (R6).
    let task = workGate.startTask(on: executor) {
      do {
        try await operation(send)
      } catch is CancellationError {
      } catch {
        if let handler { handler(error, send) } else { reportUnhandled(error) }
      }
      calls.finishRun(run)
    }
    if !calls.attach(task, run) { task.cancel() }
  }

  @usableFromInline
  func cancelAll(where matches: @escaping @Sendable (RunKey<AnyWorkID>) -> Bool) {
    let (tasks, waiters) = withCore { core in
      (
        core.runs.keys(where: matches).compactMap { core.remove($0) },
        core.settledWaiters(claim)
      )
    }
    for task in tasks { task.cancel() }
    waiters.resumeAll()
  }

  /// Cancels the work filed under `key`.
  @inlinable
  func cancelNow(_ key: RunKey<AnyWorkID>) {
    let (task, waiters) = withCore { core in
      (core.remove(key), core.settledWaiters(claim))
    }
    task?.cancel()
    waiters.resumeAll()
  }
}

/// Reports an error no `catch:` handler took; never silently swallowed.
private func reportUnhandled(_ error: any Error) {
  let message =
    "ElmStore: an effect threw \(error) and has no catch handler; pass `catch:` to "
    + "turn errors into actions.\n"
  var bytes = Array(message.utf8)
  _ = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
}
