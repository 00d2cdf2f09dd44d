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
        isSame: isSame)
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
  private let machine: @Sendable () -> Machine<Child, ChildEvent>
  private let sink: Sink<ChildEvent>
  private let host: WeakHost
  private let ids: MachineIDs
  private let tap: (@Sendable (any Sendable) -> Void)?
  private let isSame: @Sendable (Child, Child) -> Bool
  /// The child presented, its machine and the ids its work is filed under.
  private var shown: (child: Child, node: Node<Child>, machines: ClosedRange<Int>?)?

  @usableFromInline
  init(
    machine: @escaping @Sendable () -> Machine<Child, ChildEvent>, sink: Sink<ChildEvent>,
    host: WeakHost, ids: MachineIDs, tap: (@Sendable (any Sendable) -> Void)?,
    isSame: @escaping @Sendable (Child, Child) -> Bool
  ) {
    self.machine = machine
    self.sink = sink
    self.host = host
    self.ids = ids
    self.tap = tap
    self.isSame = isSame
  }

  /// Makes, tells or drops the machine after a new state.
  @usableFromInline
  func follow(_ child: Child?) {
    if let current = shown, let child, isSame(current.child, child) {
      guard current.child != child else { return }
      shown?.child = child
      tap?(child)
      current.node.process(child)
      return
    }
    if let current = shown {
      shown = nil
      if let machines = current.machines { host.host?.cancelRuns(machines: machines) }
    }
    guard let child else { return }
    let first = ids.peek + 1
    let node = machine().build(Wiring(sink: sink, host: host, ids: ids))
    let last = ids.peek
    shown = (child, node, first <= last ? first...last : nil)
    tap?(child)
    node.start()
    node.process(child)
  }
}
