/// One of a core's layers: a machine, with how the global state becomes its input and how its
/// outputs become global events.
///
/// Build one from a type (`.layer(UILayer())`, `~UILayer()`, `UILayer().layer`) or from a
/// machine and mappers (`.layer(machine, stateMapper:eventMapper:)`, `.consumer`, `.producer`,
/// `.state`, `.event`, `.nomap`).
public struct Layer<GlobalState: Sendable, GlobalEvent: Sendable>: Sendable {
  @usableFromInline let build: @Sendable (LayerWiring<GlobalEvent>) -> LayerNode<GlobalState>
  /// Where a mounted child's layer comes from: the child's state path and its index among the
  /// child's layers (`nil` for the parent's own layers). Testing tools find child layers by it.
  @usableFromInline package var mount: LayerMount?

  @inlinable
  init(build: @escaping @Sendable (LayerWiring<GlobalEvent>) -> LayerNode<GlobalState>) {
    self.build = build
    mount = nil
  }

  /// A layer whose machine gets every state mapped by `stateMapper` and whose outputs become
  /// events through `eventMapper`.
  @inlinable
  public static func layer<State: Sendable, Event: Sendable>(
    _ machine: Machine<State, Event>,
    stateMapper: @escaping @Sendable (GlobalState) -> State,
    eventMapper: @escaping @Sendable (Event) -> GlobalEvent
  ) -> Layer {
    Layer { wiring in
      let route = EventRoute(map: eventMapper, receive: wiring.receive)
      let reader = InputReader(map: stateMapper, readState: wiring.readState)
      let node = machine.build(wiring.machine(route.sink, reader: reader))
      let process = node.process
      if let tap = wiring.tap {
        reader.process = { input in
          tap(input)
          process(input)
        }
      } else {
        reader.process = process
      }
      // The delivery holds the reader (the machine's callback does not).
      return LayerNode(
        deliver: { reader.deliver($0) }, start: node.start, route: route,
        link: { earlier, gate in
          { state in
            earlier(state)
            if !gate.isStopped { reader.deliver(state) }
          }
        })
    }
  }

  /// A layer whose machine gets every state mapped by `mapper` and whose outputs are ignored.
  @inlinable
  public static func consumer<State: Sendable, Event: Sendable>(
    _ machine: Machine<State, Event>, mapper: @escaping @Sendable (GlobalState) -> State
  ) -> Layer {
    Layer { wiring in
      let node = machine.build(wiring.machine(Sink { _, _ in }))
      let process = node.process
      if let tap = wiring.tap {
        return LayerNode(
          deliver: { state in
            let input = mapper(state)
            tap(input)
            process(input)
          }, start: node.start, route: nil)
      }
      return LayerNode(
        deliver: { process(mapper($0)) }, start: node.start, route: nil,
        link: { earlier, gate in
          { state in
            earlier(state)
            if !gate.isStopped { process(mapper(state)) }
          }
        })
    }
  }

  /// A layer whose machine gets no state (only the first `nil`) and whose outputs become events
  /// through `mapper`.
  @inlinable
  public static func producer<State: Sendable, Event: Sendable>(
    _ machine: Machine<State, Event>, mapper: @escaping @Sendable (Event) -> GlobalEvent
  ) -> Layer {
    Layer { wiring in
      let route = EventRoute(map: mapper, receive: wiring.receive)
      let node = machine.build(wiring.machine(route.sink))
      return LayerNode(deliver: nil, start: node.start, route: route)
    }
  }

  /// A layer whose machine gets every state mapped by `mapper` and emits global events.
  @inlinable
  public static func state<State: Sendable>(
    _ machine: Machine<State, GlobalEvent>, mapper: @escaping @Sendable (GlobalState) -> State
  ) -> Layer {
    layer(machine, stateMapper: mapper, eventMapper: { $0 })
  }

  /// A layer whose machine gets the global state and whose outputs become events through
  /// `mapper`.
  @inlinable
  public static func event<Event: Sendable>(
    _ machine: Machine<GlobalState, Event>, mapper: @escaping @Sendable (Event) -> GlobalEvent
  ) -> Layer {
    layer(machine, stateMapper: { $0 }, eventMapper: mapper)
  }

  /// A layer whose machine gets the global state and emits global events.
  @inlinable
  public static func nomap(_ machine: Machine<GlobalState, GlobalEvent>) -> Layer {
    layer(machine, stateMapper: { $0 }, eventMapper: { $0 })
  }

  /// The layer `layer` describes: `Layer(StorageLayer())`.
  @inlinable
  public init<L: LayerType>(_ layer: L)
  where L.GlobalState == GlobalState, L.GlobalEvent == GlobalEvent {
    self = .layer(layer)
  }

