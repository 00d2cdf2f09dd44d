/// What an effect is given to act with: dispatch actions, run asynchronous work, cancel it.
///
/// Call it like Elementary's `dispatch`: `dispatch(.loaded(count))`. The action is queued
/// behind the one being handled, never nested. A `Dispatch` holds its store weakly; after the
/// store is stopped or released it does nothing.
public struct Dispatch<Action: Sendable>: Sendable {
  // Weak and inline: an effect may keep its `Dispatch` (a timer does) without keeping the
  // store, and making one per action allocates nothing.
  @usableFromInline weak let storeHost: (any EffectHost<Action>)?
  /// A host that maps into a parent's actions (``map(_:)``, lifted effects); it holds its own
  /// parent weakly, so keeping it keeps no store alive.
  @usableFromInline let scopedHost: (any EffectHost<Action>)?

  @usableFromInline
  init(host: some EffectHost<Action>) {
    storeHost = host
    scopedHost = nil
  }

  @usableFromInline
  init(scoped host: any EffectHost<Action>) {
    storeHost = nil
    scopedHost = host
  }

  /// A dispatch that hands every action to `dispatch`, for calling an effect outside a store
  /// (in a test, say). Its runs are tasks of their own on `executor`, cancelled with
  /// ``cancel(id:)`` or superseded under the same id; their sends go to `dispatch` too.
  ///
  /// ```swift
  /// let received = Recorder<CounterAction>()
  /// effect.body(state, .load, Dispatch { received.append($0) })
  /// ```
  public init(
    executor: (any TaskExecutor)? = nil, _ dispatch: @escaping @Sendable (Action) -> Void
  ) {
    self.init(scoped: ClosureHost(executor: executor, dispatch: dispatch))
  }

  @usableFromInline var host: (any EffectHost<Action>)? { scopedHost ?? storeHost }

  /// Dispatches `action` to the store.
  public func callAsFunction(_ action: Action) {
    host?.dispatch(action)
  }

  /// A dispatch for a child's actions: each is embedded into this one's actions (Elm's
  /// `Cmd.map`). Runs keep their ids.
  ///
  /// ```swift
  /// let counterDispatch: Dispatch<CounterAction> = dispatch.map(ShellAction.counter)
  /// ```
  public func map<Child: Sendable>(_ embed: @escaping @Sendable (Child) -> Action) -> Dispatch<
    Child
  > {
    guard let host else { return Dispatch<Child>(scoped: ClosureHost<Child>.inert) }
    return Dispatch<Child>(
      scoped: ScopedHost(parent: host, embed: embed, namespace: nil, project: { $0 }))
  }

  /// A dispatch for one child: its actions embedded, its runs filed under `namespace` so two
  /// children's runs never supersede each other and a removed child's runs can be cancelled
  /// together (``cancel(keys:)``); `project` finds the child's state in the parent's.
  // Inlinable: the child's host made where its types are known (its metadata looked up once,
  // not on every child message).
  @inlinable
  func scoped<Child: Sendable>(
    _ namespace: AnyWorkID, embed: @escaping @Sendable (Child) -> Action,
    project: @escaping @Sendable (Any) -> Any? = { _ in nil },
    record: (@Sendable (RunKey<AnyWorkID>, Bool) -> Void)? = nil
  ) -> Dispatch<Child> {
    guard let host else { return Dispatch<Child>(scoped: ClosureHost<Child>.inert) }
    return Dispatch<Child>(
      scoped: ScopedHost(
        parent: host, embed: embed, namespace: namespace, project: project, record: record))
  }

  /// Cancels the runs filed under `keys` (a dismissed child's): each costs one lookup.
  @inlinable
  func cancel(keys: [RunKey<AnyWorkID>]) {
    guard let host else { return }
    for key in keys { host.cancel(key) }
  }

