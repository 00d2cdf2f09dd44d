#if canImport(Observation)
  import Observation

  /// A component as SwiftUI reads it: an `@Observable` model on the main actor whose `state`
  /// follows the component, and whose lists hand out one observable object per row, so a view
  /// that reads one row is invalidated by that row's changes only.
  ///
  /// ```swift
  /// @State var model = ObservableComponent(ComonadicTodos.component(environment: live))
  ///
  /// var body: some View {
  ///   let rows = model.list(\.rows)
  ///   ForEach(rows.ids, id: \.self) { id in RowView(row: rows.row(id)) }  // one row each
  ///   Button("Clear completed") { model.send(.clearCompleted) }
  /// }
  /// ```
  ///
  /// States arrive on the main actor in order; one older than a state already shown is
  /// skipped. Reading `state` tracks the whole state; read through ``list(_:)`` and its rows,
  /// or ``presented(_:)`` and its child, for fine-grained updates.
  @MainActor
  public final class ObservableComponent<
    Environment: Sendable, S: Sendable, Input: Sendable, View
  >: Observable {
    /// The component's state, as of the last update delivered on the main actor.
    public private(set) var state: S {
      get {
        registrar.access(self, keyPath: statePath { \.state })
        return storedState
      }
      set {
        registrar.withMutation(of: self, keyPath: statePath { \.state }) { storedState = newValue }
      }
    }

    private var storedState: S
    private let registrar = ObservationRegistrar()
    private var statePath = KeptKeyPath<ObservableComponent, S>()

    private let component: StoreComponent<Environment, S, Input, View>
    private var subscription: Subscription?
    private let delivery: MainActorDelivery<S>
    private var followers: [AnyKeyPath: any StateFollower<S>] = [:]

    /// Follows `component` from now on.
    public init(_ component: StoreComponent<Environment, S, Input, View>) {
      self.component = component
      storedState = component.state
      let box = WeakBox<ObservableComponent>()
      let delivery = MainActorDelivery<S>(gate: component.explorer.gate) { state in
        box.value?.apply(state)
      }
      self.delivery = delivery
      subscription = component.onEffect { delivery.send($0) }
      box.value = self
    }

    /// Returns once every state the component had when this was called is shown (for tests).
    public func settled() async { await delivery.settled() }

    isolated deinit { subscription?.cancel() }

    /// Sends `input` to the component.
    public func send(_ input: Input) { component.send(input) }

    /// The view of the state shown now.
    public var view: View { component.space.peek(state) }

    /// The observable list of the identified list at `path`: the same object every time.
    public func list<ID: Hashable & Sendable, Row: Equatable & Sendable>(
      _ path: KeyPath<S, IdentifiedList<ID, Row>> & Sendable
    ) -> ObservableList<ID, Row> {
      if let list = followers[path] as? ObservableListFollower<S, ID, Row> { return list.list }
      let follower = ObservableListFollower(path: path, state: state)
      followers[path] = follower
      return follower.list
    }

    /// The observable presentation of the optional child at `path`: the same object every time.
    /// Its `child` is an object while a child is presented, `nil` otherwise, and a new object
    /// for each presentation (an `Identifiable` child with another id is a new presentation); a
    /// change inside the child touches only that object's `value`.
    ///
    /// ```swift
    /// let form = model.presented(\.form)
    /// .sheet(item: Binding(get: { form.child }, set: { if $0 == nil { model.send(.form(.cancel)) } })) {
    ///   AddFormView(form: $0)   // reads $0.value: invalidated by the form's changes only
    /// }
    /// ```
    public func presented<Child: Equatable & Sendable>(
      _ path: KeyPath<S, Child?> & Sendable
    ) -> ObservablePresentation<Child> {
      if let follower = followers[path] as? PresentationFollower<S, Child> {
        return follower.presentation
      }
      let follower = PresentationFollower(
        path: path, isSame: presentationIdentity(Child.self), state: state)
      followers[path] = follower
      return follower.presentation
    }

    private func apply(_ new: S) {
      state = new
      for follower in followers.values { follower.follow(new) }
    }
  }
#endif

extension StoreComponent {
  /// Calls `observer` on the main actor with `transform` of the state now, then whenever it
  /// changes: what a UI that is not SwiftUI needs. Values hop to the main actor in order; one
  /// older than a value already delivered is skipped.
  @discardableResult
  public func subscribeOnMainActor<Value: Equatable & Sendable>(
    _ transform: @escaping @Sendable (S) -> Value,
    _ observer: @escaping @MainActor @Sendable (Value) -> Void
  ) -> Subscription {
    let delivery = MainActorDelivery(gate: explorer.gate, observer)
    return explorer.observe(
      initial: true, onlyOnChange: nil, distinct({ transform($0.position) }, { delivery.send($0) }))
  }
}
