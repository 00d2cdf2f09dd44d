/// One step of what a dispatcher does with an input: an action applied at once, or work in the
/// environment whose result is an action.
///
/// A dispatcher returns steps (``Dispatcher/effectful(_:)``, ``Dispatcher/workflow(_:)``); the
/// component runs them in order, each one after the previous one's action has been applied, so
/// every step is a visible update and sees the state it produced.
///
/// ```swift
/// let search = StateEffect<Env, Model>.task(id: Work.search) { env, model in
///   let places = try await env.service.search(model.term)
///   return .mutate { $0.places = places }
/// } catch: { error in
///   .mutate { $0.searchFailed = true }
/// }
/// ```
///
/// Results see the present: an action is applied to the state current when it arrives, not to
/// the snapshot the work started from. A superseded, cancelled or stopped run's result is never
/// applied, even when its code ignores cancellation.
public struct Effect<Environment: Sendable, Focus: Sendable, Action: Sendable>: Sendable {
  @usableFromInline package let kind: Kind

  @usableFromInline
  package enum Kind: Sendable {
    case action(Action)
    case perform(@Sendable (Environment, Focus) -> Void)
    /// A `perform` that does not read the state: the runtime does not copy it out for the call.
    case call(@Sendable (Environment) -> Void)
    case task(AnyWorkID?, WhenRunning, Work<Environment, Focus, Action>)
    case stream(AnyWorkID?, @Sendable (Environment, Focus, Send<Action>) async -> Void)
    case cancel(AnyWorkID)
    case read(@Sendable (Focus) -> [Effect])
    /// Workflows that go on side by side, each one's steps in order.
    case parallel([[Effect]])
  }

  @inlinable
  init(_ kind: Kind) { self.kind = kind }

  /// The step that starts `workflows` side by side, then goes on at once: each runs its steps
  /// in order, and a task in one does not wait for a task in another. What a parent does when
  /// several children begin work in one action — each screen pushed onto a stack loads at once,
  /// not after the screen below it has loaded.
  ///
  /// ```swift
  /// .read { state in
  ///   [.parallel(state.arrivals.map { id in [onScreen(id)(Screen.load)] })]
  /// }
  /// ```
  ///
  /// A workflow's steps that follow a task wait for that task alone; the steps after
  /// `parallel` in its own workflow run once every workflow has started (not ended).
  @inlinable
  public static func parallel(_ workflows: [[Effect]]) -> Effect { Effect(.parallel(workflows)) }

  /// The step that applies `action` at once.
  @inlinable
  public static func action(_ action: Action) -> Effect { Effect(.action(action)) }

  /// The step that calls `body` at once with the environment and the state now, on the
  /// component's queue: a log line or an analytics call that must follow an update in order.
  ///
  /// Never called after the component stopped. Keep it short; it holds up the queue.
  @inlinable
  public static func perform(_ body: @escaping @Sendable (Environment, Focus) -> Void) -> Effect {
    Effect(.perform(body))
  }

  /// The step that calls `body` at once with the environment, on the component's queue, as
  /// `perform` with the state does. Like Bow's effects, it sees only the environment, so the
  /// state is not copied out for it.
  @inlinable
  public static func perform(_ body: @escaping @Sendable (Environment) -> Void) -> Effect {
    Effect(.call(body))
  }

  /// The step that runs `operation` asynchronously with the environment and the state now, and
  /// applies the action it returns.
  @inlinable
  public static func task(
    _ operation: @escaping @Sendable (Environment, Focus) async -> Action
  ) -> Effect {
    Effect(.task(nil, .replace, .seeing(operation)))
  }

  /// The step that runs `operation` asynchronously under `id` and applies the action it
  /// returns.
  ///
  /// - Parameters:
  ///   - id: Identifies the run for ``cancel(id:)`` and for the next run under the same id.
  ///   - whenRunning: If a run under `id` is still going: `.replace` cancels it (the latest
  ///     wins; its result is dropped), `.enqueue` starts this one when it has finished (saves
  ///     reach the storage in order).
  ///   - operation: The work; it returns the action to apply.
  @inlinable
  public static func task(
    id: some Hashable & Sendable, whenRunning: WhenRunning = .replace,
    _ operation: @escaping @Sendable (Environment, Focus) async -> Action
  ) -> Effect {
    Effect(.task(AnyWorkID(id), whenRunning, .seeing(operation)))
  }

