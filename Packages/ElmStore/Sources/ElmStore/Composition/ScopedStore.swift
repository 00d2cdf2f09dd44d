/// A view of one part of a ``Store``: the child's state, read from the root's, and a dispatch
/// that embeds the child's actions into the root's (TCA's `store.scope`). There is still one
/// store and one queue, so every rule of the root holds across the tree (FIFO, one action at a
/// time). A scoped store keeps its root alive; its subscriptions do not.
///
/// ```swift
/// let stopwatch = shell.scope(state: \.stopwatch, action: ShellAction.stopwatch)
/// stopwatch.dispatch(.intent(.lap))        // the shell's .stopwatch(.intent(.lap))
/// stopwatch.subscribe(ElmStopwatch.view) { render($0) }  // only the stopwatch's changes
/// ```
public struct ScopedStore<State: Sendable, Action: Sendable>: Sendable {
  @usableFromInline let read: @Sendable () -> State
  @usableFromInline let send: @Sendable (Action) -> Void
  @usableFromInline let observe: @Sendable (@escaping @Sendable (State) -> Void) -> Subscription

  @inlinable
  init(
    read: @escaping @Sendable () -> State, send: @escaping @Sendable (Action) -> Void,
    observe: @escaping @Sendable (@escaping @Sendable (State) -> Void) -> Subscription
  ) {
    self.read = read
    self.send = send
    self.observe = observe
  }

  /// The child's state now.
  public var state: State { read() }

  /// Dispatches a child action: the root's action that carries it.
  public func dispatch(_ action: Action) { send(action) }

  /// Calls `observer` with `transform` of the child's state now, then whenever it changes.
  ///
  /// Each action costs this observer one `transform` and one comparison, whatever else the root
  /// holds: observing one row of 10,000 costs the same as observing one of ten.
  @discardableResult
  public func subscribe<Value: Equatable & Sendable>(
    _ transform: @escaping @Sendable (State) -> Value,
    _ observer: @escaping @Sendable (Value) -> Void
  ) -> Subscription {
    observe(distinct(transform, observer))
  }

  /// A scope of this scope.
  public func scope<Child: Sendable, ChildAction: Sendable>(
    state path: KeyPath<State, Child> & Sendable,
    action embed: @escaping @Sendable (ChildAction) -> Action
  ) -> ScopedStore<Child, ChildAction> {
    let read = self.read
    let send = self.send
    let observe = self.observe
    let field = FieldReader(path)
    return ScopedStore<Child, ChildAction>(
      read: { field(read()) }, send: { send(embed($0)) },
      observe: { observer in observe { observer(field($0)) } })
  }
}

extension ScopedStore where State: Equatable {
  /// Calls `observer` with the child's state now, then whenever it changes.
  @discardableResult
  public func subscribe(_ observer: @escaping @Sendable (State) -> Void) -> Subscription {
    subscribe({ $0 }, observer)
  }
}

extension Store {
  /// A view of the part of the state at `path`, dispatching through `embed`.
  public func scope<Child: Sendable, ChildAction: Sendable>(
    state path: KeyPath<State, Child> & Sendable,
    action embed: @escaping @Sendable (ChildAction) -> Action
  ) -> ScopedStore<Child, ChildAction> {
    let field = FieldReader(path)
    return ScopedStore(
      read: { field(self.state) }, send: { self.dispatch(embed($0)) },
      observe: { observer in self.subscribe { observer(field($0)) } })
  }

  /// A view of one element of an identified list: its state (`nil` once it left the list) and
  /// a dispatch that sends the root's action for that element. Actions sent after the element
  /// left are the root's actions for an unknown id, which a lifted update ignores.
  ///
  /// - Complexity: reading is O(1), whatever the length of the list; each action costs an
  ///   observer of this scope one `transform` and one comparison. With `Equatable` rows the
  ///   observers of one list are told only about rows that changed instead (see the overload).
  @inlinable
  public func scope<ID: Hashable & Sendable, Child: Sendable, ChildAction: Sendable>(
    forEach path: KeyPath<State, IdentifiedList<ID, Child>> & Sendable, id: ID,
    action embed: @escaping @Sendable (ID, ChildAction) -> Action
  ) -> ScopedStore<Child?, ChildAction> {
    let field = FieldReader(path)
    return ScopedStore(
      read: { field(self.state)[id: id] }, send: { self.dispatch(embed(id, $0)) },
      observe: { observer in self.subscribe { observer(field($0)[id: id]) } })
  }

  /// A view of one element of an identified list of `Equatable` rows: its state (`nil` once it
  /// left the list) and a dispatch that sends the root's action for that element.
  ///
  /// The observers of rows of one list share one subscription to the store, which after each
  /// action looks up each observed row and compares it with the row its observers last saw, and
  /// calls only the observers of rows that changed: an unchanged observed row costs one lookup
  /// and one comparison (no transform), a row nobody observes nothing.
  ///
  /// ```swift
  /// let row = store.scope(forEach: \.rows, id: 7) { .row(id: $0, $1) }
  /// row.subscribe(TodoRow.view) { render($0) }   // called only when row 7 changes
  /// ```
  ///
  /// - Complexity: reading is O(1); an action costs O(1) per observed row, whatever the length
  ///   of the list.
  @inlinable
  public func scope<ID: Hashable & Sendable, Child: Equatable & Sendable, ChildAction: Sendable>(
    forEach path: KeyPath<State, IdentifiedList<ID, Child>> & Sendable, id: ID,
    action embed: @escaping @Sendable (ID, ChildAction) -> Action
  ) -> ScopedStore<Child?, ChildAction> {
    let runtime = self.runtime
    return ScopedStore(
      read: { self.state[keyPath: path][id: id] }, send: { self.dispatch(embed(id, $0)) },
      observe: { observer in runtime.observeRow(path, id, observer) })
  }
}
