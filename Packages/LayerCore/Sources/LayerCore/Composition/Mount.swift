extension Layer {
  /// This layer as a layer of a parent core whose state holds this core's state at `state`
  /// (`nil` until the child has one) and whose events embed this core's with `event`.
  ///
  /// As every layer gets every state, the machine gets the child's state with every state of
  /// the parent once the child has one; machines act on what is new to them (a request's id,
  /// a view that differs), so a parent's change that leaves the child alone does nothing there.
  @inlinable
  public func pullback<ParentState: Sendable, ParentEvent: Sendable>(
    state: @escaping @Sendable (ParentState) -> GlobalState?,
    event: @escaping @Sendable (GlobalEvent) -> ParentEvent
  ) -> Layer<ParentState, ParentEvent> {
    lifted(state: state, event: event) { parent, deliver in
      guard let childState = state(parent) else { return }
      deliver(childState)
    }
  }

  /// ``pullback(state:event:)`` for a child state stored in the parent's, at the address
  /// `child` finds in the parent's (`nil` while the child has none).
  ///
  /// Not inlinable on purpose: compiled once for any state, the delivery has the parent's state
  /// by address and hands the child's on from where it is stored. Compiled for the types,
  /// reading a field of a large parent state copies the whole of it first.
  @usableFromInline
  func pullback<ParentState: Sendable, ParentEvent: Sendable>(
    at child: @escaping @Sendable (UnsafePointer<ParentState>) -> UnsafePointer<GlobalState>?,
    state: @escaping @Sendable (ParentState) -> GlobalState?,
    event: @escaping @Sendable (GlobalEvent) -> ParentEvent,
    grouping group: MountGrouping<ParentState, GlobalState>? = nil
  ) -> Layer<ParentState, ParentEvent> {
    lifted(state: state, event: event, group: group) { parent, deliver in
      withUnsafePointer(to: parent) { parent in
        guard let childState = child(parent) else { return }
        Lender.lend(at: childState, deliver)
      }
    }
  }

  /// ``pullback(state:event:)`` for one of a mounted child's layers: the flow hands the child's
  /// state to it through the ``MountGroup`` `group` makes (one per flow), which reads the
  /// child's state once for all of the child's layers, at `address` when it is stored there.
  @inlinable
  func pullback<ParentState: Sendable, ParentEvent: Sendable>(
    grouping group: MountGrouping<ParentState, GlobalState>,
    at address: (@Sendable (UnsafePointer<ParentState>) -> UnsafePointer<GlobalState>?)?,
    state: @escaping @Sendable (ParentState) -> GlobalState?,
    event: @escaping @Sendable (GlobalEvent) -> ParentEvent
  ) -> Layer<ParentState, ParentEvent> {
    if let address { return pullback(at: address, state: state, event: event, grouping: group) }
    return lifted(state: state, event: event, group: group) { parent, deliver in
      guard let childState = state(parent) else { return }
      deliver(childState)
    }
  }

  /// This layer in the parent core, delivering through `deliverChild`, which calls its second
  /// argument with the child's state in the parent's (or does nothing while there is none);
  /// with a `group`, also a member of that group's ``MountGroup`` in the flow.
  @inlinable
  func lifted<ParentState: Sendable, ParentEvent: Sendable>(
    state: @escaping @Sendable (ParentState) -> GlobalState?,
    event: @escaping @Sendable (GlobalEvent) -> ParentEvent,
    group: MountGrouping<ParentState, GlobalState>? = nil,
    deliverChild: @escaping @Sendable (ParentState, (GlobalState) -> Void) -> Void
  ) -> Layer<ParentState, ParentEvent> {
    let build = self.build
    return Layer<ParentState, ParentEvent> { wiring in
      let receive = wiring.receive
      let readState = Self.childState(state, readingParent: wiring.readState)
      let child = build(
        LayerWiring<GlobalEvent>(
          receive: { childEvent, run in receive(event(childEvent), run) },
          host: wiring.host, ids: wiring.ids, tap: wiring.tap, children: wiring.children,
          readState: readState))
      guard let deliver = child.deliver else {
        return LayerNode(deliver: nil, start: child.start, route: child.route)
      }
      let chaining: LayerNode<ParentState>.Chaining =
        group.map {
          .member(
            wiring.host.mountGroups.group(for: $0.token, make: $0.make).member(adding: deliver))
        } ?? .around
      return LayerNode(
        deliver: { parent in deliverChild(parent, deliver) }, start: child.start,
        route: child.route, chaining: chaining)
    }
  }

  /// The child's state now, read through the parent's.
  @inlinable
  static func childState<ParentState>(
    _ state: @escaping @Sendable (ParentState) -> GlobalState?,
    readingParent read: @escaping @Sendable () -> Any?
  ) -> @Sendable () -> Any? {
    {
      guard let parent = read() as? ParentState, let childState = state(parent) else {
        return nil
      }
      return childState
    }
  }
}

