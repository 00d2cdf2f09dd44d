#if canImport(Observation)
  import Observation

  /// A store as SwiftUI reads it: an `@Observable` model on the main actor whose `state`
  /// follows the store, and whose lists hand out one observable object per row, so a view that
  /// reads one row is invalidated by that row's changes only.
  ///
  /// ```swift
  /// @State var model = ObservableStore(ElmTodos.makeStore(environment: live))
  ///
  /// var body: some View {
  ///   let rows = model.list(\.rows)
  ///   ForEach(rows.ids, id: \.self) { id in RowView(row: rows.row(id)) }  // one row each
  ///   TextField("New", text: model.binding(\.draft) { .intent(.draftChanged($0)) })
  /// }
  /// ```
  ///
  /// State arrives on the main actor in order; an update older than one already shown is
  /// skipped. Reading `state` tracks the whole state; read through ``list(_:)`` and its rows
  /// for fine-grained updates.
  @MainActor
  public final class ObservableStore<State: Sendable, Action: Sendable>: Observable {
    /// The store's state, as of the last update delivered on the main actor.
    public private(set) var state: State {
      get {
        registrar.access(self, keyPath: statePath { \.state })
        return storedState
      }
      set {
        registrar.withMutation(of: self, keyPath: statePath { \.state }) { storedState = newValue }
      }
    }

    private var storedState: State
    private let registrar = ObservationRegistrar()
    private var statePath = KeptKeyPath<ObservableStore, State>()

    private let store: Store<State, Action>
    private var subscription: Subscription?
    private let delivery: MainActorDelivery<State>
    private var followers: [AnyKeyPath: any StateFollower<State>] = [:]

    /// Follows `store` from now on.
    public init(_ store: Store<State, Action>) {
      self.store = store
      storedState = store.state
      let box = WeakBox<ObservableStore>()
      let delivery = MainActorDelivery<State>(gate: store.runtime.gate) { state in
        box.value?.apply(state)
      }
      self.delivery = delivery
      subscription = store.subscribe { delivery.send($0) }
      box.value = self
    }

    /// Returns once every state the store had when this was called is shown (for tests).
    public func settled() async { await delivery.settled() }

    isolated deinit { subscription?.cancel() }

    /// Dispatches `action` to the store.
    public func send(_ action: Action) { store.dispatch(action) }

    /// The observable list of the identified list at `path`: the same object every time.
    public func list<ID: Hashable & Sendable, Row: Equatable & Sendable>(
      _ path: KeyPath<State, IdentifiedList<ID, Row>> & Sendable
    ) -> ObservableList<ID, Row> {
      if let list = followers[path] as? ObservableListFollower<State, ID, Row> { return list.list }
      let follower = ObservableListFollower(path: path, state: state)
      followers[path] = follower
      return follower.list
    }

    /// The observable presentation of the optional child at `path`: the same object every time.
    /// Its `child` is an object while a child is presented, `nil` otherwise, and a new object for
    /// each presentation (an `Identifiable` child with another id is a new presentation); a
    /// change inside the child touches only that object's `value`.
    ///
    /// ```swift
    /// let form = model.presented(\.addForm)
    /// .sheet(item: Binding(get: { form.child }, set: { if $0 == nil { model.send(.dismiss) } })) {
    ///   AddFormView(form: $0)   // reads $0.value: invalidated by the form's changes only
    /// }
    /// ```
    public func presented<Child: Equatable & Sendable>(
      _ path: KeyPath<State, Child?> & Sendable
    ) -> ObservablePresentation<Child> {
      presentation(path, isSame: presentationIdentity(Child.self))
    }

    private func presentation<Child: Equatable & Sendable>(
      _ path: KeyPath<State, Child?> & Sendable, isSame: @escaping @Sendable (Child, Child) -> Bool
    ) -> ObservablePresentation<Child> {
      if let follower = followers[path] as? PresentationFollower<State, Child> {
        return follower.presentation
      }
      let follower = PresentationFollower(path: path, isSame: isSame, state: state)
      followers[path] = follower
      return follower.presentation
    }

    private func apply(_ new: State) {
      state = new
      for follower in followers.values { follower.follow(new) }
    }
  }
#endif
