extension Dispatcher {
  /// This dispatcher for every element of an identified list in a bigger component: it handles
  /// the inputs `transformInput` picks out, each for the element with its id, on that element's
  /// state (Bow Arch's `widen` with an index into the list; TCA's `forEach`).
  ///
  /// ```swift
  /// let rows = ComonadicTodoRow.dispatcher.forEach(
  ///   transformEnvironment: { _ in () }, transformState: \Todos.rows,
  ///   transformInput: { if case .row(let id, let input) = $0 { (id, input) } else { nil } })
  /// ```
  ///
  /// An input for an id not in the list is ignored. Each element's work is its own (two rows'
  /// timers never replace each other), sees that element's state, and is cancelled when the
  /// element leaves the list, whatever removed it; its late results are dropped.
  ///
  /// - Complexity: O(1) per input and per action, whatever the length of the list.
  @inlinable
  public func forEach<
    BigEnvironment: Sendable, BigState: Sendable, BigInput, ID: Hashable & Sendable
  >(
    transformEnvironment: @escaping @Sendable (BigEnvironment) -> Environment,
    transformState: WritableKeyPath<BigState, IdentifiedList<ID, Focus>> & Sendable,
    transformInput: @escaping @Sendable (BigInput) -> (ID, Input)?
  ) -> Dispatcher<BigEnvironment, BigState, State<BigState, Void>, BigInput>
  where Action == State<Focus, Void> {
    let plan = plan
    let list = AnyWorkID(PartScope(transformState))
    // Made once, not with each input's lift.
    let field = WritableField(transformState)
    let departures = Departures<BigState> { ElementTracker(list: list, rows: field).watch() }
    return Dispatcher<BigEnvironment, BigState, State<BigState, Void>, BigInput>(
      departures: [departures]
    ) { input in
      guard let (id, input) = transformInput(input) else { return .none }
      let lift = Lift<BigEnvironment, BigState, Environment, Focus>(
        environment: transformEnvironment, place: ElementPlace(list: field, id: id),
        scope: AnyWorkID(Element(list: list, id: id)))
      return lift.plan(plan(input))
    }
  }
}

extension Effect {
  /// This step of a list element's as a step of the whole: run with the element's environment
  /// and state, its actions applied to the element `id` of the list at `forEach`, its work filed
  /// under that element as ``Dispatcher/forEach(transformEnvironment:transformState:transformInput:)``
  /// files it — so it ends when the element leaves the list. Nothing runs once it has left.
  ///
  /// What a parent uses to start an element's work for something it decided itself: the contacts
  /// app loads each screen it pushes.
  @inlinable
  public func widen<BigEnvironment: Sendable, BigState: Sendable, ID: Hashable & Sendable>(
    transformEnvironment: @escaping @Sendable (BigEnvironment) -> Environment,
    forEach path: WritableKeyPath<BigState, IdentifiedList<ID, Focus>> & Sendable, id: ID
  ) -> Effect<BigEnvironment, BigState, State<BigState, Void>>
  where Action == State<Focus, Void> {
    Self.widening(transformEnvironment: transformEnvironment, forEach: path)(id, self)
  }

  /// ``widen(transformEnvironment:forEach:id:)`` as a function, made once for any number of
  /// steps and elements: keep it in a `static let`.
  @inlinable
  public static func widening<
    BigEnvironment: Sendable, BigState: Sendable, ID: Hashable & Sendable
  >(
    transformEnvironment: @escaping @Sendable (BigEnvironment) -> Environment,
    forEach path: WritableKeyPath<BigState, IdentifiedList<ID, Focus>> & Sendable
  ) -> @Sendable (ID, Effect) -> Effect<BigEnvironment, BigState, State<BigState, Void>>
  where Action == State<Focus, Void> {
    let list = AnyWorkID(PartScope(path))
    let field = WritableField(path)
    return { id, effect in
      Lift<BigEnvironment, BigState, Environment, Focus>(
        environment: transformEnvironment, place: ElementPlace(list: field, id: id),
        scope: AnyWorkID(Element(list: list, id: id))
      ).effect(effect)
    }
  }
}

extension State where A == Void {
  /// This action on the element `id` of the list at `path`; nothing when no element has it.
  ///
  /// - Complexity: O(1): the element changes in place.
  @inlinable
  public func widen<Big, ID: Hashable & Sendable>(
    _ path: WritableKeyPath<Big, IdentifiedList<ID, S>> & Sendable, id: ID
  ) -> State<Big, Void> where S: Sendable {
    let action = self
    return .mutate { $0[keyPath: path].update(id: id) { action.apply(to: &$0) } }
  }
}
