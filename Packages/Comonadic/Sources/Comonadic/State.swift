/// The state monad: an action that reads and replaces a state of type `S`, producing an `A`.
///
/// It pairs with ``Store``: running a `State` action at a store's position says where the store
/// moves next (see `select(_:_:)`). In a comonadic UI a dispatcher turns each input into such an
/// action:
///
/// ```swift
/// let increment = State<Int, Void>.modify { $0 + 1 }
/// increment.run(41)  // (42, ())
/// ```
///
/// The common actions (``pure(_:)``, ``set(_:)``, ``modify(_:)``, ``mutate(_:)``) are kept as
/// data rather than wrapped in a closure of their own, so building one from a closure that
/// captures nothing allocates nothing, and ``apply(to:)`` changes a state in place.
public struct State<S, A> {
  @usableFromInline let body: Body

  @usableFromInline
  enum Body {
    case run(@Sendable (S) -> (S, A))
    case modify(@Sendable (S) -> S, A)
    case mutate(@Sendable (inout S) -> Void, A)
    case pure(A)
    // Boxed: inline, the state made every action (and every step holding one) as large as the
    // state, copied and destroyed through value witnesses. In a class of its own, not an
    // `indirect` case: Swift 6.3's move checker crashes on `switch consume` over an enum with
    // an indirect case (``apply(to:)``).
    case set(StateBox<S>, A)
  }

  @inlinable
  init(body: Body) { self.body = body }

  /// The action `run`: given a state, the next state and the result.
  public init(_ run: @escaping @Sendable (S) -> (S, A)) { body = .run(run) }

  /// Runs the action on `state`: the next state and the result.
  @inlinable
  public func run(_ state: S) -> (S, A) {
    switch body {
    case .run(let run): return run(state)
    case .modify(let transform, let value): return (transform(state), value)
    case .mutate(let transform, let value):
      var state = state
      transform(&state)
      return (state, value)
    case .pure(let value): return (state, value)
    case .set(let next, let value): return (next.value, value)
    }
  }

  /// Runs the action on `state` in place and returns its result: what an explorer does with
  /// the state it owns, without copying it.
  ///
  /// Consuming: the function it calls is moved out of the action, not retained for the call
  /// and released with the action (an explorer applies each action once). A caller that keeps
  /// the action keeps a copy.
  @inlinable @inline(__always)
  public consuming func apply(to state: inout S) -> A {
    let body = self.body
    switch consume body {
    case .run(let run):
      let (next, value) = run(state)
      state = next
      return value
    case .modify(let transform, let value):
      state = transform(state)
      return value
    case .mutate(let transform, let value):
      transform(&state)
      return value
    case .pure(let value): return value
    case .set(let next, let value):
      state = next.value
      return value
    }
  }

  /// The action that leaves the state alone and produces `value`.
  @inlinable
  public static func pure(_ value: A) -> State { State(body: .pure(value)) }

  /// The action's result transformed.
  public func map<B>(_ transform: @escaping @Sendable (A) -> B) -> State<S, B>
  where S: Sendable, A: Sendable {
    let this = self
    return State<S, B> { state in
      let (next, value) = this.run(state)
      return (next, transform(value))
    }
  }

  /// This action, then the one `next` makes of its result.
  public func flatMap<B>(_ next: @escaping @Sendable (A) -> State<S, B>) -> State<S, B>
  where S: Sendable, A: Sendable {
    let this = self
    return State<S, B> { state in
      let (middle, value) = this.run(state)
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
  @inlinable
  public static func set(_ state: S) -> State { State(body: .set(StateBox(state), ())) }

  /// The action that transforms the state: Bow Arch's `modify`.
  @inlinable
  public static func modify(_ transform: @escaping @Sendable (S) -> S) -> State {
    State(body: .modify(transform, ()))
  }

  /// The action that changes the state in place: ``modify(_:)`` without copying the state,
  /// for states holding arrays or dictionaries.
  ///
  /// ```swift
  /// let addLap = State<Stopwatch, Void>.mutate { $0.laps.append($0.elapsed) }
  /// ```
  @inlinable
  public static func mutate(_ transform: @escaping @Sendable (inout S) -> Void) -> State {
    State(body: .mutate(transform, ()))
  }

  /// The action that changes nothing.
  @inlinable
  public static var none: State { State(body: .pure(())) }
}

extension State: Sendable where S: Sendable, A: Sendable {}
extension State.Body: Sendable where S: Sendable, A: Sendable {}

/// The state a ``State/set(_:)`` action sets, kept out of line.
@usableFromInline
final class StateBox<S> {
  @usableFromInline let value: S

  @inlinable init(_ value: S) { self.value = value }
}

extension StateBox: Sendable where S: Sendable {}

/// Runs `action` at `store`'s position and moves the store there: the next future the action
/// selects. Direct, never through ``Store/duplicate()``.
@inlinable
public func select<S, A, B>(_ action: State<S, A>, _ store: Store<S, B>) -> Store<S, B> {
  var store = store
  _ = action.apply(to: &store.position)
  return store
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
