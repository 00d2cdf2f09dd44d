#if canImport(Observation)
  import Observation

  /// A UI machine as SwiftUI reads it: an `@Observable` model on the main actor whose `value`
  /// is the last input its layer gave it, and whose ``send(_:)`` emits outputs to the layer.
  ///
  /// Put its ``machine`` in a layer of your core, as simprokcore put a view machine there. Its
  /// `process` runs on the main actor (``MachineQueue/main``), so the model changes only there,
  /// in the order the flow delivered.
  ///
  /// ```swift
  /// let screen = ObservableMachine<TodosScreen, TodosEvent>()
  ///
  /// struct TodosCore: Core {
  ///   let screen: ObservableMachine<TodosScreen, TodosEvent>
  ///   var layers: [Layer<Todos, TodosEvent>] {
  ///     [.layer(screen.machine, stateMapper: TodosScreen.init, eventMapper: { $0 })]
  ///   }
  /// }
  ///
  /// var body: some View {
  ///   let rows = screen.list(\.rows)
  ///   ForEach(rows.ids, id: \.self) { id in RowView(row: rows.row(id)) }  // one row each
  ///   Button("Clear completed") { screen.send(.clearCompleted) }
  /// }
  /// ```
  ///
  /// Reading `value` tracks the whole input; read through ``list(_:)`` and its rows for
  /// fine-grained updates.
  @MainActor
  public final class ObservableMachine<Input: Sendable, Output: Sendable>: Observable, Sendable {
    /// The last input the layer gave; `nil` until the flow's state first reaches it.
    public private(set) var value: Input? {
      get {
        registrar.access(self, keyPath: valuePath { \.value })
        return storedValue
      }
      set {
        registrar.withMutation(of: self, keyPath: valuePath { \.value }) { storedValue = newValue }
      }
    }

    private var storedValue: Input?
    private let registrar = ObservationRegistrar()
    private var valuePath = KeptKeyPath<ObservableMachine, Input?>()

    private var callback: Handler<Output>?
    private var lists: [AnyKeyPath: any StateFollower<Input>] = [:]

    /// A model waiting for its machine to be wired into a flow.
    public nonisolated init() {}

    /// Emits `output` to the machine's layer; nothing until the flow started the machine.
    public func send(_ output: Output) { callback?(output) }

    /// The observable list of the identified list at `path` of the input: the same object
    /// every time; empty until the first input.
    public func list<ID: Hashable & Sendable, Row: Equatable & Sendable>(
      _ path: KeyPath<Input, IdentifiedList<ID, Row>> & Sendable
    ) -> ObservableList<ID, Row> {
      if let list = lists[path] as? ObservableFollowerOfOptional<Input, ID, Row> {
        return list.list
      }
      let follower = ObservableFollowerOfOptional(path: path, value: value)
      lists[path] = follower
      return follower.list
    }

    /// The observable presentation of the optional child at `path` of the input (a sheet's
    /// form): the same object every time. Its `child` is an object while a child is presented,
    /// `nil` otherwise, and a new object for each presentation (an `Identifiable` child with
    /// another id is a new presentation); a change inside the child touches only that object's
    /// `value`.
    public func presented<Child: Equatable & Sendable>(
      _ path: KeyPath<Input, Child?> & Sendable
    ) -> ObservablePresentation<Child> {
      if let follower = lists[path] as? PresentationFollower<Input, Child> {
        return follower.presentation
      }
      let follower = PresentationFollower<Input, Child>(
        path: path, isSame: presentationIdentity(Child.self), state: value)
      lists[path] = follower
      return follower.presentation
    }

    /// The machine to put in a layer: its `process` runs on the main actor.
    public nonisolated var machine: Machine<Input, Output> { Bridge(model: self).machine }

    fileprivate func process(_ input: Input?, _ callback: Handler<Output>) {
      self.callback = callback
      guard let input else { return }
      value = input
      for follower in lists.values { follower.follow(input) }
    }

    /// The machine side of the model.
    private struct Bridge: ChildMachine {
      let model: ObservableMachine

      var queue: MachineQueue { .main }

      func process(input: Input?, callback: Handler<Output>) {
        MainActor.assumeIsolated { model.process(input, callback) }
      }
    }
  }

  /// Follows an identified list in values that may not have arrived yet.
  @MainActor
  final class ObservableFollowerOfOptional<
    Value, ID: Hashable & Sendable, Row: Equatable & Sendable
  >: StateFollower {
    let path: KeyPath<Value, IdentifiedList<ID, Row>>
    let follower: ObservableListFollower<IdentifiedList<ID, Row>, ID, Row>

    init(path: KeyPath<Value, IdentifiedList<ID, Row>>, value: Value?) {
      self.path = path
      follower = ObservableListFollower(
        path: \.self, state: value.map { $0[keyPath: path] } ?? IdentifiedList())
    }

    var list: ObservableList<ID, Row> { follower.list }

    func follow(_ value: Value) { follower.follow(value[keyPath: path]) }
  }
#endif