  /// Runs `operation` asynchronously under `id`, cancelling the run already under `id`: the
  /// latest wins.
  ///
  /// ```swift
  /// dispatch.run(id: "search") { send in
  ///   send(.searched(try await service.search(term)))
  /// } catch: { error, send in
  ///   send(.searchFailed)
  /// }
  /// ```
  ///
  /// A superseded or cancelled run's `send` calls are dropped, and so are its results still
  /// waiting in the queue — even when its code ignores cancellation.
  ///
  /// - Parameters:
  ///   - id: Identifies the run for ``cancel(id:)`` and for the next run that supersedes it.
  ///   - lifetime: `.finite` (the default) if ``Store/idle()`` should wait for it;
  ///     `.untilCancelled` for timers and other work that only ends when cancelled.
  ///   - whenRunning: What to do if a run under `id` is still going: `.replace` it (the
  ///     default: the latest wins) or `.keep` it and start nothing (the first wins).
  ///   - operation: The work; `send` dispatches its results.
  ///   - handler: Turns an error the operation throws into actions. Cancellation is not an
  ///     error. Without a handler, an error is printed to standard error.
  public func run(
    id: some Hashable & Sendable,
    lifetime: EffectLifetime = .finite,
    whenRunning: WhenRunning = .replace,
    operation: @escaping @Sendable (_ send: Send<Action>) async throws -> Void,
    catch handler: (@Sendable (_ error: any Error, _ send: Send<Action>) -> Void)? = nil
  ) {
    host?.start(
      .id(AnyWorkID(id)), lifetime: lifetime, keepsRunning: whenRunning == .keep,
      operation: operation, catch: handler)
  }

  /// Runs `operation` asynchronously, alongside any other runs.
  public func run(
    lifetime: EffectLifetime = .finite,
    operation: @escaping @Sendable (_ send: Send<Action>) async throws -> Void,
    catch handler: (@Sendable (_ error: any Error, _ send: Send<Action>) -> Void)? = nil
  ) {
    host?.start(
      nil, lifetime: lifetime, keepsRunning: false, operation: operation, catch: handler)
  }

  /// Cancels the run under `id`, if any; its results, sent or queued, are dropped.
  public func cancel(id: some Hashable & Sendable) {
    host?.cancel(.id(AnyWorkID(id)))
  }
}

/// Whether ``Store/idle()`` waits for an effect.
public enum EffectLifetime: Sendable, Hashable {
  /// Work that ends on its own, such as a request: the store is not idle while it runs.
  case finite
  /// Work that runs until cancelled, such as a timer: the store can be idle while it runs.
  case untilCancelled
}

/// What ``Dispatch/run(id:lifetime:whenRunning:operation:catch:)`` does when a run under the
/// same id is still going.
public enum WhenRunning: Sendable, Hashable {
  /// Cancel the running one and start the new one: the latest wins.
  case replace
  /// Keep the running one and start nothing: the first wins.
  case keep
}

/// How an asynchronous effect dispatches its results.
///
/// Sends from a run that was superseded, cancelled, or stopped with its store are dropped.
public struct Send<Action: Sendable>: Sendable {
  weak let host: (any EffectHost<Action>)?
  /// The store's own delivery, when the host is a store (it holds the store weakly).
  let deliver: (@Sendable (Action, Run<AnyWorkID>) -> Void)?
  let origin: Run<AnyWorkID>
  /// A child run's send: its actions embedded into the parent run's send.
  let forward: (@Sendable (Action) -> Void)?
  let liveness: (@Sendable () -> Bool)?
  /// The store's gate (R6), `nil` outside a store.
  let gate: StopGate?
  /// Where the run's tasks run.
  let executor: (any TaskExecutor)?

  init(
    host: any EffectHost<Action>, deliver: (@Sendable (Action, Run<AnyWorkID>) -> Void)? = nil,
    origin: Run<AnyWorkID>, gate: StopGate? = nil, executor: (any TaskExecutor)? = nil
  ) {
    self.host = host
    self.deliver = deliver
    self.origin = origin
    forward = nil
    liveness = nil
    self.gate = gate
    self.executor = executor
  }

