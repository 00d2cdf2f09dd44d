/// Where a layer of a mounted child core comes from.
@usableFromInline
package struct LayerMount: Sendable, Hashable {
  /// The child's state path in the parent's state, as it prints.
  package let path: String
  /// The layer's index among the child's layers.
  package let index: Int

  @usableFromInline
  package init(path: String, index: Int) {
    self.path = path
    self.index = index
  }
}

/// What a layer is wired with: where its events go, and the flow.
@usableFromInline
struct LayerWiring<GlobalEvent> {
  @usableFromInline let receive: @Sendable (GlobalEvent, Run<OwnedWorkID>?) -> Void
  @usableFromInline let host: WeakHost
  @usableFromInline let ids: MachineIDs
  /// Sees every input the layer's machine gets, for a ``FlowMonitor``.
  @usableFromInline let tap: (@Sendable (any Sendable) -> Void)?
  /// Sees what happens to each child of the layer (a presentation, a row), for a
  /// ``FlowMonitor``.
  @usableFromInline let children: ChildTap?
  /// The flow's state now (`nil` before the first), type-erased: inside a mounted core, the
  /// child's state in the parent's.
  @usableFromInline let readState: @Sendable () -> Any?

  @inlinable
  init(
    receive: @escaping @Sendable (GlobalEvent, Run<OwnedWorkID>?) -> Void, host: WeakHost,
    ids: MachineIDs, tap: (@Sendable (any Sendable) -> Void)?, children: ChildTap? = nil,
    readState: @escaping @Sendable () -> Any?
  ) {
    self.receive = receive
    self.host = host
    self.ids = ids
    self.tap = tap
    self.children = children
    self.readState = readState
  }

  /// The wiring for the layer's machine, whose outputs go to `sink`.
  @usableFromInline
  func machine<Output>(_ sink: Sink<Output>) -> Wiring<Output> {
    Wiring(sink: sink, host: host, ids: ids)
  }

  /// The wiring for the layer's machine, which can read its input now through `reader`.
  @inlinable
  func machine<Output>(_ sink: Sink<Output>, reader: InputReading) -> Wiring<Output> {
    Wiring(sink: sink, host: host, ids: ids, reader: reader)
  }
}

/// How a machine reads its input now (``InputReader``), whatever its layer's types.
@usableFromInline
class InputReading: @unchecked Sendable {
  // @unchecked: it holds nothing; its one subclass, ``InputReader``, says why it is safe (a
  // class that is not final cannot conform to `Sendable` checked).
  @usableFromInline init() {}

  /// The machine's input now; `nil` before the flow's first state.
  @usableFromInline func now() -> Any? { nil }
}

/// A layer's state mapping and delivery, with which its machine also reads its input now: held
/// strongly only by the flow (through the layer's delivery), not by the machine's callback, so
/// a machine that keeps its callback does not keep its layer. The callback reads it only while
/// the flow runs (from the flow's drain).
@usableFromInline
final class InputReader<GlobalState, Input>: InputReading, @unchecked Sendable {
  // @unchecked: `process` is set once, while the flow is wired, before anything is delivered.
  @usableFromInline let map: @Sendable (GlobalState) -> Input
  @usableFromInline let readState: @Sendable () -> Any?
  @exclusivity(unchecked) @usableFromInline var process: (@Sendable (consuming Input) -> Void)?

  @inlinable
  init(map: @escaping @Sendable (GlobalState) -> Input, readState: @escaping @Sendable () -> Any?) {
    self.map = map
    self.readState = readState
  }

  /// Hands the machine `state` mapped.
  @inlinable
  func deliver(_ state: GlobalState) { process?(map(state)) }

  @inlinable
  override func now() -> Any? {
    guard let state = readState() as? GlobalState else { return nil }
    return map(state)
  }
}

/// A wired layer: what the flow calls.
@usableFromInline
struct LayerNode<GlobalState>: Sendable {
  /// Hands a new state to the layer's machine; `nil` for a producer.
  @usableFromInline let deliver: (@Sendable (GlobalState) -> Void)?
  /// Delivers the first `process(nil)`.
  @usableFromInline let start: @Sendable () -> Void
  /// The layer's event mapping, which only the flow holds strongly.
  @usableFromInline let route: (any AnyObject & Sendable)?
  /// How the flow chains ``deliver`` with the other layers' deliveries.
  @usableFromInline let chaining: Chaining

  /// How a layer's delivery joins the flow's chain (see `FlowRuntime.chain`).
  @usableFromInline
  enum Chaining: Sendable {
    /// A closure around ``LayerNode/deliver``, made by the flow.
    case around
    /// For a mounted child's layer: its place among the child's layers that get states, through
    /// which the flow hands the child's state to a run of them at once.
    case member(MountGroupMember<GlobalState>)
    /// A link made where the layer's types are known: one closure that calls the links before
    /// it and then the layer's machine, where a closure around ``LayerNode/deliver`` would be a
    /// second closure call per layer.
    case link(Link)
  }

  /// Makes a link from the links before it and the flow's stop gate: it calls those, then,
  /// unless the flow stopped meanwhile, delivers to its layer.
  @usableFromInline
  typealias Link =
    @Sendable (
      _ earlier: @escaping @Sendable (GlobalState) -> Void, _ gate: StopGate
    ) -> @Sendable (GlobalState) -> Void

  @inlinable
  init(
    deliver: (@Sendable (GlobalState) -> Void)?, start: @escaping @Sendable () -> Void,
    route: (any AnyObject & Sendable)?, chaining: Chaining = .around
  ) {
    (self.deliver, self.start, self.route, self.chaining) = (deliver, start, route, chaining)
  }
}

/// How a layer's machine's outputs become global events: its event mapper and the flow's entry.
///
/// Only the flow holds it strongly; the machine's ``Handler`` reaches it weakly. A machine that
/// keeps its callback (a screen keeping it for its buttons, simprokcore's idiom) and is kept by
/// its layer's mappers would otherwise form a cycle through the mapper that outlives the flow.
@usableFromInline
final class EventRoute<Event, GlobalEvent>: Sendable {
  @usableFromInline let map: @Sendable (Event) -> GlobalEvent
  @usableFromInline let receive: @Sendable (GlobalEvent, Run<OwnedWorkID>?) -> Void

  @inlinable
  init(
    map: @escaping @Sendable (Event) -> GlobalEvent,
    receive: @escaping @Sendable (GlobalEvent, Run<OwnedWorkID>?) -> Void
  ) {
    self.map = map
    self.receive = receive
  }

  /// The sink for the layer's machine.
  @inlinable
  var sink: Sink<Event> {
    // Held weakly through a `weak let`: a closure's own weak capture is a variable, whose every
    // read is checked for exclusive access at run time.
    let route = WeakReference(self)
    return Sink { event, run in
      guard let route = route.object else { return }
      route.receive(route.map(event), run)
    }
  }
}

/// An object held weakly, in a constant.
@usableFromInline
final class WeakReference<Object: AnyObject & Sendable>: Sendable {
  @usableFromInline weak let object: Object?

  @inlinable
  init(_ object: Object) { self.object = object }
}