  /// The step that runs a throwing `operation` asynchronously and applies the action it
  /// returns, or the action `recover` makes of its error: failures become state.
  ///
  /// A run that was cancelled applies nothing, whatever it throws.
  @inlinable
  public static func task(
    _ operation: @escaping @Sendable (Environment, Focus) async throws -> Action,
    catch recover: @escaping @Sendable (any Error) -> Action
  ) -> Effect {
    Effect(.task(nil, .replace, .seeing(recovering(operation, recover))))
  }

  /// The step that runs a throwing `operation` asynchronously under `id` and applies the
  /// action it returns, or the action `recover` makes of its error.
  @inlinable
  public static func task(
    id: some Hashable & Sendable, whenRunning: WhenRunning = .replace,
    _ operation: @escaping @Sendable (Environment, Focus) async throws -> Action,
    catch recover: @escaping @Sendable (any Error) -> Action
  ) -> Effect {
    Effect(.task(AnyWorkID(id), whenRunning, .seeing(recovering(operation, recover))))
  }

  /// The step that runs `operation` asynchronously with the environment, and applies the
  /// action it returns. Like Bow's effects, it sees only the environment: the state is not
  /// copied out for it.
  @inlinable
  public static func task(_ operation: @escaping @Sendable (Environment) async -> Action)
    -> Effect
  {
    Effect(.task(nil, .replace, .blind(operation)))
  }

  /// The step that runs `operation` asynchronously under `id`, with the environment, and
  /// applies the action it returns; `whenRunning` as for a task that sees the state.
  @inlinable
  public static func task(
    id: some Hashable & Sendable, whenRunning: WhenRunning = .replace,
    _ operation: @escaping @Sendable (Environment) async -> Action
  ) -> Effect {
    Effect(.task(AnyWorkID(id), whenRunning, .blind(operation)))
  }

  /// The step that runs a throwing `operation` asynchronously with the environment, and applies
  /// the action it returns, or the action `recover` makes of its error.
  @inlinable
  public static func task(
    _ operation: @escaping @Sendable (Environment) async throws -> Action,
    catch recover: @escaping @Sendable (any Error) -> Action
  ) -> Effect {
    Effect(.task(nil, .replace, .blind(recovering(operation, recover))))
  }

  /// The step that runs a throwing `operation` asynchronously under `id`, with the
  /// environment, and applies the action it returns, or the action `recover` makes of its
  /// error.
  @inlinable
  public static func task(
    id: some Hashable & Sendable, whenRunning: WhenRunning = .replace,
    _ operation: @escaping @Sendable (Environment) async throws -> Action,
    catch recover: @escaping @Sendable (any Error) -> Action
  ) -> Effect {
    Effect(.task(AnyWorkID(id), whenRunning, .blind(recovering(operation, recover))))
  }

  /// The step that starts `operation` under `id` and goes on at once; `operation` sends any
  /// number of actions, applied in the order sent, until it returns or is cancelled: a timer.
  ///
  /// ```swift
  /// .stream(id: Work.timer) { env, model, send in
  ///   var deadline = env.clock.now
  ///   while !Task.isCancelled {
  ///     deadline = deadline.advanced(by: .milliseconds(100))
  ///     try? await env.clock.sleep(until: deadline)
  ///     send(.mutate { $0.elapsed += .milliseconds(100) })
  ///   }
  /// }
  /// ```
  ///
  /// A stream does not keep ``StoreComponent/idle()`` waiting: a component whose only work is a
  /// timer waiting on its clock is idle. A stream under `id` replaces the run under `id`.
  @inlinable
  public static func stream(
    id: some Hashable & Sendable,
    _ operation: @escaping @Sendable (Environment, Focus, Send<Action>) async -> Void
  ) -> Effect {
    Effect(.stream(AnyWorkID(id), operation))
  }

  /// The step that reads the state now and decides the steps that follow: a workflow whose
  /// rest depends on what the steps before it did.
  ///
  /// ```swift
  /// .workflow { intent in
  ///   [.action(.mutate { $0.apply(intent) }),
  ///    .read { state in state.changed ? [.task(id: Work.save) { env in ... }] : [] }]
  /// }
  /// ```
  @inlinable
  public static func read(_ next: @escaping @Sendable (Focus) -> [Effect]) -> Effect {
    Effect(.read(next))
  }

  /// The step that cancels the runs under `id`; their results, sent or queued, are dropped.
  @inlinable
  public static func cancel(id: some Hashable & Sendable) -> Effect {
    Effect(.cancel(AnyWorkID(id)))
  }
}

