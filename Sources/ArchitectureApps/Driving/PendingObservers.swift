import Kernel
import Synchronization

/// Child observers a driver was given before its runtime started, kept until it starts.
///
/// The kit may call `observe(_:observer:)` before `start(observer:)`; a driver that subscribes
/// child observers only once the root observer is subscribed keeps them here and takes them
/// back in `start`.
public final class PendingObservers<Child: Sendable, View: Sendable>: Sendable {
  private let state = Lock<(started: Bool, waiting: [(Child, @Sendable (View) -> Void)])>(
    (false, []))

  public init() {}

  /// Keeps `observer` for start and returns `true`, or returns `false` once started.
  public func `defer`(_ child: Child, _ observer: @escaping @Sendable (View) -> Void) -> Bool {
    state.withLock { state in
      guard !state.started else { return false }
      state.waiting.append((child, observer))
      return true
    }
  }

  /// Marks the runtime started and returns the observers kept until now.
  public func start() -> [(Child, @Sendable (View) -> Void)] {
    state.withLock { state in
      state.started = true
      defer { state.waiting = [] }
      return state.waiting
    }
  }
}

/// A flag set once: a row observer that has seen its row leave the list (R11's final `nil`).
public final class Once: Sendable {
  private let flag = Atomic(false)

  public init() {}

  /// Whether it was set.
  public var isSet: Bool { flag.load(ordering: .acquiring) }

  /// Sets it.
  public func set() { flag.store(true, ordering: .releasing) }
}
