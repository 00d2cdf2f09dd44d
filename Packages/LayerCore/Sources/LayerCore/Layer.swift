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
        chaining: .link { earlier, gate in
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
        chaining: .link { earlier, gate in
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
