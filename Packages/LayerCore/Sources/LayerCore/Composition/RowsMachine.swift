/// The machine of a list's rows on screen: one machine for the whole identified list, which a
/// screen asks for single rows — like a table view that makes a cell for the rows it shows.
///
/// Give it the list with a layer, and send what the user does to a row as its output:
///
/// ```swift
/// let rows = RowsMachine<Int, TodoRow.State, TodosIntent>()
/// // The core's layers:
/// .layer(~rows, stateMapper: \.rows, eventMapper: AppEvent.click)
/// // The screen:
/// rows.observe(7) { row in render(row) }  // row 7 now, then each change, nil once it left
/// rows.send(.row(id: 7, .toggle))
/// ```
///
/// What it keeps does not grow with the list: the observed rows, not the list (which would
/// keep the flow's state shared, so that a reducer written in place would copy the changed
/// row's path). An observer that joins later reads the flow's list then. A new list costs one
/// look at the rows observed (one comparison when a single row changed in place), and nothing
/// for the others. Where each row needs a machine
/// of its own — work of its own, cancelled when the row leaves — use
/// ``Layer/forEach(_:machine:event:)``.
///
/// Wire one instance into one layer: it is the screen of that layer's list.
public final class RowsMachine<
  ID: Hashable & Sendable, Row: Equatable & Sendable, Output: Sendable
>: ChildMachine, @unchecked Sendable {
  // @unchecked: `current` is read and written only by the flow's drain (`process` runs there,
  // on the shared queue, and so do the jobs that join observers); `wiring` is behind its lock.
  public typealias Input = IdentifiedList<ID, Row>

  @usableFromInline
  struct Wiring {
    @usableFromInline var callback: Handler<Output>?
    /// Observers that asked before the machine started: they join at start.
    @usableFromInline var waiting: [Int] = []

    @inlinable init() {}
  }

  // Inlinable, like the rest: compiled where the row type is known, the observers' code runs
  // specialized, not through the row's metadata.
  @usableFromInline let observers = RowObservers<ID, Row>()
  @usableFromInline let wiring = Lock(Wiring())
  /// The list the machine got last, kept only where its layer cannot read the flow's list
  /// now (inside a composition); empty until the first.
  @usableFromInline var current = IdentifiedList<ID, Row>()

  @inlinable public init() {}

  /// ``MachineQueue/shared``: the machine's calls and its observers' joins run in the flow's
  /// order.
  @inlinable public var queue: MachineQueue { .shared }

  @inlinable
  public func process(input: IdentifiedList<ID, Row>?, callback: Handler<Output>) {
    // Read through `input!`, not bound with `guard let`: binding copies the list (a retain and
    // a release of everything it holds) for every state the flow delivers.
    guard case .some = input else {
      let waiting = wiring.withLock { wiring -> [Int] in
        wiring.callback = callback
        defer { wiring.waiting = [] }
        return wiring.waiting
      }
      let list = list(callback)
      for token in waiting { observers.join(token, list) }
      return
    }
    if callback.reader == nil { current = input! }
    observers.follow(input!)
  }

  /// The list now: the flow's, read through the layer, or the last one kept.
  @inlinable
  func list(_ callback: Handler<Output>) -> IdentifiedList<ID, Row> {
    guard let reader = callback.reader else { return current }
    return reader.now() as? IdentifiedList<ID, Row> ?? IdentifiedList()
  }

  /// Calls `observer` with row `id` (`nil`: not in the list), then whenever that row changes.
  ///
  /// An observer added before the machine started hears at its start (no list yet: `nil`); one
  /// added later hears in the flow's order, at once when the flow is idle. Once the flow
  /// stopped it hears nothing.
  ///
  /// - Returns: What stops the observer; it is not called once that returns, except by a call
  ///   already begun.
  /// - Complexity: O(1) for each new list, whatever its length, when a single row changed in
  ///   place; otherwise one comparison per observer of a row that may have changed.
  @inlinable
  @discardableResult
  public func observe(
    _ id: ID, _ observer: @escaping @Sendable (Row?) -> Void
  ) -> @Sendable () -> Void {
    let observers = self.observers
    let token = observers.add(id, observer)
    let callback = wiring.withLock { wiring -> Handler<Output>? in
      if wiring.callback == nil { wiring.waiting.append(token) }
      return wiring.callback
    }
    if let callback {
      callback.host.host?.enqueue(from: nil) { [self] in observers.join(token, list(callback)) }
    }
    return { observers.remove(token) }
  }

  /// Calls `observer` with `transform` of row `id` (`nil`: not in the list), then whenever that
  /// value changes; see ``observe(_:_:)``.
  @discardableResult
  public func observe<Value: Equatable & Sendable>(
    _ id: ID, _ transform: @escaping @Sendable (Row?) -> Value,
    _ observer: @escaping @Sendable (Value) -> Void
  ) -> @Sendable () -> Void {
    observe(id, distinct(transform, observer))
  }

  /// Sends `output` up, as the machine's own: what the user did to a row. Dropped before the
  /// machine started and after the flow stopped.
  @inlinable
  public func send(_ output: Output) {
    wiring.withLock { $0.callback }?(output)
  }
}
