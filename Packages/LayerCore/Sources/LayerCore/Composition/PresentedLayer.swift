extension Layer {
  /// A layer whose machine exists only while `child` finds a child in the state — a sheet's
  /// form: the machine is made and started when a child is presented, gets the child whenever
  /// it changes, and is dropped when the child is dismissed (the state has none) or replaced —
  /// its work cancelled, and what that work sends later dropped. A child presented again gets
  /// a new machine, never the old one. What the machine emits reaches the reducer through
  /// `event`.
  ///
  /// ```swift
  /// .presented({ $0.form }, machine: { ~CreateMachine(service: service) }, event: AppEvent.form)
  /// ```
  ///
  /// A child that is `Identifiable` is one presentation per id: one with another id is a new
  /// presentation (a new machine), in one state or across several.
  ///
  /// - Complexity: O(1) per state, plus the machine's step when the child changed.
  @inlinable
  public static func presented<Child: Equatable & Sendable, ChildEvent: Sendable>(
    _ child: @escaping @Sendable (GlobalState) -> Child?,
    machine: @escaping @Sendable () -> Machine<Child, ChildEvent>,
    event: @escaping @Sendable (ChildEvent) -> GlobalEvent
  ) -> Layer {
    // Where the child's type is not known to be `Identifiable` here (a generic caller), its
    // identity is looked up at run time.
    presentedLayer(child, identity: presentationKey(Child.self), machine: machine, event: event)
  }

  /// A layer whose machine exists only while `child` finds a child in the state, one
  /// presentation per id of the child; see ``presented(_:machine:event:)-9pcqu``.
  @inlinable
  public static func presented<Child: Equatable & Sendable & Identifiable, ChildEvent: Sendable>(
    _ child: @escaping @Sendable (GlobalState) -> Child?,
    machine: @escaping @Sendable () -> Machine<Child, ChildEvent>,
    event: @escaping @Sendable (ChildEvent) -> GlobalEvent
  ) -> Layer where Child.ID: Sendable {
    // The id compared where the child's type is known: no copy of the child, no lookup.
    presentedLayer(child, identity: { $0.id }, machine: machine, event: event)
  }

  @inlinable
  static func presentedLayer<Child: Equatable & Sendable, ID: Hashable & Sendable, ChildEvent>(
    _ child: @escaping @Sendable (GlobalState) -> Child?,
    identity: @escaping @Sendable (Child) -> ID,
    machine: @escaping @Sendable () -> Machine<Child, ChildEvent>,
    event: @escaping @Sendable (ChildEvent) -> GlobalEvent
  ) -> Layer {
    Layer { wiring in
      let route = EventRoute(map: event, receive: wiring.receive)
      let presented = PresentedMachine<Child, ID, ChildEvent>(
        machine: machine, sink: route.sink, host: wiring.host, ids: wiring.ids, tap: wiring.tap,
        children: wiring.children, identity: identity)
      return LayerNode(deliver: { presented.follow(child($0)) }, start: {}, route: route)
    }
  }
}

/// The machine of a `Layer.presented(_:machine:event:)` layer, one per presentation.
///
/// `@unchecked Sendable`: the flow calls `follow` from its drain only, one call at a time, and
/// nothing else touches it.
@usableFromInline
final class PresentedMachine<
  Child: Equatable & Sendable, ID: Hashable & Sendable, ChildEvent: Sendable
>: @unchecked Sendable {
  // Inlinable, like `follow`: compiled for the child's type where the layer is made, a look at
  // a state with no child presented is a test of an optional, not value-witness calls.
  @usableFromInline let machine: @Sendable () -> Machine<Child, ChildEvent>
  @usableFromInline let sink: Sink<ChildEvent>
  @usableFromInline let host: WeakHost
  @usableFromInline let ids: MachineIDs
  @usableFromInline let tap: (@Sendable (any Sendable) -> Void)?
  @usableFromInline let children: ChildTap?
  /// What tells one presentation from the next: the child's id, or one value for all.
  @usableFromInline let identity: @Sendable (Child) -> ID
  /// The presentation shown: its identity, the child as last seen, its machine and the ids its
  /// work is filed under. Kept apart, so a look at one part copies nothing else.
  @exclusivity(unchecked) @usableFromInline var shownID: ID?
  @exclusivity(unchecked) @usableFromInline var shownChild: Child?
  @exclusivity(unchecked) @usableFromInline var node: Node<Child>?
  @exclusivity(unchecked) @usableFromInline var machines: ClosedRange<Int>?
  /// How many children were presented: the number a testing tool knows the shown one by.
  @exclusivity(unchecked) @usableFromInline var presentations = 0

  @inlinable
  init(
    machine: @escaping @Sendable () -> Machine<Child, ChildEvent>, sink: Sink<ChildEvent>,
    host: WeakHost, ids: MachineIDs, tap: (@Sendable (any Sendable) -> Void)?,
    children: ChildTap?, identity: @escaping @Sendable (Child) -> ID
  ) {
    self.machine = machine
    self.sink = sink
    self.host = host
    self.ids = ids
    self.tap = tap
    self.children = children
    self.identity = identity
  }

  /// Makes, tells or drops the machine after a new state.
  @inlinable
  func follow(_ child: consuming Child?) {
    guard let child else {
      if shownID != nil { dismiss() }
      return
    }
    let id = identity(child)
    if let node, shownID == id {
      guard !Self.isShown(child, as: shownChild) else { return }
      shownChild = child
      tap?(child)
      children?.received(AnyWorkID(presentations), child)
      node.process(child)
      return
    }
    if shownID != nil { dismiss() }
    present(child, id: id)
  }

  /// Whether `child` equals the one shown. Compared where each is: `shown != child` would
  /// wrap a copy of `child` in an optional first.
  @inlinable
  static func isShown(_ child: borrowing Child, as shown: Child?) -> Bool {
    switch shown {
    case .some(let shown): shown == child
    case .none: false
    }
  }

  /// Drops the shown presentation's machine and ends its work.
  @inlinable
  func dismiss() {
    shownID = nil
    shownChild = nil
    node = nil
    if let machines { host.host?.cancelRuns(machines: machines) }
    machines = nil
    children?.dismissed(AnyWorkID(presentations))
  }

  /// Makes and starts the machine of a new presentation, `child`.
  @inlinable
  func present(_ child: Child, id: ID) {
    presentations += 1
    let first = ids.peek + 1
    let number = children.map { _ in AnyWorkID(presentations) }
    let childSink = number.flatMap { children?.sink(sink, of: $0, host: host) } ?? sink
    let node = machine().build(Wiring(sink: childSink, host: host, ids: ids))
    let last = ids.peek
    let machines = first <= last ? first...last : nil
    (shownID, shownChild, self.node, self.machines) = (id, child, node, machines)
    if let children, let number {
      children.presented(number, machines)
      children.received(number, child)
    }
    tap?(child)
    node.start()
    node.process(child)
  }
}
