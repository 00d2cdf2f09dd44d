import ArchitectureSpec

/// Plugs ``CounterActor`` into the conformance kit.
///
/// The kit calls `send` synchronously from any thread; the actor's `send` is asynchronous, so
/// an ``OrderedSender`` hands the intents over in order, on the environment's executor, and
/// `idle()` waits until all were delivered and the actor has run what was queued on it.
struct ActorCounterDriver: AppDriver {
  typealias App = CounterApp
  let store: CounterActor
  let sender: OrderedSender<CounterIntent>
  /// Closes the actor's gate when the last copy of the driver is dropped (R6, release): the
  /// intents the sender still holds reach the actor, but begin nothing.
  let lifetime: Lifetime

  init(environment: CounterEnvironment) {
    let store = CounterActor(environment: environment)
    self.store = store
    sender = OrderedSender(executor: environment.executor) { await store.send($0) }
    lifetime = Lifetime(store)
  }

  func start(observer: @escaping @Sendable (CounterView) -> Void) async {
    await store.start(observer: observer)
  }
  func send(_ intent: CounterIntent) { sender.send(intent) }
  var view: CounterView { get async { await store.view } }
  /// The kit sees the tasks that prefer its executor; work that hops onto the actor runs
  /// elsewhere, so idle waits for the intents handed over and for the actor's queue.
  func idle() async {
    await sender.idle()
    await store.barrier()
  }
  func stop() async { await store.stop() }

  /// Intents reach the actor through the driver's queue: R3's ordering is the glue's work.
  var rulesMetByGlue: [String] { ["R3 (intents queued in order by OrderedSender)"] }
}

extension Implementation where App == CounterApp {
  /// The counter on ``CounterActor``.
  public static var actor: Implementation {
    Implementation(architecture: "actor-counter") { ActorCounterDriver(environment: $0) }
  }
}

/// Calls ``CounterActor/close()`` when released.
final class Lifetime: Sendable {
  let store: CounterActor
  init(_ store: CounterActor) { self.store = store }
  deinit { store.close() }
}
