/// The Moore comonad: a value now and, for every input, the machine after it.
///
/// The Elm/Redux-shaped component: `A` is the view now, and ``step(_:)`` the component after an
/// input. It pairs with ``Inputs``, a monad of input lists: selecting runs the inputs in order.
public struct Moore<I, A> {
  /// The value now.
  public let value: A
  private let next: @Sendable (I) -> Moore<I, A>

  /// A machine showing `value` that becomes `next(input)` after `input`.
  public init(value: A, next: @escaping @Sendable (I) -> Moore<I, A>) {
    self.value = value
    self.next = next
  }

  /// The machine that folds inputs into `state` with `reduce` and shows `render(state)`.
  public init<S: Sendable>(
    state: S, reduce: @escaping @Sendable (S, I) -> S, render: @escaping @Sendable (S) -> A
  ) {
    self.init(value: render(state)) { input in
      Moore(state: reduce(state, input), reduce: reduce, render: render)
    }
  }

  /// The value now.
  @inlinable
  public func extract() -> A { value }

  /// The machine after `input`.
  public func step(_ input: I) -> Moore { next(input) }

  /// The machine after `inputs`, in order.
  public func run(_ inputs: some Sequence<I>) -> Moore {
    inputs.reduce(self) { $0.step($1) }
  }

  /// The same machine with every value transformed.
  public func map<B>(_ transform: @escaping @Sendable (A) -> B) -> Moore<I, B> where A: Sendable {
    let next = next
    return Moore<I, B>(value: transform(value)) { next($0).map(transform) }
  }

  /// A machine whose value after any inputs is `transform` of this machine after them: the
  /// comonad's `extend`.
  public func extend<B>(_ transform: @escaping @Sendable (Moore) -> B) -> Moore<I, B>
  where A: Sendable {
    let next = next
    return Moore<I, B>(value: transform(self)) { next($0).extend(transform) }
  }

  /// The machine of machines: after any inputs, this machine after them.
  public func duplicate() -> Moore<I, Moore> where A: Sendable { extend { $0 } }
}

extension Moore: Sendable where A: Sendable {}

/// The monad that pairs with ``Moore``: a list of inputs to send, and a result.
public struct Inputs<I, A> {
  /// The inputs, in order.
  public var inputs: [I]
  /// The result.
  public var value: A

  /// The action that sends `inputs` and produces `value`.
  public init(_ inputs: [I], value: A) {
    self.inputs = inputs
    self.value = value
  }

  /// The action's result transformed.
  public func map<B>(_ transform: (A) -> B) -> Inputs<I, B> {
    Inputs<I, B>(inputs, value: transform(value))
  }

  /// This action's inputs, then those of the action `next` makes of its result.
  public func flatMap<B>(_ next: (A) -> Inputs<I, B>) -> Inputs<I, B> {
    let following = next(value)
    return Inputs<I, B>(inputs + following.inputs, value: following.value)
  }
}

extension Inputs where A == Void {
  /// The action that sends `inputs`.
  public init(_ inputs: I...) { self.init(inputs, value: ()) }
}

extension Inputs: Sendable where I: Sendable, A: Sendable {}

/// Sends `action`'s inputs to `machine`, in order: the next future the action selects.
public func select<I, A, B>(_ action: Inputs<I, A>, _ machine: Moore<I, B>) -> Moore<I, B> {
  machine.run(action.inputs)
}

/// The pairing of `Inputs` with `Moore`: sends `action`'s inputs and combines its result with the
/// machine's value afterwards.
public func pair<I, A, B, C>(
  _ action: Inputs<I, A>, _ machine: Moore<I, B>, _ combine: (A, B) -> C
) -> C {
  combine(action.value, machine.run(action.inputs).value)
}
