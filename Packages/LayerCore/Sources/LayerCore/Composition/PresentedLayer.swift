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
    let isSame = presentationIdentity(Child.self)
    return Layer { wiring in
      let route = EventRoute(map: event, receive: wiring.receive)
      let presented = PresentedMachine<Child, ChildEvent>(
        machine: machine, sink: route.sink, host: wiring.host, ids: wiring.ids, tap: wiring.tap,
        children: wiring.children, isSame: isSame)
      return LayerNode(deliver: { presented.follow(child($0)) }, start: {}, route: route)
    }
  }
}

/// The machine of a ``Layer/presented(_:machine:event:)`` layer, one per presentation.
///
/// `@unchecked Sendable`: the flow calls `follow` from its drain only, one call at a time, and
/// nothing else touches it.
@usableFromInline
final class PresentedMachine<Child: Equatable & Sendable, ChildEvent: Sendable>:
  @unchecked Sendable
{
  // Inlinable, like `follow`: compiled for the child's type where the layer is made, a look at
  // a state with no child presented is a test of an optional, not value-witness calls.
  @usableFromInline let machine: @Sendable () -> Machine<Child, ChildEvent>
  @usableFromInline let sink: Sink<ChildEvent>
  @usableFromInline let host: WeakHost
  @usableFromInline let ids: MachineIDs
  @usableFromInline let tap: (@Sendable (any Sendable) -> Void)?
  @usableFromInline let children: ChildTap?
  @usableFromInline let isSame: @Sendable (Child, Child) -> Bool
  /// The child presented, its machine and the ids its work is filed under.
  @exclusivity(unchecked) @usableFromInline var shown:
    (child: Child, node: Node<Child>, machines: ClosedRange<Int>?)?
  /// How many children were presented: the number a testing tool knows the shown one by.
  @exclusivity(unchecked) @usableFromInline var presentations = 0

  @inlinable
  init(
    machine: @escaping @Sendable () -> Machine<Child, ChildEvent>, sink: Sink<ChildEvent>,
    host: WeakHost, ids: MachineIDs, tap: (@Sendable (any Sendable) -> Void)?,
    children: ChildTap?, isSame: @escaping @Sendable (Child, Child) -> Bool
  ) {
    self.machine = machine
    self.sink = sink
    self.host = host
    self.ids = ids
    self.tap = tap
    self.children = children
    self.isSame = isSame
  }

  /// Makes, tells or drops the machine after a new state.
  @inlinable
  func follow(_ child: Child?) {
    if let current = shown, let child, isSame(current.child, child) {
      guard current.child != child else { return }
      shown?.child = child
      tap?(child)
      children?.received(AnyWorkID(presentations), child)
      current.node.process(child)
      return
    }
    if let current = shown {
      shown = nil
      if let machines = current.machines { host.host?.cancelRuns(machines: machines) }
      children?.dismissed(AnyWorkID(presentations))
    }
    guard let child else { return }
    presentations += 1
    let first = ids.peek + 1
    let number = children.map { _ in AnyWorkID(presentations) }
    let childSink = number.flatMap { children?.sink(sink, of: $0, host: host) } ?? sink
    let node = machine().build(Wiring(sink: childSink, host: host, ids: ids))
    let last = ids.peek
    let machines = first <= last ? first...last : nil
    shown = (child, node, machines)
    if let children, let number {
      children.presented(number, machines)
      children.received(number, child)
    }
    tap?(child)
    node.start()
    node.process(child)
  }
}
