/// What a core's reducer decides for an event.
public enum ReducerResult<State: Sendable>: Sendable {
  /// The new state: every layer receives it.
  case set(State)
  /// No change: no layer hears anything.
  case skip
}

/// An app as simprokcore sees it: a reducer that owns the global state, and layers that map it
/// into their machines' inputs and their machines' outputs back into events.
///
/// ```swift
/// struct App: Core {
///   var layers: [Layer<AppState, AppEvent>] {
///     [~UILayer(), .layer(StorageLayer()), LoggerLayer().layer()]
///   }
///
///   func reduce(state: AppState?, event: AppEvent) -> ReducerResult<AppState> {
///     switch event {
///     case .click: state.map { .set(AppState($0.value + 1)) } ?? .skip
///     case .storage(let value): .set(AppState(value))
///     }
///   }
/// }
///
/// let flow = App().start()
/// ```
///
/// The reducer is serial and pure; the state is `nil` until it first returns
/// ``ReducerResult/set(_:)``. Every layer receives every set state, in order; ``ReducerResult/skip``
/// broadcasts nothing.
public protocol Core: Sendable {
  /// The global state.
  associatedtype State: Sendable
  /// The global event.
  associatedtype Event: Sendable

  /// The layers, in the order they receive states (and their first `process(nil)`).
  var layers: [Layer<State, Event>] { get }

  /// The result of `event` on `state` (`nil` before the first ``ReducerResult/set(_:)``).
  func reduce(state: State?, event: Event) -> ReducerResult<State>
}

extension Core {
  /// Starts the flow: wires every layer's machine, then calls each machine's
  /// `process(input: nil, …)`, in layer order. Events they emit meanwhile are queued, none lost.
  ///
  /// Keep the returned flow: ``Flow/stop()`` or releasing it stops everything.
  ///
  /// - Parameter executor: Where machines' work (and ``MachineQueue/new`` machines) runs; `nil`
  ///   for the global concurrent executor.
  @inlinable
  public func start(executor: (any TaskExecutor)? = nil) -> Flow<Self> {
    let flow = Flow(core: self, executor: executor)
    flow.start()
    return flow
  }
}
