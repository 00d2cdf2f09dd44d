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
  /// Whether the part is in the whole now, found without copying it out (as `focus` does).
  @usableFromInline let isThere: @Sendable (BigState) -> Bool
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
    isThere = { _ in true }
    // Through the part's offset in the whole where it has one, worked out here once: a key
    // path's projection (`$0[keyPath:]`) runs through the key path's components every time.
    let part = WritableField(path)
    action = { action in .mutate { part.modify(&$0) { action.apply(to: &$0) } } }
    scope = AnyWorkID(PartScope(path))
    isElement = false
    presentation = nil
  }

  /// The lift of the presented child at `place`, whichever is presented when a step runs.
  @inlinable
  init(
    environment: @escaping @Sendable (BigEnvironment) -> Environment,
    presented place: PresentedPlace<BigState, S>
  ) {
    self.environment = environment
    isElement = true
    focus = { place.child($0) }
    isThere = { place.shown(in: $0) != nil }
    action = { place.lift($0) }
    scope = place.part
    presentation = { whole in
      place.shown(in: whole).map {
        Lift(environment: environment, presented: ShownPresentation(place, key: $0))
      }
    }
  }

  /// The lift of presentation `shown` of a presented child.
  @inlinable
  init(
    environment: @escaping @Sendable (BigEnvironment) -> Environment,
    presented shown: ShownPresentation<BigState, S>
  ) {
    self.environment = environment
    isElement = true
    // Closures around the presentation alone: no context of their own to allocate.
    focus = { shown.child(in: $0) }
    isThere = { shown.isShown(in: $0) }
    action = { shown.lift($0) }
    scope = AnyWorkID(Presence(part: shown.place.part, key: shown.key))
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
    isThere = { place.isThere(in: $0) }
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
  func steps<Effects: Collection<Small>>(
    _ effects: Effects, in whole: BigState
  ) -> (steps: [Big], isCurrent: Bool) {
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
        if work.seesFocus {
          guard let found = focus(whole) else { continue }
          part = found
        } else if isElement, !isThere(whole) {
          continue
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
    let (environment, focus, isThere, lift) = (environment, focus, isThere, action)
    let lifted: Big
    switch effect.kind {
    case .action(let action):
      return .action(lift(action))
    case .parallel(let workflows):
      return Big(.parallel(workflows.map { $0.map(self.effect) }))
    case _ where presentation != nil:
      // Filed under the presentation there is when the step runs; nothing when none is.
      let presentation = presentation!
      return .read { whole in
        presentation(whole).map { $0.steps(CollectionOfOne(effect), in: whole).steps } ?? []
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
        if isThere(state) { body(environment(whole)) }
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
    return .read { state in isThere(state) ? [lifted] : [] }
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
  func element(in whole: BigState) -> S? { withList(in: whole) { $0.pointee[id: id] } }

  /// Whether the element is in `whole`.
  @inlinable
  func isThere(in whole: BigState) -> Bool { withList(in: whole) { $0.pointee.contains(id: id) } }

  /// Calls `body` with the list's address in `whole`: read where it is stored (a copy of a
  /// list retains each of its buffers).
  @inlinable
  func withList<Result>(
    in whole: BigState, _ body: (UnsafePointer<IdentifiedList<ID, S>>) -> Result
  ) -> Result {
    withUnsafePointer(to: whole) { root in
      guard let address = list.address(in: root) else {
        return withUnsafePointer(to: list(whole), body)
      }
      return body(address)
    }
  }

  /// `action` on the element, in place; nothing when the list no longer has it.
  @inlinable
  func lift(_ action: State<S, Void>) -> State<BigState, Void> {
    .mutate { [self] whole in
      list.modify(&whole) { list in list.update(id: id) { action.apply(to: &$0) } }
    }
  }
}

/// Where a presented child is: the optional's place in the whole, read and changed through its
/// offset, and what tells one presentation from the next, read where the child is stored.
///
/// A class, as ``ElementPlace``: a lift's closures that capture it alone need no context.
@usableFromInline
final class PresentedPlace<BigState, S: Sendable>: Sendable {
  @usableFromInline let child: WritableField<BigState, S?>
  /// Where the child's work is filed, whatever the presentation.
  @usableFromInline let part: AnyWorkID
  @usableFromInline let key: @Sendable (UnsafePointer<S>) -> PresentationKey

  @inlinable
  init(_ path: WritableKeyPath<BigState, S?> & Sendable) {
    child = WritableField(path)
    part = AnyWorkID(PartScope(path))
    key = presentationKeyInPlace(S.self)
  }

  /// The key of the presentation at `child`; `nil` when none is there.
  @inlinable
  func key(at child: UnsafePointer<S?>) -> PresentationKey? {
    guard child.pointee != nil else { return nil }
    // A present optional's value is stored at its start.
    return key(UnsafeRawPointer(child).assumingMemoryBound(to: S.self))
  }

  /// The key of the presentation in `whole`, read in place; `nil` when none is presented.
  @inlinable
  func shown(in whole: BigState) -> PresentationKey? {
    withUnsafePointer(to: whole) { root in
      guard let address = child.address(in: root) else {
        return withUnsafePointer(to: child(whole)) { key(at: $0) }
      }
      return key(at: address)
    }
  }

  /// `action` on whichever child is presented, in place; nothing while none is.
  @inlinable
  func lift(_ action: State<S, Void>) -> State<BigState, Void> {
    .mutate { [self] whole in
      child.modify(&whole) { child in
        guard child != nil else { return }
        action.apply(to: &child!)
      }
    }
  }
}

/// One presentation of a presented child: its place, and the key of the presentation.
///
/// A class, as ``ElementPlace``: a lift's closures that capture it alone need no context.
@usableFromInline
final class ShownPresentation<BigState, S: Sendable>: Sendable {
  @usableFromInline let place: PresentedPlace<BigState, S>
  @usableFromInline let key: PresentationKey

  @inlinable
  init(_ place: PresentedPlace<BigState, S>, key: PresentationKey) {
    self.place = place
    self.key = key
  }

  /// Whether this presentation is the one in `whole`.
  @inlinable
  func isShown(in whole: BigState) -> Bool { place.shown(in: whole) == key }

  /// The presented child in `whole`, if it is this presentation.
  @inlinable
  func child(in whole: BigState) -> S? { isShown(in: whole) ? place.child(whole) : nil }

  /// `action` on this presentation, in place; nothing once another or none is presented.
  @inlinable
  func lift(_ action: State<S, Void>) -> State<BigState, Void> {
    .mutate { [self] whole in
      place.child.modify(&whole) { child in
        guard withUnsafePointer(to: &child, { place.key(at: $0) }) == key else { return }
        action.apply(to: &child!)
      }
    }
  }
}
