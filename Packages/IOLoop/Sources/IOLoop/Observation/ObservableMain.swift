extension Main {
  /// Calls `observer` on the main actor with `transform` of the state now, then whenever it
  /// changes: what a UI that is not SwiftUI needs. Values hop to the main actor in order; one
  /// older than a value already delivered is skipped.
  @discardableResult
  public func observeOnMainActor<Value: Equatable & Sendable>(
    _ transform: @escaping @Sendable (App) -> Value,
    _ observer: @escaping @MainActor @Sendable (Value) -> Void
  ) -> Subscription {
    let delivery = MainActorDelivery(gate: runtime.gate, observer)
    return observe(transform) { delivery.send($0) }
  }
}

#if canImport(Observation)
  import Observation

  /// A program as SwiftUI reads it: an `@Observable` model on the main actor whose `state`
  /// follows the program, whose ``send(_:)`` sends an input, and whose lists hand out one
  /// observable object per row, so a view that reads one row is invalidated by that row's
  /// changes only.
  ///
  /// ```swift
  /// @State var model = ObservableMain(todosProgram)
  ///
  /// var body: some View {
  ///   let rows = model.list(\.rows)
  ///   ForEach(rows.ids, id: \.self) { id in RowView(row: rows.row(id)) }  // one row each
  ///   Button("Clear completed") { model.send(IOTodos.Input(.clearCompleted, nil, nil, nil)) }
  /// }
  /// ```
  ///
  /// The model holds the program; the program does not hold the model, so releasing the model
  /// stops the program. States arrive on the main actor in order; a state older than one
  /// already shown is skipped.
  @MainActor
  public final class ObservableMain<App: PureApp>: Observable {
    /// The program's state, as of the last step delivered on the main actor.
    public private(set) var state: App {
      get {
        registrar.access(self, keyPath: statePath { \.state })
        return storedState
      }
      set {
        registrar.withMutation(of: self, keyPath: statePath { \.state }) { storedState = newValue }
      }
    }

    private var storedState: App
    private let registrar = ObservationRegistrar()
    private var statePath = KeptKeyPath<ObservableMain, App>()

    // The program, by what the model does with it (an observable class cannot be generic
    // over its handlers' pack).
    private let sendInput: @Sendable (App.Input) -> Void
    private let stop: @Sendable () -> Void
    private var subscription: Subscription?
    private let delivery: MainActorDelivery<App>
    private var lists: [AnyKeyPath: any StateFollower<App>] = [:]

    /// Follows `main` from now on, and starts it if it has not started.
    public init<each Handler: IOHandler>(_ main: Main<App, repeat each Handler>)
    where
      App.Input == IOInput<repeat (each Handler).IO>,
      App.Outputs == IOOutputs<repeat (each Handler).IO>
    {
      sendInput = main.send
      stop = main.stop
      storedState = main.state
      let box = WeakBox<ObservableMain>()
      let delivery = MainActorDelivery<App>(gate: main.runtime.gate) { state in
        box.value?.apply(state)
      }
      self.delivery = delivery
      subscription = main.subscribe { delivery.send($0) }
      box.value = self
      main.start()
    }

    /// Returns once every state the program had when this was called is shown (for tests).
    public func settled() async { await delivery.settled() }

    isolated deinit {
      subscription?.cancel()
      stop()
    }

    /// Sends `input` to the program.
    public func send(_ input: App.Input) { sendInput(input) }

    /// The observable list of the identified list at `path`: the same object every time.
    public func list<ID: Hashable & Sendable, Row: Equatable & Sendable>(
      _ path: KeyPath<App, IdentifiedList<ID, Row>> & Sendable
    ) -> ObservableList<ID, Row> {
      if let list = lists[path] as? ObservableListFollower<App, ID, Row> { return list.list }
      let follower = ObservableListFollower(path: path, state: state)
      lists[path] = follower
      return follower.list
    }

    /// The observable presentation of the child program presented at `path` (a sheet's form):
    /// the same object every time. Its `child` is an object while a child is presented, `nil`
    /// otherwise, and a new object for each presentation; a change inside the child touches
    /// only that object's `value`.
    ///
    /// ```swift
    /// let form = model.presented(\.form)
    /// .sheet(item: Binding(get: { form.child }, set: { if $0 == nil { cancel() } })) {
    ///   AddFormView(form: $0)   // reads $0.value: invalidated by the form's changes only
    /// }
    /// ```
    public func presented<Child: PureApp & Equatable>(
      _ path: KeyPath<App, Presentation<Child>> & Sendable
    ) -> ObservablePresentation<Child> {
      if let follower = lists[path] as? PresentationFollower<App, Child> {
        return follower.presentation
      }
      let follower = PresentationFollower<App, Child>(
        read: { app in
          let presentation = app[keyPath: path]
          return presentation.child.map { ($0, AnyHashable(presentation.number)) }
        }, state: state)
      lists[path] = follower
      return follower.presentation
    }

    private func apply(_ new: App) {
      state = new
      for follower in lists.values { follower.follow(new) }
    }
  }
#endif
