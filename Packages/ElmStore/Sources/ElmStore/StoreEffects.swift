#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension Store: EffectHost {
  @usableFromInline
  func currentState() -> Any? {
    withCore { core in core.isStopped ? nil : core.state as Any }
  }

  @usableFromInline
  func deliver(_ action: Action, from origin: Origin) {
    let mustDrain = withCore { core in
      core.isLive(origin) ? core.enqueue(.action(action, from: origin)) : false
    }
    if mustDrain { drain() }
  }

  @usableFromInline
  func isLive(_ origin: Origin) -> Bool {
    withCore { $0.isLive(origin) }
  }

  @usableFromInline
  func start(
    _ key: EffectKey?, lifetime: EffectLifetime, keepsRunning: Bool,
    operation: @escaping @Sendable (Send<Action>) async throws -> Void,
    catch handler: (@Sendable (any Error, Send<Action>) -> Void)?
  ) {
    guard
      let (key, token, superseded) = withCore({
        $0.register(key, isFinite: lifetime == .finite, keepsRunning: keepsRunning)
      })
    else { return }
    superseded?.cancel()
    let origin = Origin(key: key, token: token)
    let send = Send(host: self, origin: origin)
    let task = Task(executorPreference: executor) { [weak self] in
      do {
        try await operation(send)
      } catch is CancellationError {
      } catch {
        if let handler { handler(error, send) } else { reportUnhandled(error) }
      }
      guard let self else { return }
      let waiters = self.withCore { $0.finish(key, token: token) }
      for waiter in waiters { waiter.resume() }
    }
    if !withCore({ $0.attach(task, to: key, token: token) }) { task.cancel() }
  }

  @usableFromInline
  func cancelAll(where matches: @escaping @Sendable (EffectKey) -> Bool) {
    let (tasks, waiters) = withCore { core in
      (core.effects.keys.filter(matches).compactMap { core.remove($0) }, core.takeIdleWaiters())
    }
    for task in tasks { task.cancel() }
    for waiter in waiters { waiter.resume() }
  }

  @usableFromInline
  func cancel(_ key: EffectKey) {
    let (task, waiters) = withCore { core in (core.remove(key), core.takeIdleWaiters()) }
    task?.cancel()
    for waiter in waiters { waiter.resume() }
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
