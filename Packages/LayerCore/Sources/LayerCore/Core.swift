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

  /// The state the flow starts with, if the app has one before any event (the contacts and
  /// screens it is given, say); `nil` by default, so the state is `nil` until the reducer
  /// first sets one. Every layer receives it right after its first `process(nil)`.
  var initialState: State? { get }

  /// The result of `event` on `state` (`nil` before the first ``ReducerResult/set(_:)``).
  func reduce(state: State?, event: Event) -> ReducerResult<State>

  /// The same reducer written in place: `state` is the flow's own, changed where the flow
  /// keeps it; the result says whether every layer receives it.
  ///
  /// Write this form or the value-in, value-out `reduce(state:event:)`: each has a default made of the
  /// other, and the flow runs this one. Written in place, an event that changes one row of a
  /// long ``IdentifiedList`` copies nothing: `var state = state` in the value form changes a copy
  /// while the flow still holds the state, so the first write copies the nodes on the row's
  /// path, and the flow frees the old ones after.
  ///
  /// ```swift
  /// func reduce(state: inout AppState?, event: AppEvent) -> InPlaceReducerResult {
  ///   switch event {
  ///   case .toggle(let id):
  ///     guard state?.rows.update(id: id, { $0.done.toggle() }) != nil else { return .skip }
  ///     return .set
  ///   }
  /// }
  /// ```
  ///
  /// Return ``InPlaceReducerResult/set`` with a state (a `nil` state is skipped), and
  /// ``InPlaceReducerResult/skip`` only when `state` was left as it was.
  func reduce(state: inout State?, event: Event) -> InPlaceReducerResult
}

extension Core {
  public var initialState: State? { nil }
}

/// What a reducer written in place decided (`reduce(state: inout State?, event:)`): the
/// state it changed goes to every layer, or nothing happens.
public enum InPlaceReducerResult: Sendable, Hashable {
  /// The state is set (changed in place): every layer receives it.
  case set
  /// No change: no layer hears anything.
  case skip
}

extension Core {
  /// The value form's result applied to `state`: its new state replaces `state`.
  @inlinable
  public func reduce(state: inout State?, event: Event) -> InPlaceReducerResult {
    switch reduce(state: state, event: event) {
    case .skip: return .skip
    case .set(let next):
      state = next
      return .set
    }
  }

  /// The in-place form run on a copy of `state`.
  @inlinable
  public func reduce(state: State?, event: Event) -> ReducerResult<State> {
    var next = state
    guard reduce(state: &next, event: event) == .set, let next else { return .skip }
    return .set(next)
  }
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
