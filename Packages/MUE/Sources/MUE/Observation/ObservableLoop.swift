extension Loop {
  /// Calls `observer` on the main actor with `transform` of the state now, then whenever it
  /// changes: what a UI that is not SwiftUI needs. Values hop to the main actor in order; one
  /// older than a value already delivered is skipped.
  @discardableResult
  public func observeOnMainActor<Value: Equatable & Sendable>(
    _ transform: @escaping @Sendable (State) -> Value,
    _ observer: @escaping @MainActor @Sendable (Value) -> Void
  ) -> Subscription {
    let delivery = MainActorDelivery(gate: runtime.gate, observer)
    return observe(transform) { delivery.send($0) }
  }
}

#if canImport(Observation)
  import Observation

  /// A loop as SwiftUI reads it: an `@Observable` model on the main actor whose `state` follows
  /// the loop, whose ``send(_:)`` is the loop's handler, and whose lists hand out one observable
  /// object per row, so a view that reads one row is invalidated by that row's changes only.
  ///
  /// ```swift
  /// @State var model = ObservableLoop(MUETodos.makeLoop(environment: live))
  ///
  /// var body: some View {
  ///   let rows = model.list(\.rows)
  ///   ForEach(rows.ids, id: \.self) { id in RowView(row: rows.row(id)) }  // one row each
  ///   Button("Clear completed") { model.send(.clearCompleted) }
  /// }
  /// ```
  ///
  /// The model holds the loop; the loop does not hold the model, so releasing the model stops
  /// the loop. State arrives on the main actor in order; a state older than one already shown
  /// is skipped.
  @MainActor @Observable
  public final class ObservableLoop<U: Update, H: EffectHandler> where H.Effect == U.Effect {
    /// The loop's state, as of the last change delivered on the main actor.
    public private(set) var state: U.State

    @ObservationIgnored private let loop: Loop<U, H>
    @ObservationIgnored private var subscription: Subscription?
    @ObservationIgnored private let delivery: MainActorDelivery<U.State>
    @ObservationIgnored private var lists: [AnyKeyPath: any StateFollower<U.State>] = [:]

    /// Follows `loop` from now on, and starts it if it has not started.
    public init(_ loop: Loop<U, H>) {
      self.loop = loop
      state = loop.state
      let box = WeakBox<ObservableLoop>()
      let delivery = MainActorDelivery<U.State> { state in box.value?.apply(state) }
      self.delivery = delivery
      subscription = loop.observe { delivery.send($0) }
      box.value = self
      loop.start()
    }

    /// Returns once every state the loop had when this was called is shown (for tests).
    public func settled() async { await delivery.settled() }

    isolated deinit {
      subscription?.cancel()
      loop.stop()
    }

    /// Sends `event` to the loop.
    public func send(_ event: U.Event) { loop.send(event) }

    /// The observable list of the identified list at `path`: the same object every time.
    public func list<ID: Hashable & Sendable, Row: Equatable & Sendable>(
      _ path: KeyPath<U.State, IdentifiedList<ID, Row>> & Sendable
    ) -> ObservableList<ID, Row> {
      if let list = lists[path] as? ObservableListFollower<U.State, ID, Row> { return list.list }
      let follower = ObservableListFollower(path: path, state: state)
      lists[path] = follower
      return follower.list
    }

    private func apply(_ new: U.State) {
      state = new
      for follower in lists.values { follower.follow(new) }
    }
  }
#endif