  init(
    origin: Run<AnyWorkID>, forward: @escaping @Sendable (Action) -> Void,
    isActive: @escaping @Sendable () -> Bool, gate: StopGate?, executor: (any TaskExecutor)?
  ) {
    host = nil
    deliver = nil
    self.origin = origin
    self.forward = forward
    liveness = isActive
    self.gate = gate
    self.executor = executor
  }

  /// Dispatches `action`, unless this run is over.
  public func callAsFunction(_ action: Action) {
    if let forward { return forward(action) }
    if let deliver { return deliver(action, origin) }
    host?.deliver(action, from: origin)
  }

  /// Whether this run may still dispatch: not superseded, cancelled or stopped.
  public var isActive: Bool {
    if let liveness { return liveness() }
    return host?.isLive(origin) ?? false
  }

  /// Calls `body` — a log line, say — only while this run is active. When the store's
  /// ``Store/stop()`` returns, a body has either ended or never begins: `stop()` waits for one
  /// that began on another thread.
  ///
  /// ```swift
  /// send.performIfActive { log.log("saved \(count)") }
  /// ```
  ///
  /// - Returns: What `body` returned, or `nil` when the run is over.
  @discardableResult
  public func performIfActive<Result>(_ body: () throws -> Result) rethrows -> Result? {
    guard let gate else { return isActive ? try body() : nil }
    guard gate.enter() else { return nil }
    defer { gate.leave() }
    return isActive ? try body() : nil
  }

  /// Calls `operation` — a save, say — only while this run is active: the call begins before a
  /// concurrent ``Store/stop()`` returns, or not at all. Use it for work that must never begin
  /// after stop; a cancellable request needs none (it begins cancelled and ends at once).
  ///
  /// ```swift
  /// try await send.ifActive { try await storage.save(count) }
  /// ```
  ///
  /// - Throws: `CancellationError` when the run is over, or what `operation` throws.
  public func ifActive<Result: Sendable>(
    _ operation: @escaping @Sendable () async throws -> Result
  ) async throws -> Result {
    guard let gate else {
      guard isActive else { throw CancellationError() }
      return try await operation()
    }
    let isActive: @Sendable () -> Bool = { self.isActive }
    return try await gate.call(on: executor) {
      guard isActive() else { throw CancellationError() }
      return try await operation()
    }
  }

  /// This run's send for a child's actions.
  func map<Child: Sendable>(_ embed: @escaping @Sendable (Child) -> Action) -> Send<Child> {
    Send<Child>(
      origin: origin, forward: { self(embed($0)) }, isActive: { self.isActive }, gate: gate,
      executor: executor)
  }
}

/// What a ``Dispatch`` and a ``Send`` talk to: the store, without its state type.
@usableFromInline
protocol EffectHost<Action>: AnyObject, Sendable {
  associatedtype Action: Sendable
  func dispatch(_ action: Action)
  func deliver(_ action: Action, from origin: Run<AnyWorkID>)
  func isLive(_ origin: Run<AnyWorkID>) -> Bool
  func start(
    _ key: RunKey<AnyWorkID>?, lifetime: EffectLifetime, keepsRunning: Bool,
    operation: @escaping @Sendable (Send<Action>) async throws -> Void,
    catch handler: (@Sendable (any Error, Send<Action>) -> Void)?)
  func cancel(_ key: RunKey<AnyWorkID>)
  func cancelAll(where matches: @escaping @Sendable (RunKey<AnyWorkID>) -> Bool)
  /// The store's state now, type-erased (a child's part, for a scoped host), or `nil` when the
  /// store is gone or stopped.
  func currentState() -> Any?
  /// Whether the host is a store's runtime, which a child's host holds weakly (so an effect
  /// never keeps a store alive); hosts that are not are held strongly by their children.
  var isOwner: Bool { get }
}
