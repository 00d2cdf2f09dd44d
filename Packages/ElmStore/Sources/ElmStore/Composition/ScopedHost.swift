import Synchronization

/// A run's key inside a child's namespace: the child's own key, filed under the child.
@usableFromInline
struct ScopedKey: Hashable, Sendable {
  @usableFromInline let namespace: AnyWorkID
  @usableFromInline let inner: RunKey<AnyWorkID>

  /// The namespace of the child that filed `key`, if a child's host filed it.
  @inlinable
  static func namespace(of key: RunKey<AnyWorkID>) -> AnyWorkID? {
    guard case .id(let id) = key else { return nil }
    return id.value(as: ScopedKey.self)?.namespace
  }
}

/// An ``EffectHost`` for a child's actions: embeds them into its parent's and, given a
/// namespace, files the child's runs under it. Holds the parent weakly unless the parent is
/// itself a scoped host (which holds its own parent weakly).
@usableFromInline
final class ScopedHost<Parent: Sendable, Child: Sendable>: EffectHost {
  @usableFromInline typealias Action = Child

  private weak let weakParent: (any EffectHost<Parent>)?
  private let strongParent: (any EffectHost<Parent>)?
  private let embed: @Sendable (Child) -> Parent
  private let namespace: AnyWorkID?
  private let project: @Sendable (Any) -> Any?
  /// Told of each run this child starts (`true`) and of its operation's return (`false`), under
  /// the key the parent files it by: how a lift knows a dismissed child's work.
  private let record: (@Sendable (RunKey<AnyWorkID>, Bool) -> Void)?

  @usableFromInline
  init(
    parent: any EffectHost<Parent>, embed: @escaping @Sendable (Child) -> Parent,
    namespace: AnyWorkID?, project: @escaping @Sendable (Any) -> Any?,
    record: (@Sendable (RunKey<AnyWorkID>, Bool) -> Void)? = nil
  ) {
    self.project = project
    self.record = record
    // Asked of the host, not by casting it: two casts to marker protocols cost more than the
    // rest of a child's message (a stopwatch tick inside a shell).
    if !parent.isOwner {
      weakParent = nil
      strongParent = parent
    } else {
      weakParent = parent
      strongParent = nil
    }
    self.embed = embed
    self.namespace = namespace
  }

  private var parent: (any EffectHost<Parent>)? { strongParent ?? weakParent }

  @usableFromInline var isOwner: Bool { false }

  private func scoped(_ key: RunKey<AnyWorkID>) -> RunKey<AnyWorkID> {
    guard let namespace else { return key }
    return .id(AnyWorkID(ScopedKey(namespace: namespace, inner: key)))
  }

  @usableFromInline func dispatch(_ action: Child) { parent?.dispatch(embed(action)) }

  @usableFromInline func deliver(_ action: Child, from origin: Run<AnyWorkID>) {
    parent?.deliver(embed(action), from: origin)
  }

  @usableFromInline func isLive(_ origin: Run<AnyWorkID>) -> Bool {
    parent?.isLive(origin) ?? false
  }

  @usableFromInline func start(
    _ key: RunKey<AnyWorkID>?, lifetime: EffectLifetime, keepsRunning: Bool,
    operation: @escaping @Sendable (Send<Child>) async throws -> Void,
    catch handler: (@Sendable (any Error, Send<Child>) -> Void)?
  ) {
    // A child's run without an id still belongs to the child's namespace.
    let key = key ?? .anonymous(anonymousRuns.wrappingAdd(1, ordering: .relaxed).newValue)
    let embed = self.embed
    let mappedHandler: (@Sendable (any Error, Send<Parent>) -> Void)?
    if let handler {
      mappedHandler = { error, send in handler(error, send.map(embed)) }
    } else {
      mappedHandler = nil
    }
    let filed = scoped(key)
    guard let record else {
      parent?.start(
        filed, lifetime: lifetime, keepsRunning: keepsRunning,
        operation: { send in try await operation(send.map(embed)) }, catch: mappedHandler)
      return
    }
    record(filed, true)
    parent?.start(
      filed, lifetime: lifetime, keepsRunning: keepsRunning,
      operation: { send in
        defer { record(filed, false) }
        try await operation(send.map(embed))
      }, catch: mappedHandler)
  }

  @usableFromInline func cancel(_ key: RunKey<AnyWorkID>) { parent?.cancel(scoped(key)) }

  @usableFromInline func currentState() -> Any? { parent?.currentState().flatMap(project) }

  @usableFromInline func cancelAll(where matches: @escaping @Sendable (RunKey<AnyWorkID>) -> Bool) {
    guard let namespace else {
      parent?.cancelAll(where: matches)
      return
    }
    parent?.cancelAll { key in
      guard case .id(let id) = key, let scoped = id.value(as: ScopedKey.self),
        scoped.namespace == namespace
      else { return false }
      return matches(scoped.inner)
    }
  }
}

/// Numbers for children's runs without an id (negative, so they never meet a store's tokens).
private let anonymousRuns = Atomic(Int.min / 2)

/// The host of a ``Dispatch`` made from a closure: actions go to the closure; runs are tasks of
/// its own, filed by key so a run supersedes the one under the same id.
@usableFromInline
final class ClosureHost<Action: Sendable>: EffectHost {
  @usableFromInline var isOwner: Bool { false }
  private let executor: (any TaskExecutor)?
  private let dispatch: @Sendable (Action) -> Void
  private let runs = Lock(RunRegistry<AnyWorkID>())

  init(executor: (any TaskExecutor)?, dispatch: @escaping @Sendable (Action) -> Void) {
    self.executor = executor
    self.dispatch = dispatch
  }

  /// A host that drops everything: a dispatch whose store is gone.
  @usableFromInline static var inert: ClosureHost { ClosureHost(executor: nil) { _ in } }

  @usableFromInline func dispatch(_ action: Action) { dispatch(action) }

  @usableFromInline func currentState() -> Any? { nil }

  @usableFromInline func deliver(_ action: Action, from origin: Run<AnyWorkID>) {
    if isLive(origin) { dispatch(action) }
  }

  @usableFromInline func isLive(_ origin: Run<AnyWorkID>) -> Bool {
    runs.withLock { $0.isLive(origin) }
  }

  @usableFromInline func start(
    _ key: RunKey<AnyWorkID>?, lifetime: EffectLifetime, keepsRunning: Bool,
    operation: @escaping @Sendable (Send<Action>) async throws -> Void,
    catch handler: (@Sendable (any Error, Send<Action>) -> Void)?
  ) {
    let started = runs.withLock {
      $0.start(key, isFinite: lifetime == .finite, replacing: !keepsRunning)
    }
    guard let (run, superseded) = started else { return }
    superseded?.task?.cancel()
    let send = Send(host: self, origin: run)
    let task = startEffectTask(on: executor) {
      do {
        try await operation(send)
      } catch is CancellationError {
      } catch {
        handler?(error, send)
      }
    }
    if !runs.withLock({ $0.attach(task, to: run) }) { task.cancel() }
  }

  @usableFromInline func cancel(_ key: RunKey<AnyWorkID>) {
    runs.withLock { $0.remove(key) }?.task?.cancel()
  }

  @usableFromInline func cancelAll(where matches: @escaping @Sendable (RunKey<AnyWorkID>) -> Bool) {
    let cancelled = runs.withLock { runs in
      runs.keys(where: matches).compactMap { runs.remove($0)?.task }
    }
    for task in cancelled { task.cancel() }
  }
}
