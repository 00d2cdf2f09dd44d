/// A space of possible futures that an explorer can move through: a comonad together with the
/// monad that pairs with it.
///
/// ``Store`` moves by ``State`` actions and shows its position to effects; ``Moore`` moves by
/// ``Inputs`` and shows its value. ``StoreComponent`` and ``MooreComponent`` own one such space
/// each and move it, one action at a time, with `select`.
public protocol Space {
  /// The actions that select the next future: the monad that pairs with this comonad.
  associatedtype Action
  /// What effects and hooks see of the space now: a store's state, a machine's value.
  associatedtype Focus
  /// What the space shows now: a store's view of its state, a machine's value.
  associatedtype Value

  /// What effects and hooks see of the space now.
  var focus: Focus { get }

  /// What the space shows now: the comonad's `extract`.
  func extract() -> Value

  /// Calls `body` with ``focus``, lent where it is stored rather than copied out: what a
  /// runtime uses to hand the focus to a step that only reads it.
  func withFocus<Result>(_ body: (Focus) throws -> Result) rethrows -> Result

  /// Moves to the future `action` selects: `self = select(action, self)`, in place.
  ///
  /// The action is consumed: a runtime applies each action once, so what it holds (a
  /// ``State``'s function) is moved into the call rather than retained and released around it.
  mutating func select(_ action: consuming Action)
}

extension Space {
  /// Calls `body` with ``focus``: what a space whose focus is not stored as it is gives.
  @inlinable
  public func withFocus<Result>(_ body: (Focus) throws -> Result) rethrows -> Result {
    try body(focus)
  }
}

extension Store: Space {
  /// The store's position: the state.
  @inlinable
  public var focus: S { position }

  /// Calls `body` with the position, lent where it is stored.
  @inlinable
  public func withFocus<Result>(_ body: (S) throws -> Result) rethrows -> Result {
    try body(position)
  }

  /// Runs `action` at the position and moves there.
  @inlinable
  public mutating func select(_ action: consuming State<S, Void>) {
    action.apply(to: &position)
  }
}

extension Moore: Space {
  /// The machine's value now.
  @inlinable
  public var focus: A { value }

  /// Calls `body` with the machine's value, lent where it is stored.
  @inlinable
  public func withFocus<Result>(_ body: (A) throws -> Result) rethrows -> Result {
    try body(value)
  }

  /// Feeds `action`'s inputs to the machine, in order.
  @inlinable
  public mutating func select(_ action: consuming Inputs<I, Void>) {
    self = run(action.inputs)
  }
}
