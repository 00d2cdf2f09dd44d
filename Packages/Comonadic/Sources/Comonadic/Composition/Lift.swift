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

  /// The lift of the presented child that `child` reads and changes: the presentation whose
  /// key is `shown`, or (`nil`) whichever is presented when a step runs.
  @inlinable
  init(
    environment: @escaping @Sendable (BigEnvironment) -> Environment,
    presented child: WritableField<BigState, S?>,
    part: AnyWorkID, key: @escaping @Sendable (S) -> PresentationKey, shown: PresentationKey?
  ) {
    self.environment = environment
    isElement = true
    // Read and changed through its offset in the whole, as a part that is always there.
    guard let shown else {
      focus = { child($0) }
      action = { action in
        .mutate { whole in
          child.modify(&whole) { child in
            guard child != nil else { return }
            action.apply(to: &child!)
          }
        }
      }
      scope = part
      presentation = { whole in
        child(whole).map {
          Lift(environment: environment, presented: child, part: part, key: key, shown: key($0))
        }
      }
      return
    }
    focus = { whole in child(whole).flatMap { key($0) == shown ? $0 : nil } }
    action = { action in
      .mutate { whole in
        child.modify(&whole) { child in
          guard child.map(key) == shown else { return }
          action.apply(to: &child!)
        }
      }
    }
    scope = AnyWorkID(Presence(part: part, key: shown))
    presentation = nil
  }

  /// The lift of the element of a list at `place`, whose work is filed under `scope`.
  @inlinable
  init<ID: Hashable & Sendable>(
    environment: @escaping @Sendable (BigEnvironment) -> Environment,
    place: ElementPlace<BigState, ID, S>, scope: AnyWorkID
  ) {
    self.environment = environment
    // Closures around the place alone: no context of their own to allocate.
    focus = { place.element(in: $0) }
    action = { place.lift($0) }
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
  @inlinable
  func scoped(_ id: AnyWorkID?) -> AnyWorkID? {
    guard let id else {
      guard isElement else { return nil }
      return AnyWorkID(ScopedWorkID(scope: scope, id: Unnamed.make()))
    }
    return AnyWorkID(ScopedWorkID(scope: scope, id: id))
  }

  /// `effects` lifted, as they would run now in `whole`: the steps that would read the state
  /// (a read, a task that sees the part, the check that the part is there) are worked out with
  /// `whole` at once, rather than each taking the lock and copying the state again, until a
  /// step may change the state (an action) or waits (a task); the rest are lifted as they are.
  /// Returns whether `whole` is still the state after them.
  @inlinable
  func steps(_ effects: [Small], in whole: BigState) -> (steps: [Big], isCurrent: Bool) {
    var lifted: [Big] = []
    // One step (most workflows) is lifted into an array of its own, or is a read whose lifted
    // steps are taken as they are: room made beforehand would be made for nothing.
    if effects.count > 1 { lifted.reserveCapacity(effects.count) }
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
        if lifted.isEmpty { lifted = more } else { lifted += more }
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

/// Where one element of a lifted list is: the list's place in the whole, read and changed
/// through its offset, and the element's id.
///
/// A class, so that a lift's closures, which capture it alone, need no context of their own.
@usableFromInline
final class ElementPlace<BigState, ID: Hashable & Sendable, S: Sendable>: Sendable {
  @usableFromInline let list: WritableField<BigState, IdentifiedList<ID, S>>
  @usableFromInline let id: ID

  @inlinable
  init(list: WritableField<BigState, IdentifiedList<ID, S>>, id: ID) {
    self.list = list
    self.id = id
  }

  /// The element in `whole`; `nil` once it has left the list.
  @inlinable
  func element(in whole: BigState) -> S? { list(whole)[id: id] }

  /// `action` on the element, in place; nothing when the list no longer has it.
  @inlinable
  func lift(_ action: State<S, Void>) -> State<BigState, Void> {
    .mutate { [self] whole in
      list.modify(&whole) { list in list.update(id: id) { action.apply(to: &$0) } }
    }
  }
}
