/// The store comonad: a position and, for every position, the value there.
///
/// In a comonadic UI, `S` is the app's state and `A` its view: a `Store` is the space of every
/// screen the component can show, focused on the current one. ``extract()`` is the screen now;
/// ``peek(_:)`` the screen at another state; ``seek(_:)`` moves the focus.
public struct Store<S, A> {
  /// The current position (the component's state).
  public var position: S
  /// The value at any position.
  public let render: @Sendable (S) -> A

  /// A store focused on `position`, whose value at each position is `render`'s.
  public init(position: S, render: @escaping @Sendable (S) -> A) {
    self.position = position
    self.render = render
  }

  /// The value at the current position.
  @inlinable
  public func extract() -> A { render(position) }

  /// The value at `position`, leaving the focus where it is.
  @inlinable
  public func peek(_ position: S) -> A { render(position) }

  /// The same space, focused on `position`.
  @inlinable
  public func seek(_ position: S) -> Store {
    Store(position: position, render: render)
  }

  /// The same space with every value transformed.
  public func map<B>(_ transform: @escaping @Sendable (A) -> B) -> Store<S, B> {
    let render = render
    return Store<S, B>(position: position) { transform(render($0)) }
  }
}

extension Store where S: Sendable {
  /// A store whose value at each position is `transform` of this store focused there: the
  /// comonad's `extend`.
  public func extend<B>(_ transform: @escaping @Sendable (Store) -> B) -> Store<S, B> {
    let render = render
    return Store<S, B>(position: position) { transform(Store(position: $0, render: render)) }
  }

  /// The store of stores: at each position, this store focused there.
  public func duplicate() -> Store<S, Store> { extend { $0 } }
}

extension Store: Sendable where S: Sendable {}
