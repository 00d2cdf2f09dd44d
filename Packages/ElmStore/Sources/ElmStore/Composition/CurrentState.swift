/// The state of a store as it is when read, not as it was when the effect started: what a timer
/// or a long task reads when it fires (Elementary's effects only had the snapshot).
///
/// ```swift
/// Effect.reading { _, action, dispatch, current in
///   guard action == .startAutosave else { return }
///   dispatch.run(id: "autosave", lifetime: .untilCancelled) { send in
///     for await _ in ticks {
///       if let state = current.value, state.isDirty { send(.save(state.document)) }
///     }
///   }
/// }
/// ```
public struct CurrentState<State: Sendable>: Sendable {
  private let read: @Sendable () -> State?

  init(_ read: @escaping @Sendable () -> State?) { self.read = read }

  /// The state now; `nil` once the store is stopped or released (or, for a child, once the
  /// child left its list).
  public var value: State? { read() }
}

extension Effect {
  /// An effect that can read the current state later, through ``CurrentState``.
  public static func reading(
    _ body:
      @escaping @Sendable (
        _ state: State, _ action: Action, _ dispatch: Dispatch<Action>,
        _ current: CurrentState<State>
      ) -> Void
  ) -> Effect {
    Effect { state, action, dispatch in
      body(state, action, dispatch, CurrentState { dispatch.host?.currentState() as? State })
    }
  }
}