/// A task step's work: it sees the environment and the state when it starts, or only the
/// environment (then the state is not copied out for it).
@usableFromInline
package enum Work<Environment: Sendable, Focus: Sendable, Action: Sendable>: Sendable {
  case seeing(@Sendable (Environment, Focus) async -> Action)
  case blind(@Sendable (Environment) async -> Action)

  /// Whether the work reads the state.
  @inlinable package var seesFocus: Bool {
    if case .seeing = self { true } else { false }
  }
}

// Inlinable, as the steps that call them are: compiled once for any types, making a step looked
// up its enum's type metadata (some hundreds of instructions).
@inlinable
func recovering<Environment, Action>(
  _ operation: @escaping @Sendable (Environment) async throws -> Action,
  _ recover: @escaping @Sendable (any Error) -> Action
) -> @Sendable (Environment) async -> Action {
  { environment in
    do { return try await operation(environment) } catch { return recover(error) }
  }
}

@inlinable
func recovering<Environment, Focus, Action>(
  _ operation: @escaping @Sendable (Environment, Focus) async throws -> Action,
  _ recover: @escaping @Sendable (any Error) -> Action
) -> @Sendable (Environment, Focus) async -> Action {
  { environment, focus in
    do { return try await operation(environment, focus) } catch { return recover(error) }
  }
}

/// What a task step under an id (`Effect.task(id:whenRunning:_:)`) does when a run under the
/// same id is still going.
public enum WhenRunning: Sendable, Hashable {
  /// Cancel the running one; its result is dropped. The latest wins.
  case replace
  /// Start this one when the running one has finished: runs under the id go one at a time, in
  /// the order they were started.
  case enqueue
}

/// How a ``Effect/stream(id:_:)`` sends its actions.
///
/// Sends from a run that was superseded, cancelled, or stopped with its component are dropped.
/// A `Send` holds its component weakly: a timer that keeps it does not keep the component.
public struct Send<Action: Sendable>: Sendable {
  weak let host: (any EffectHost<Action>)?
  /// The explorer's own delivery, when the host is one (it holds the explorer weakly).
  let deliver: (@Sendable (Action, Run<AnyWorkID>) -> Void)?
  /// A host the send owns: a ``map(_:)`` of another send, which holds the component weakly.
  let ownHost: (any EffectHost<Action>)?
  let run: Run<AnyWorkID>

  @usableFromInline
  init(
    host: some EffectHost<Action>, deliver: (@Sendable (Action, Run<AnyWorkID>) -> Void)? = nil,
    run: Run<AnyWorkID>
  ) {
    self.host = host
    self.deliver = deliver
    ownHost = nil
    self.run = run
  }

  init(owning host: some EffectHost<Action>) {
    self.host = nil
    deliver = nil
    ownHost = host
    run = Run(token: 0)
  }

  /// Queues `action`, unless this run is over.
  public func callAsFunction(_ action: Action) {
    if let deliver { return deliver(action, run) }
    (ownHost ?? host)?.deliver(action, from: run)
  }

  /// Whether this run may still send: not superseded, cancelled or stopped.
  public var isActive: Bool { (ownHost ?? host)?.isLive(run) ?? false }

  /// A send for actions of another type, each turned into this one's first.
  public func map<Other: Sendable>(
    _ transform: @escaping @Sendable (Other) -> Action
  ) -> Send<Other> {
    Send<Other>(owning: MappedHost(base: self, transform: transform))
  }
}

/// What a ``Send`` talks to: the explorer, without its other types.
@usableFromInline
protocol EffectHost<Action>: AnyObject, Sendable {
  associatedtype Action: Sendable
  func deliver(_ action: Action, from run: Run<AnyWorkID>)
  func isLive(_ run: Run<AnyWorkID>) -> Bool
}

/// The host of a mapped ``Send``: forwards to the send it was made from.
final class MappedHost<Action: Sendable, Base: Sendable>: EffectHost {
  let base: Send<Base>
  let transform: @Sendable (Action) -> Base

  init(base: Send<Base>, transform: @escaping @Sendable (Action) -> Base) {
    self.base = base
    self.transform = transform
  }

  func deliver(_ action: Action, from run: Run<AnyWorkID>) { base(transform(action)) }
  @usableFromInline func isLive(_ run: Run<AnyWorkID>) -> Bool { base.isActive }
}

/// The effect of a ``StoreComponent``: its steps apply ``State`` actions and see the state.
public typealias StateEffect<Environment: Sendable, S: Sendable> = Effect<
  Environment, S, State<S, Void>
>

/// The effect of a ``MooreComponent``: its steps send ``Inputs`` and see the machine's value.
public typealias InputsEffect<Environment: Sendable, Message: Sendable, Value: Sendable> = Effect<
  Environment, Value, Inputs<Message, Void>
>
