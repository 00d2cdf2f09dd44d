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
  @MainActor
  public final class ObservableLoop<U: Update, H: EffectHandler>: Observable
  where H.Effect == U.Effect {
    /// The loop's state, as of the last change delivered on the main actor.
    public private(set) var state: U.State {
      get {
        registrar.access(self, keyPath: statePath { \.state })
        return storedState
      }
      set {
        registrar.withMutation(of: self, keyPath: statePath { \.state }) { storedState = newValue }
      }
    }

    private var storedState: U.State
    private let registrar = ObservationRegistrar()
    private var statePath = KeptKeyPath<ObservableLoop, U.State>()

    private let loop: Loop<U, H>
    private var subscription: Subscription?
    private let delivery: MainActorDelivery<U.State>
    private var lists: [AnyKeyPath: any StateFollower<U.State>] = [:]

    /// Follows `loop` from now on, and starts it if it has not started.
    public init(_ loop: Loop<U, H>) {
      self.loop = loop
      storedState = loop.state
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

    /// The observable presentation of the optional child at `path` (a sheet's form): the same
    /// object every time. Its `child` is an object while a child is presented, `nil` otherwise,
    /// and a new object for each presentation (an `Identifiable` child with another id is a new
    /// presentation); a change inside the child touches only that object's `value`.
    ///
    /// ```swift
    /// let form = model.presented(\.form)
    /// .sheet(item: Binding(get: { form.child }, set: { if $0 == nil { model.send(.form(.cancel)) } })) {
    ///   AddFormView(form: $0)   // reads $0.value: invalidated by the form's changes only
    /// }
    /// ```
    public func presented<Child: Equatable & Sendable>(
      _ path: KeyPath<U.State, Child?> & Sendable
    ) -> ObservablePresentation<Child> {
      if let follower = lists[path] as? PresentationFollower<U.State, Child> {
        return follower.presentation
      }
      let follower = PresentationFollower(
        path: path, isSame: presentationIdentity(Child.self), state: state)
      lists[path] = follower
      return follower.presentation
    }

    private func apply(_ new: U.State) {
      state = new
      for follower in lists.values { follower.follow(new) }
    }
  }
#endif
