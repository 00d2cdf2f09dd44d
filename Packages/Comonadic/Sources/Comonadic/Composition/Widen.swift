extension Dispatcher {
  /// This dispatcher as part of a bigger component: its environment is taken from the bigger
  /// one's, its state is a part of the bigger state (the lens `transformState`), and it handles
  /// the inputs `transformInput` picks out (the prism; the others are ignored).
  ///
  /// ```swift
  /// let shell = ComonadicCounter.dispatcher.widen(
  ///   transformEnvironment: \.counter, transformState: \Shell.counter,
  ///   transformInput: { if case .counter(let input) = $0 { input } else { nil } })
  /// .combine(ComonadicStopwatch.dispatcher.widen(...))
  /// ```
  ///
  /// The part's work is filed under its place in the whole, so two parts' work ids never meet:
  /// two counters side by side each save one at a time, neither cancelling the other's.
  @inlinable
  public func widen<BigEnvironment: Sendable, BigState: Sendable, BigInput>(
    transformEnvironment: @escaping @Sendable (BigEnvironment) -> Environment,
    transformState: WritableKeyPath<BigState, Focus> & Sendable,
    transformInput: @escaping @Sendable (BigInput) -> Input?
  ) -> Dispatcher<BigEnvironment, BigState, State<BigState, Void>, BigInput>
  where Action == State<Focus, Void> {
    let plan = plan
    let field = FieldReader(transformState)
    let lift = Lift<BigEnvironment, BigState, Environment, Focus>(
      environment: transformEnvironment, path: transformState, field: field)
    let scope = lift.scope
    let departures = departures.map { $0.widened(isPart: { $0 == scope }, part: { field($0) }) }
    return Dispatcher<BigEnvironment, BigState, State<BigState, Void>, BigInput>(
      departures: departures
    ) { input in
      guard let input = transformInput(input) else { return .none }
      return lift.plan(plan(input))
    }
  }

  /// This dispatcher as a part of a bigger component that exists only while presented: its state
  /// is the optional `transformState` of the bigger state (a sheet, a form), and it handles the
  /// inputs `transformInput` picks out while a child is there (the others, and every input
  /// while nothing is presented, are ignored). TCA calls this `ifLet`.
  ///
  /// ```swift
  /// let form = AddForm.dispatcher.widen(
  ///   transformEnvironment: \.service, transformState: \Contacts.form,
  ///   transformInput: { if case .form(let input) = $0 { input } else { nil } })
  /// ```
  ///
  /// The child's work is filed under its presentation: when the action that dismisses it (sets
  /// the optional to `nil`, or presents another child — for an `Identifiable` child, one with
  /// another id) has been applied, the component cancels that work, whatever input or result
  /// dismissed it, and drops its late results. A result never lands in a later presentation.
  /// The parent's code names nothing to cancel.
  ///
  /// - Complexity: O(1) per action, plus what cancelling the dismissed child's work costs.
  @inlinable
  public func widen<BigEnvironment: Sendable, BigState: Sendable, BigInput>(
    transformEnvironment: @escaping @Sendable (BigEnvironment) -> Environment,
    transformState: WritableKeyPath<BigState, Focus?> & Sendable,
    transformInput: @escaping @Sendable (BigInput) -> Input?
  ) -> Dispatcher<BigEnvironment, BigState, State<BigState, Void>, BigInput>
  where Action == State<Focus, Void> {
    let plan = plan
    // Read (and the child changed) through its offset in the whole.
    let place = PresentedPlace(transformState)
    let (field, part) = (place.child, place.part)
    let lift = Lift<BigEnvironment, BigState, Environment, Focus>(
      environment: transformEnvironment, presented: place)
    let presence = Departures<BigState> { PresenceTracker(place).watch() }
    let inner = departures.map {
      $0.widened(
        isPart: { $0.value(as: Presence.self)?.part == part },
        part: { (whole: BigState) in field(whole) })
    }
    return Dispatcher<BigEnvironment, BigState, State<BigState, Void>, BigInput>(
      departures: [presence] + inner
    ) { input in
      guard let input = transformInput(input) else { return .none }
      return lift.plan(plan(input))
    }
  }

}

extension Effect {
  /// This step of a part as a step of the whole: run with the part's environment and state,
  /// its actions applied to the part; its work filed under the part, as
  /// ``Dispatcher/widen(transformEnvironment:transformState:transformInput:)-(_,WritableKeyPath<BigState,Focus>Sendable,_)`` files it.
  ///
  /// What a parent uses to run a child's steps for something it decided itself (the shell's
  /// `resetAll` runs the counter's save).
  @inlinable
  public func widen<BigEnvironment: Sendable, BigState: Sendable>(
    transformEnvironment: @escaping @Sendable (BigEnvironment) -> Environment,
    transformState: WritableKeyPath<BigState, Focus> & Sendable
  ) -> Effect<BigEnvironment, BigState, State<BigState, Void>>
  where Action == State<Focus, Void> {
    Self.widening(transformEnvironment: transformEnvironment, transformState: transformState)(
      self)
  }

  /// ``widen(transformEnvironment:transformState:)`` as a function, made once for any number
  /// of steps: for a parent that widens a child's steps again and again (the shell runs the
  /// counter's save steps after each change it makes to the count). Keep it in a `static let`:
  /// what every widening works out from the key path (where the part is stored, its work ids)
  /// is then worked out once.
  ///
  /// ```swift
  /// static let onCounter = CounterStep.widening(
  ///   transformEnvironment: \ShellEnvironment.counter, transformState: \ShellState.counter)
  /// ComonadicCounter.saveSteps(state.counter).map(onCounter)
  /// ```
  @inlinable
  public static func widening<BigEnvironment: Sendable, BigState: Sendable>(
    transformEnvironment: @escaping @Sendable (BigEnvironment) -> Environment,
    transformState: WritableKeyPath<BigState, Focus> & Sendable
  ) -> @Sendable (Effect) -> Effect<BigEnvironment, BigState, State<BigState, Void>>
  where Action == State<Focus, Void> {
    let lift = Lift(
      environment: transformEnvironment, path: transformState,
      field: FieldReader(transformState))
    return { lift.effect($0) }
  }
}

extension State where A == Void {
  /// This action on a part of a bigger state (the lens `path`): Bow Arch's `widen` of a
  /// state action.
  ///
  /// Actions compose: `lap.widen(\.stopwatch).followed(by: increment.widen(\.counter))` is one
  /// action, applied as one update.
  @inlinable
  public func widen<Big>(_ path: WritableKeyPath<Big, S> & Sendable) -> State<Big, Void>
  where S: Sendable {
    let action = self
    return .mutate { action.apply(to: &$0[keyPath: path]) }
  }

  /// This action, then `next`, as one action: the State monad's sequencing (`*>`).
  @inlinable
  public func followed(by next: State) -> State where S: Sendable {
    let first = self
    return .mutate { state in
      first.apply(to: &state)
      next.apply(to: &state)
    }
  }
}
