/// The state monad: an action that reads and replaces a state of type `S`, producing an `A`.
///
/// It pairs with ``Store``: running a `State` action at a store's position says where the store
/// moves next (see `select(_:_:)`). In a comonadic UI a dispatcher turns
/// each input into such an action.
public struct State<S, A> {
  /// Runs the action on `state`: the next state and the result.
  public let run: @Sendable (S) -> (S, A)

  /// The action `run`.
  public init(_ run: @escaping @Sendable (S) -> (S, A)) { self.run = run }

  /// The action that leaves the state alone and produces `value`.
  public static func pure(_ value: A) -> State where A: Sendable {
    State { ($0, value) }
  }

  /// The action's result transformed.
  public func map<B>(_ transform: @escaping @Sendable (A) -> B) -> State<S, B> {
    let run = run
    return State<S, B> { state in
      let (next, value) = run(state)
      return (next, transform(value))
    }
  }

  /// This action, then the one `next` makes of its result.
  public func flatMap<B>(_ next: @escaping @Sendable (A) -> State<S, B>) -> State<S, B> {
    let run = run
    return State<S, B> { state in
      let (middle, value) = run(state)
      return next(value).run(middle)
    }
  }

  /// The state after running the action on `state`.
  @inlinable
  public func finalState(from state: S) -> S { run(state).0 }
}

extension State where A == S {
  /// The action that produces the state.
  public static func get() -> State { State { ($0, $0) } }
}

extension State where A == Void {
  /// The action that replaces the state with `state`.
  public static func set(_ state: S) -> State where S: Sendable { State { _ in (state, ()) } }

  /// The action that transforms the state.
  public static func modify(_ transform: @escaping @Sendable (S) -> S) -> State {
    State { (transform($0), ()) }
  }
}

extension State: Sendable {}

/// Runs `action` at `store`'s position and moves the store there: the next future the action
/// selects. Direct, never through ``Store/duplicate()``.
@inlinable
public func select<S, A, B>(_ action: State<S, A>, _ store: Store<S, B>) -> Store<S, B> {
  store.seek(action.run(store.position).0)
}

/// The pairing of `State` with `Store`: runs `action` at `store`'s position and combines its
/// result with the store's value at the position it leads to.
@inlinable
public func pair<S, A, B, C>(
  _ action: State<S, A>, _ store: Store<S, B>, _ combine: (A, B) -> C
) -> C {
  let (next, value) = action.run(store.position)
  return combine(value, store.peek(next))
}
