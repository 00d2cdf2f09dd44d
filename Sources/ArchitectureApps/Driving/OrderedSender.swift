import Kernel

/// Hands intents, in the order sent, to an asynchronous `send` (an actor store's), from the
/// synchronous ``AppDriver/send(_:)`` the kit calls; and tells when every intent handed over
/// has been delivered, for ``AppDriver/idle()``.
///
/// The deliveries run on one task that prefers the environment's executor, so the kit's
/// settling sees them like any other effect.
///
/// ```swift
/// struct ActorCounterDriver: AppDriver {
///   let store: CounterActor
///   let sender: OrderedSender<CounterIntent>
///   init(environment: CounterEnvironment) {
///     let store = CounterActor(environment)
///     self.store = store
///     sender = OrderedSender(executor: environment.executor) { await store.send($0) }
///   }
///   func send(_ intent: CounterIntent) { sender.send(intent) }
///   func idle() async { await sender.idle() }
///   …
/// }
/// ```
public final class OrderedSender<Intent: Sendable>: Sendable {
  /// The count of intents not delivered yet, and who waits for none; shared with the task.
  private final class Pending: Sendable {
    struct State {
      var count = 0
      var waiters: [CheckedContinuation<Void, Never>] = []
    }
    let state = Lock(State())
  }

  private let continuation: AsyncStream<Intent>.Continuation
  private let pending = Pending()
  private let task: Task<Void, Never>

  /// - Parameters:
  ///   - executor: The executor the delivering task prefers (the environment's).
  ///   - deliver: Called with each intent, one at a time, in the order sent.
  public init(
    executor: (any TaskExecutor)?, deliver: @escaping @Sendable (Intent) async -> Void
  ) {
    let (stream, continuation) = AsyncStream.makeStream(of: Intent.self)
    self.continuation = continuation
    let pending = self.pending
    task = Task(executorPreference: executor) {
      for await intent in stream {
        await deliver(intent)
        let waiters = pending.state.withLock { state -> [CheckedContinuation<Void, Never>] in
          state.count -= 1
          guard state.count == 0 else { return [] }
          defer { state.waiters = [] }
          return state.waiters
        }
        for waiter in waiters { waiter.resume() }
      }
    }
  }

  deinit {
    continuation.finish()
    task.cancel()
  }

  /// Queues `intent` for delivery; callable from any thread.
  public func send(_ intent: Intent) {
    pending.state.withLock { $0.count += 1 }
    continuation.yield(intent)
  }

  /// Returns once every intent sent so far has been delivered.
  public func idle() async {
    await withCheckedContinuation { continuation in
      let isIdle = pending.state.withLock { state in
        if state.count == 0 { return true }
        state.waiters.append(continuation)
        return false
      }
      if isIdle { continuation.resume() }
    }
  }
}