  /// The layer `layer` describes.
  @inlinable
  public init<L: ConsumerLayer>(_ layer: L) where L.GlobalState == GlobalState {
    self = .consumer(layer)
  }

  /// The layer `layer` describes.
  @inlinable
  public init<L: ProducerLayer>(_ layer: L) where L.GlobalEvent == GlobalEvent {
    self = .producer(layer)
  }

  /// The layer `layer` describes.
  @inlinable
  public init<L: MapStateLayer>(_ layer: L)
  where L.GlobalState == GlobalState, L.GlobalEvent == GlobalEvent {
    self = .state(layer)
  }

  /// The layer `layer` describes.
  @inlinable
  public init<L: MapEventLayer>(_ layer: L)
  where L.GlobalState == GlobalState, L.GlobalEvent == GlobalEvent {
    self = .event(layer)
  }

  /// The layer `layer` describes.
  @inlinable
  public init<L: NoMapLayer>(_ layer: L)
  where L.GlobalState == GlobalState, L.GlobalEvent == GlobalEvent {
    self = .nomap(layer)
  }

  /// The layer `layer` describes.
  @inlinable
  public static func layer<L: LayerType>(_ layer: L) -> Layer
  where L.GlobalState == GlobalState, L.GlobalEvent == GlobalEvent {
    .layer(layer.machine, stateMapper: layer.map(state:), eventMapper: layer.map(event:))
  }

  /// The layer `layer` describes.
  @inlinable
  public static func consumer<L: ConsumerLayer>(_ layer: L) -> Layer
  where L.GlobalState == GlobalState {
    .consumer(layer.machine, mapper: layer.map(state:))
  }

  /// The layer `layer` describes.
  @inlinable
  public static func producer<L: ProducerLayer>(_ layer: L) -> Layer
  where L.GlobalEvent == GlobalEvent {
    .producer(layer.machine, mapper: layer.map(event:))
  }

  /// The layer `layer` describes.
  @inlinable
  public static func state<L: MapStateLayer>(_ layer: L) -> Layer
  where L.GlobalState == GlobalState, L.GlobalEvent == GlobalEvent {
    .state(layer.machine, mapper: layer.map(state:))
  }

  /// The layer `layer` describes.
  @inlinable
  public static func event<L: MapEventLayer>(_ layer: L) -> Layer
  where L.GlobalState == GlobalState, L.GlobalEvent == GlobalEvent {
    .event(layer.machine, mapper: layer.map(event:))
  }

  /// The layer `layer` describes.
  @inlinable
  public static func nomap<L: NoMapLayer>(_ layer: L) -> Layer
  where L.GlobalState == GlobalState, L.GlobalEvent == GlobalEvent {
    .nomap(layer.machine)
  }
}

/// A layer that maps the global state into its machine's input and its outputs into global
/// events.
///
/// ```swift
/// struct UILayer: LayerType {
///   var machine: Machine<UILayerState, UILayerEvent> { ~Screen() }
///   func map(state: AppState) -> UILayerState { UILayerState(text: "\(state.value)") }
///   func map(event: UILayerEvent) -> AppEvent { .click }
/// }
/// ```
public protocol LayerType: Sendable {
  /// The core's state.
  associatedtype GlobalState: Sendable
  /// The core's event.
  associatedtype GlobalEvent: Sendable
  /// The machine's input.
  associatedtype State: Sendable
  /// The machine's output.
  associatedtype Event: Sendable

  /// The layer's machine.
  var machine: Machine<State, Event> { get }
  /// The machine's input for a global state.
  func map(state: GlobalState) -> State
  /// The global event for one of the machine's outputs.
  func map(event: Event) -> GlobalEvent
}

extension LayerType {
  /// This layer as a ``Layer``.
  @inlinable
  public var layer: Layer<GlobalState, GlobalEvent> { .layer(self) }

  /// This layer as a ``Layer``.
  @inlinable
  public static prefix func ~ (operand: Self) -> Layer<GlobalState, GlobalEvent> { .layer(operand) }
}

/// A layer whose machine only consumes states: it emits nothing the core hears.
public protocol ConsumerLayer: Sendable {
  /// The core's state.
  associatedtype GlobalState: Sendable
  /// The machine's input.
  associatedtype State: Sendable
  /// The machine's output, ignored.
  associatedtype Event: Sendable = Never

  /// The layer's machine.
  var machine: Machine<State, Event> { get }
  /// The machine's input for a global state.
  func map(state: GlobalState) -> State
}

