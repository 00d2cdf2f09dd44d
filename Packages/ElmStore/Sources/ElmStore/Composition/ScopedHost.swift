import Synchronization

/// A run's key inside a child's namespace: the child's own key, filed under the child.
struct ScopedKey: Hashable, Sendable {
  let namespace: EffectID
  let inner: EffectKey
}

/// An ``EffectHost`` for a child's actions: embeds them into its parent's and, given a
/// namespace, files the child's runs under it. Holds the parent weakly unless the parent is
/// itself a scoped host (which holds its own parent weakly).
final class ScopedHost<Parent: Sendable, Child: Sendable>: EffectHost {
  typealias Action = Child

  private weak let weakParent: (any EffectHost<Parent>)?
  private let strongParent: (any EffectHost<Parent>)?
  private let embed: @Sendable (Child) -> Parent
  private let namespace: EffectID?
  private let project: @Sendable (Any) -> Any?

  init(
    parent: any EffectHost<Parent>, embed: @escaping @Sendable (Child) -> Parent,
    namespace: EffectID?, project: @escaping @Sendable (Any) -> Any?
  ) {
    self.project = project
    if parent is any ScopedHostMarker || parent is any ClosureHostMarker {
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

  private func scoped(_ key: EffectKey) -> EffectKey {
    guard let namespace else { return key }
    return .id(EffectID(ScopedKey(namespace: namespace, inner: key)))
  }

  func dispatch(_ action: Child) { parent?.dispatch(embed(action)) }

  func deliver(_ action: Child, from origin: Origin) {
    parent?.deliver(embed(action), from: origin)
  }

  func isLive(_ origin: Origin) -> Bool { parent?.isLive(origin) ?? false }

  func start(
    _ key: EffectKey?, lifetime: EffectLifetime, keepsRunning: Bool,
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
    parent?.start(
      scoped(key), lifetime: lifetime, keepsRunning: keepsRunning,
      operation: { send in try await operation(send.map(embed)) }, catch: mappedHandler)
  }

  func cancel(_ key: EffectKey) { parent?.cancel(scoped(key)) }

  func currentState() -> Any? { parent?.currentState().flatMap(project) }

  func cancelAll(where matches: @escaping @Sendable (EffectKey) -> Bool) {
    guard let namespace else {
      parent?.cancelAll(where: matches)
      return
    }
    parent?.cancelAll { key in
      guard case .id(let id) = key, let scoped = id.base.base as? ScopedKey,
        scoped.namespace == namespace
      else { return false }
      return matches(scoped.inner)
    }
  }
}

/// Numbers for children's runs without an id (negative, so they never meet a store's tokens).
private let anonymousRuns = Atomic(Int.min / 2)

protocol ScopedHostMarker {}
extension ScopedHost: ScopedHostMarker {}
protocol ClosureHostMarker {}
extension ClosureHost: ClosureHostMarker {}

/// The host of a ``Dispatch`` made from a closure: actions go to the closure; runs are tasks of
/// its own, filed by key so a run supersedes the one under the same id.
final class ClosureHost<Action: Sendable>: EffectHost {
  private let executor: (any TaskExecutor)?
  private let dispatch: @Sendable (Action) -> Void
  private let runs = Lock<(next: Int, tasks: [EffectKey: (token: Int, task: Task<Void, Never>)])>(
    (1, [:]))

  init(executor: (any TaskExecutor)?, dispatch: @escaping @Sendable (Action) -> Void) {
    self.executor = executor
    self.dispatch = dispatch
  }

  /// A host that drops everything: a dispatch whose store is gone.
  static var inert: ClosureHost { ClosureHost(executor: nil) { _ in } }

  func dispatch(_ action: Action) { dispatch(action) }

  func currentState() -> Any? { nil }

  func deliver(_ action: Action, from origin: Origin) {
    if isLive(origin) { dispatch(action) }
  }

  func isLive(_ origin: Origin) -> Bool {
    runs.withLock { $0.tasks[origin.key]?.token == origin.token }
  }

  func start(
    _ key: EffectKey?, lifetime: EffectLifetime, keepsRunning: Bool,
    operation: @escaping @Sendable (Send<Action>) async throws -> Void,
    catch handler: (@Sendable (any Error, Send<Action>) -> Void)?
  ) {
    let registered = runs.withLock { runs -> (EffectKey, Int, Task<Void, Never>?)? in
      if keepsRunning, let key, runs.tasks[key] != nil { return nil }
      let token = runs.next
      runs.next += 1
      let key = key ?? .anonymous(token)
      return (key, token, runs.tasks[key]?.task)
    }
    guard let (key, token, superseded) = registered else { return }
    superseded?.cancel()
    let send = Send(host: self, origin: Origin(key: key, token: token))
    let task = Task(executorPreference: executor) {
      do {
        try await operation(send)
      } catch is CancellationError {
      } catch {
        handler?(error, send)
      }
    }
    runs.withLock { $0.tasks[key] = (token, task) }
  }

  func cancel(_ key: EffectKey) {
    runs.withLock { $0.tasks.removeValue(forKey: key) }?.task.cancel()
  }

  func cancelAll(where matches: @escaping @Sendable (EffectKey) -> Bool) {
    let cancelled = runs.withLock { runs in
      let keys = runs.tasks.keys.filter(matches)
      return keys.compactMap { runs.tasks.removeValue(forKey: $0)?.task }
    }
    for task in cancelled { task.cancel() }
  }
}