/// A core mounted in a parent core: the feature as a group of layers around its own reducer,
/// written once and run inside the parent. The parent's state holds the child's (at a key path,
/// `nil` until the child reducer first sets it); the parent's event has a case for the child's.
///
/// ```swift
/// struct Shell: Core {
///   var counter: Mounted<LayerCounter.App, ShellState, ShellEvent> {
///     LayerCounter.App(screen: counterScreen, environment: environment)
///       .mounted(at: \.counter, event: ShellEvent.counter)
///   }
///   var layers: [Layer<ShellState, ShellEvent>] { [~ShellUILayer()] + counter.layers }
///
///   func reduce(state: ShellState?, event: ShellEvent) -> ReducerResult<ShellState> {
///     switch event {
///     case .counter(let event): counter.reduce(event, in: state ?? ShellState())
///     …
///     }
///   }
/// }
/// ```
///
/// There is still one flow, one queue and one reducer call per event: a child's events are
/// reduced one at a time with the parent's, in arrival order, and every layer — the child's
/// included — sees the result after the whole event was reduced.
public struct Mounted<Child: Core, ParentState: Sendable, ParentEvent: Sendable>: Sendable {
  /// The child core.
  public let child: Child
  @usableFromInline let path: WritableKeyPath<ParentState, Child.State?> & Sendable
  @usableFromInline let embed: @Sendable (Child.Event) -> ParentEvent
  /// The child's state in the parent's, read and written by its offset where it has one.
  @usableFromInline let field: WritableField<ParentState, Child.State?>

  @inlinable
  init(
    child: Child, path: WritableKeyPath<ParentState, Child.State?> & Sendable,
    embed: @escaping @Sendable (Child.Event) -> ParentEvent
  ) {
    self.child = child
    self.path = path
    field = WritableField(path)
    self.embed = embed
  }

  /// The child's layers as the parent's: each gets the child's state with every state of the
  /// parent once the child has one, and what its machine emits reaches the parent's reducer as
  /// the parent's event.
  ///
  /// Inlinable: compiled where the parent's and the child's types are known, a layer's
  /// delivery does not look up the child state's optional type on every state.
  @inlinable
  public var layers: [Layer<ParentState, ParentEvent>] {
    let name = "\(path)"
    let field = self.field
    let state: @Sendable (ParentState) -> Child.State? = { field($0) }
    // Where the field is stored in the parent's state, layers read the child's state there.
    let address: (@Sendable (UnsafePointer<ParentState>) -> UnsafePointer<Child.State>?)?
    if field.offset != nil {
      address = { parent in
        guard let stored = field.address(in: parent), stored.pointee != nil else { return nil }
        // An optional keeps its wrapped value at its start.
        return UnsafeRawPointer(stored).assumingMemoryBound(to: Child.State.self)
      }
    } else {
      address = nil
    }
    // The child's layers get its state through one group per flow (see `MountGroup`), made
    // here, where the types are known.
    let group = MountGrouping(token: MountToken()) {
      MountGroup<ParentState, Child.State>(address: address, state: state)
    }
    return child.layers.enumerated().map { index, layer in
      var lifted = layer.pullback(grouping: group, at: address, state: state, event: embed)
      // Named as the parent names the child: a grandchild's layers take the child's name here.
      lifted.mount = LayerMount(path: name, index: index)
      return lifted
    }
  }

  /// The child reducer's result for `event`, in the parent's state.
  @inlinable
  public func reduce(_ event: Child.Event, in state: ParentState) -> ReducerResult<ParentState> {
    var next = state
    return reduce(event, in: &next) == .set ? .set(next) : .skip
  }

  /// The child reducer's result for `event`, changing the child's state in `state` in place: for
  /// a parent reducer written in place.
  @inlinable
  public func reduce(_ event: Child.Event, in state: inout ParentState) -> InPlaceReducerResult {
    field.modify(&state) { child.reduce(state: &$0, event: event) }
  }

  /// The parent's state with the child's reduction of `event` applied (unchanged when the child
  /// skips): for a parent that changes a sibling in the same event (a lap that also counts).
  @inlinable
  public func apply(_ event: Child.Event, to state: ParentState) -> ParentState {
    var next = state
    _ = reduce(event, in: &next)
    return next
  }
}

extension Core {
  /// This core as part of a parent core: its state at `path` of the parent's state, its events
  /// embedded by `event`.
  @inlinable
  public func mounted<ParentState: Sendable, ParentEvent: Sendable>(
    at path: WritableKeyPath<ParentState, State?> & Sendable,
    event: @escaping @Sendable (Event) -> ParentEvent
  ) -> Mounted<Self, ParentState, ParentEvent> {
    Mounted(child: self, path: path, embed: event)
  }
}

extension ReducerResult {
  /// The state this result sets, or `state` when it skips.
  @inlinable
  public func value(from state: State) -> State {
    if case .set(let next) = self { next } else { state }
  }
}