extension ConsumerLayer {
  /// This layer as a ``Layer`` of a core with any event type.
  @inlinable
  public func layer<GlobalEvent: Sendable>() -> Layer<GlobalState, GlobalEvent> {
    .consumer(self)
  }

  /// This layer as a ``Layer`` of a core with any event type.
  @inlinable
  public static prefix func ~ <GlobalEvent: Sendable>(operand: Self) -> Layer<
    GlobalState, GlobalEvent
  > { .consumer(operand) }
}

/// A layer whose machine only produces events: it receives no state, only the first `nil`.
public protocol ProducerLayer: Sendable {
  /// The core's event.
  associatedtype GlobalEvent: Sendable
  /// The machine's input, never sent.
  associatedtype State: Sendable = Never
  /// The machine's output.
  associatedtype Event: Sendable

  /// The layer's machine.
  var machine: Machine<State, Event> { get }
  /// The global event for one of the machine's outputs.
  func map(event: Event) -> GlobalEvent
}

extension ProducerLayer {
  /// This layer as a ``Layer`` of a core with any state type.
  @inlinable
  public func layer<GlobalState: Sendable>() -> Layer<GlobalState, GlobalEvent> {
    .producer(self)
  }

  /// This layer as a ``Layer`` of a core with any state type.
  @inlinable
  public static prefix func ~ <GlobalState: Sendable>(operand: Self) -> Layer<
    GlobalState, GlobalEvent
  > { .producer(operand) }
}

/// A layer that maps the global state into its machine's input; the machine emits global
/// events.
public protocol MapStateLayer: Sendable {
  /// The core's state.
  associatedtype GlobalState: Sendable
  /// The core's event, which the machine emits.
  associatedtype GlobalEvent: Sendable
  /// The machine's input.
  associatedtype State: Sendable

  /// The layer's machine.
  var machine: Machine<State, GlobalEvent> { get }
  /// The machine's input for a global state.
  func map(state: GlobalState) -> State
}

extension MapStateLayer {
  /// This layer as a ``Layer``.
  @inlinable
  public var layer: Layer<GlobalState, GlobalEvent> { .state(self) }

  /// This layer as a ``Layer``.
  @inlinable
  public static prefix func ~ (operand: Self) -> Layer<GlobalState, GlobalEvent> { .state(operand) }
}

/// A layer whose machine gets the global state and whose outputs are mapped into global events.
public protocol MapEventLayer: Sendable {
  /// The core's state, which the machine gets.
  associatedtype GlobalState: Sendable
  /// The core's event.
  associatedtype GlobalEvent: Sendable
  /// The machine's output.
  associatedtype Event: Sendable

  /// The layer's machine.
  var machine: Machine<GlobalState, Event> { get }
  /// The global event for one of the machine's outputs.
  func map(event: Event) -> GlobalEvent
}

extension MapEventLayer {
  /// This layer as a ``Layer``.
  @inlinable
  public var layer: Layer<GlobalState, GlobalEvent> { .event(self) }

  /// This layer as a ``Layer``.
  @inlinable
  public static prefix func ~ (operand: Self) -> Layer<GlobalState, GlobalEvent> { .event(operand) }
}

/// A layer whose machine gets the global state and emits global events, unmapped.
public protocol NoMapLayer: Sendable {
  /// The core's state.
  associatedtype GlobalState: Sendable
  /// The core's event.
  associatedtype GlobalEvent: Sendable

  /// The layer's machine.
  var machine: Machine<GlobalState, GlobalEvent> { get }
}

extension NoMapLayer {
  /// This layer as a ``Layer``.
  @inlinable
  public var layer: Layer<GlobalState, GlobalEvent> { .nomap(self) }

  /// This layer as a ``Layer``.
  @inlinable
  public static prefix func ~ (operand: Self) -> Layer<GlobalState, GlobalEvent> { .nomap(operand) }
}

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
  /// For a mounted child's layer: its place among the child's layers that get states, through
  /// which the flow hands the child's state to a run of them at once.
  @usableFromInline let member: MountGroupMember<GlobalState>?
  /// The delivery as a link of the flow's chain (see `FlowRuntime.chain`), made where the
  /// layer's types are known: one closure that calls the links before it and then the
  /// layer's machine, where a link around ``deliver`` would be a second closure call per layer.
  @usableFromInline let link: Link?

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
    route: (any AnyObject & Sendable)?, member: MountGroupMember<GlobalState>? = nil,
    link: Link? = nil
  ) {
    self.deliver = deliver
    self.start = start
    self.route = route
    self.member = member
    self.link = link
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
    Sink { [weak self] event, run in
      guard let self else { return }
      self.receive(self.map(event), run)
    }
  }
}
