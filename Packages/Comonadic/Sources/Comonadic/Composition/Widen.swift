import Synchronization

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
    let field = FieldReader(transformState)
    let part = AnyWorkID(PartScope(transformState))
    let key = presentationKey(Focus.self)
    let lift = Lift<BigEnvironment, BigState, Environment, Focus>(
      environment: transformEnvironment, presented: transformState, field: field, part: part,
      key: key, shown: nil)
    let presence = Departures<BigState> {
      PresenceTracker(part: part, read: { field($0) }, key: key).watch()
    }
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
    let rows = FieldReader(transformState)
    let departures = Departures<BigState> { ElementTracker(list: list, rows: rows).watch() }
    return Dispatcher<BigEnvironment, BigState, State<BigState, Void>, BigInput>(
      departures: [departures]
    ) { input in
      guard let (id, input) = transformInput(input) else { return .none }
      let lift = Lift<BigEnvironment, BigState, Environment, Focus>(
        environment: transformEnvironment, forEach: transformState, rows: rows, id: id,
        scope: AnyWorkID(Element(list: list, id: id)))
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
    let rows = FieldReader(path)
    return { id, effect in
      Lift<BigEnvironment, BigState, Environment, Focus>(
        environment: transformEnvironment, forEach: path, rows: rows, id: id,
        scope: AnyWorkID(Element(list: list, id: id))
      ).effect(effect)
    }
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

postfix operator ^

/// Bow's "fix": the value itself. Bow Arch code writes `.modify { … }^` to turn a higher-kinded
/// value back into its type; here every value already has its type, so `^` changes nothing and
/// such code compiles unchanged.
@inlinable
public postfix func ^ <S, A>(_ action: State<S, A>) -> State<S, A> { action }

/// Bow's "fix" for effects: the effect itself (see ``^(_:)-(State<S,A>)``).
@inlinable
public postfix func ^ <Environment, Focus, Action>(
  _ effect: Effect<Environment, Focus, Action>
) -> Effect<Environment, Focus, Action> { effect }

/// A work id filed under a part of the whole: the path of scopes from the whole down, then the
/// part's own id.
@usableFromInline
package struct ScopedWorkID: Hashable, Sendable {
  let scope: [AnyWorkID]
  let id: AnyWorkID

  /// Whether this id lies in `scope` or below it.
  func lies(in scope: [AnyWorkID]) -> Bool { self.scope.starts(with: scope) }

  /// The scope of `id` when it is filed under a part.
  @usableFromInline
  package static func scope(of id: AnyWorkID) -> [AnyWorkID]? {
    id.value(as: ScopedWorkID.self)?.scope
  }
}

/// The scope of a part: its key path in the whole, hashed once. Hashing a key path walks its
/// components (some hundreds of instructions), and run keys under a part are hashed for every
/// piece of work the part starts, finishes or cancels.
@usableFromInline
struct PartScope: Hashable, @unchecked Sendable {
  // @unchecked: a key path is immutable.
  @usableFromInline let path: AnyKeyPath
  @usableFromInline let hash: Int

  @inlinable
  init(_ path: AnyKeyPath) {
    self.path = path
    hash = path.hashValue
  }

  @inlinable
  static func == (lhs: PartScope, rhs: PartScope) -> Bool {
    lhs.hash == rhs.hash && lhs.path == rhs.path
  }

  @inlinable
  func hash(into hasher: inout Hasher) { hasher.combine(hash) }
}

/// The scope of one element of a lifted list.
@usableFromInline
struct Element<ID: Hashable & Sendable>: Hashable, Sendable {
  @usableFromInline let list: AnyWorkID
  @usableFromInline let id: ID

  @inlinable
  init(list: AnyWorkID, id: ID) {
    self.list = list
    self.id = id
  }
}

/// A number for an element's work that has no id of its own, so it can be found and cancelled
/// when the element leaves.
struct Unnamed: Hashable, Sendable {
  let number: Int
  static let next = Atomic(0)
}

/// Lifts a part's plans into the whole's: environment, state, actions and work ids.
///
/// Inlinable, like the dispatchers that make one: compiled for the app's types, not run as
/// generic code (a metadata lookup for every type it touches, every input).
@usableFromInline
struct Lift<BigEnvironment: Sendable, BigState: Sendable, Environment: Sendable, S: Sendable>:
  Sendable
{
  @usableFromInline typealias Small = Effect<Environment, S, State<S, Void>>
  @usableFromInline typealias Big = Effect<BigEnvironment, BigState, State<BigState, Void>>

  @usableFromInline let environment: @Sendable (BigEnvironment) -> Environment
  /// The part in the whole now: `nil` once an element has left its list.
  @usableFromInline let focus: @Sendable (BigState) -> S?
  @usableFromInline let action: @Sendable (State<S, Void>) -> State<BigState, Void>
  /// Where the part's work is filed.
  @usableFromInline let scope: AnyWorkID
  /// Whether the part may leave (an element of a list, a presented child): its work then
  /// starts only while it is there, and unnamed work gets a name, so it can be found.
  @usableFromInline let isElement: Bool
  /// For a presented child taken as whichever is presented when a step runs: the lift of the
  /// presentation there is then (`nil` when none), under which the step's work is filed.
  @usableFromInline let presentation: (@Sendable (BigState) -> Lift?)?

  /// The lift of the part at `path`, which `field` reads.
  @inlinable
  init(
    environment: @escaping @Sendable (BigEnvironment) -> Environment,
    path: WritableKeyPath<BigState, S> & Sendable, field: FieldReader<BigState, S>
  ) {
    self.environment = environment
    focus = { field($0) }
    // Through the part's offset in the whole where it has one, worked out here once: a key
    // path's projection (`$0[keyPath:]`) runs through the key path's components every time.
    let part = WritableField(path)
    action = { action in .mutate { part.modify(&$0) { action.apply(to: &$0) } } }
    scope = AnyWorkID(PartScope(path))
    isElement = false
    presentation = nil
  }

  /// The lift of the presented child at `path`, which `field` reads: the presentation whose key
  /// is `shown`, or (`nil`) whichever is presented when a step runs.
  @inlinable
  init(
    environment: @escaping @Sendable (BigEnvironment) -> Environment,
    presented path: WritableKeyPath<BigState, S?> & Sendable, field: FieldReader<BigState, S?>,
    part: AnyWorkID, key: @escaping @Sendable (S) -> PresentationKey, shown: PresentationKey?
  ) {
    self.environment = environment
    isElement = true
    guard let shown else {
      focus = { field($0) }
      action = { action in
        .mutate { whole in
          guard whole[keyPath: path] != nil else { return }
          action.apply(to: &whole[keyPath: path]!)
        }
      }
      scope = part
      presentation = { whole in
        field(whole).map {
          Lift(
            environment: environment, presented: path, field: field, part: part, key: key,
            shown: key($0))
        }
      }
      return
    }
    focus = { whole in field(whole).flatMap { key($0) == shown ? $0 : nil } }
    action = { action in
      .mutate { whole in
        guard let child = whole[keyPath: path], key(child) == shown else { return }
        action.apply(to: &whole[keyPath: path]!)
      }
    }
    scope = AnyWorkID(Presence(part: part, key: shown))
    presentation = nil
  }

  /// The lift of element `id` of the list at `path`, which `rows` reads.
  @inlinable
  init<ID: Hashable & Sendable>(
    environment: @escaping @Sendable (BigEnvironment) -> Environment,
    forEach path: WritableKeyPath<BigState, IdentifiedList<ID, S>> & Sendable,
    rows: FieldReader<BigState, IdentifiedList<ID, S>>, id: ID, scope: AnyWorkID
  ) {
    self.environment = environment
    focus = { rows($0)[id: id] }
    action = { $0.widen(path, id: id) }
    self.scope = scope
    isElement = true
    presentation = nil
  }

  @inlinable
  func plan(_ plan: Plan<Environment, S, State<S, Void>>) -> Plan<
    BigEnvironment, BigState, State<BigState, Void>
  > {
    switch plan {
    case .none: .none
    case .action(let action): .action(self.action(action))
    case .steps(let steps): .steps(steps.map(effect))
    }
  }

  /// `id` filed under this part; an element's unnamed work gets a name, so it can be found.
  @usableFromInline
  func scoped(_ id: AnyWorkID?) -> AnyWorkID? {
    guard let id else {
      guard isElement else { return nil }
      let number = Unnamed.next.wrappingAdd(1, ordering: .relaxed).newValue
      return AnyWorkID(ScopedWorkID(scope: [scope], id: AnyWorkID(Unnamed(number: number))))
    }
    if let inner = id.value(as: ScopedWorkID.self) {
      return AnyWorkID(ScopedWorkID(scope: [scope] + inner.scope, id: inner.id))
    }
    return AnyWorkID(ScopedWorkID(scope: [scope], id: id))
  }

  /// `effects` lifted, as they would run now in `whole`: the steps that would read the state
  /// (a read, a task that sees the part, the check that the part is there) are worked out with
  /// `whole` at once, rather than each taking the lock and copying the state again, until a
  /// step may change the state (an action) or waits (a task); the rest are lifted as they are.
  /// Returns whether `whole` is still the state after them.
  @inlinable
  func steps(_ effects: [Small], in whole: BigState) -> (steps: [Big], isCurrent: Bool) {
    var lifted: [Big] = []
    lifted.reserveCapacity(effects.count)
    var isCurrent = true
    for effect in effects {
      guard isCurrent else {
        lifted.append(self.effect(effect))
        continue
      }
      switch effect.kind {
      case .read(let next):
        guard let part = focus(whole) else { continue }
        let (more, stillCurrent) = steps(next(part), in: whole)
        lifted += more
        isCurrent = stillCurrent
      case .task(let id, let whenRunning, let work):
        // Work that sees the part gets it now; an element's work starts only while it is there.
        var part: S?
        if work.seesFocus || isElement {
          guard let found = focus(whole) else { continue }
          part = found
        }
        lifted.append(task(id, whenRunning, work, part: part))
        isCurrent = false
      case .cancel:
        lifted.append(self.effect(effect))
      default:
        // An action, a perform, a stream, side-by-side workflows: from here on, lazily.
        lifted.append(self.effect(effect))
        isCurrent = false
      }
    }
    return (lifted, isCurrent)
  }

  /// A task of the part as one of the whole: filed under the part, run with the part's
  /// environment, its action lifted; work that sees the part gets `part` (taken when the step
  /// ran), never the whole state.
  @inlinable
  func task(
    _ id: AnyWorkID?, _ whenRunning: WhenRunning, _ work: Work<Environment, S, State<S, Void>>,
    part: S?
  ) -> Big {
    let (environment, lift) = (environment, action)
    switch work {
    case .seeing(let operation):
      let part = part!
      return Big(
        .task(
          scoped(id), whenRunning,
          .blind { whole in lift(await operation(environment(whole), part)) }))
    case .blind(let operation):
      return Big(
        .task(
          scoped(id), whenRunning, .blind { whole in lift(await operation(environment(whole))) }))
    }
  }

  @inlinable
  func effect(_ effect: Small) -> Big {
    let (environment, focus, lift) = (environment, focus, action)
    let lifted: Big
    switch effect.kind {
    case .action(let action):
      return .action(lift(action))
    case .parallel(let workflows):
      return Big(.parallel(workflows.map { $0.map(self.effect) }))
    case _ where presentation != nil:
      // Filed under the presentation there is when the step runs; nothing when none is.
      let presentation = presentation!
      return .read { whole in presentation(whole).map { $0.steps([effect], in: whole).steps } ?? []
      }
    case .cancel(let id):
      return Big(.cancel(scoped(id) ?? id))
    case .perform(let body):
      lifted = .perform { whole, state in
        if let part = focus(state) { body(environment(whole), part) }
      }
    case .call(let body):
      // A part that is always there (not an element of a list): no state to read (and copy).
      guard isElement else { return Big(.call { whole in body(environment(whole)) }) }
      // The state is read only to know the part is there.
      lifted = .perform { whole, state in
        if focus(state) != nil { body(environment(whole)) }
      }
    case .task(let id, let whenRunning, let work):
      guard work.seesFocus else {
        // No state to read (and hold) when the work starts.
        lifted = task(id, whenRunning, work, part: nil)
        break
      }
      // The part is taken when the step runs, and the task holds it alone: holding the whole
      // state would make the next change to it copy what the part does not own (every screen
      // of a stack, for one screen's load).
      return .read { state in focus(state).map { [task(id, whenRunning, work, part: $0)] } ?? [] }
    case .stream(let id, let operation):
      lifted = Big(
        .stream(scoped(id)) { whole, state, send in
          guard let part = focus(state) else { return }
          await operation(environment(whole), part, send.map(lift))
        })
    case .read(let next):
      return .read { state in
        guard let part = focus(state) else { return [] }
        return steps(next(part), in: state).steps
      }
    }
    guard isElement else { return lifted }
    // An element's work starts only while the element is in the list.
    return .read { state in focus(state) == nil ? [] : [lifted] }
  }
}

extension AnyWorkID {
  /// The id as its part named it, without the scopes it was filed under.
  package var unscoped: AnyHashable {
    value(as: ScopedWorkID.self)?.id.anyHashable ?? anyHashable
  }
}
