extension Layer {
  /// A layer of one machine per element of the identified list `list` makes of the state:
  /// each element's machine is made and started when the element joins the list, gets the
  /// element whenever it changes, and is dropped when the element leaves — its work cancelled,
  /// and what that work sends later dropped. What a machine emits reaches the reducer as
  /// `event(id, output)`.
  ///
  /// ```swift
  /// .forEach(\.rows, machine: { id in ~RowScreen(id: id, screens: rows) },
  ///          event: { id, intent in .row(id: id, intent) })
  /// ```
  ///
  /// A new state costs this layer one comparison of the list with the last one it saw: when
  /// one row of 10,000 changed, it finds that row without looking at the others (see
  /// `IdentifiedList.forEachChange(from:)`), and only that row's machine hears of it.
  @inlinable
  public static func forEach<
    ID: Hashable & Sendable, Row: Equatable & Sendable, RowEvent: Sendable
  >(
    _ list: @escaping @Sendable (GlobalState) -> IdentifiedList<ID, Row>,
    machine: @escaping @Sendable (ID) -> Machine<Row, RowEvent>,
    event: @escaping @Sendable (ID, RowEvent) -> GlobalEvent
  ) -> Layer {
    // The comparison of two lists is made here, in the caller's module, where the row type is
    // known: it walks the trees specialized rather than through the row's metadata.
    rowLayer(
      list, machine: machine, event: event,
      changes: { new, old, body in new.forEachChange(from: old, body) })
  }

  @usableFromInline
  static func rowLayer<ID: Hashable & Sendable, Row: Equatable & Sendable, RowEvent: Sendable>(
    _ list: @escaping @Sendable (GlobalState) -> IdentifiedList<ID, Row>,
    machine: @escaping @Sendable (ID) -> Machine<Row, RowEvent>,
    event: @escaping @Sendable (ID, RowEvent) -> GlobalEvent,
    changes: @escaping RowMachines<ID, Row, RowEvent>.Changes
  ) -> Layer {
    Layer { wiring in
      let route = RowRoute(map: event, receive: wiring.receive)
      let rows = RowMachines<ID, Row, RowEvent>(
        machine: machine, sink: route.sink(for:), host: wiring.host, ids: wiring.ids,
        tap: wiring.tap, changes: changes)
      return LayerNode(deliver: { rows.follow(list($0)) }, start: {}, route: route)
    }
  }
}

/// How the row machines' outputs become global events. Only the flow holds it strongly; the
/// rows' sinks reach it weakly (see `EventRoute`).
final class RowRoute<ID: Sendable, RowEvent, GlobalEvent>: Sendable {
  let map: @Sendable (ID, RowEvent) -> GlobalEvent
  let receive: @Sendable (GlobalEvent, Run<OwnedWorkID>?) -> Void

  init(
    map: @escaping @Sendable (ID, RowEvent) -> GlobalEvent,
    receive: @escaping @Sendable (GlobalEvent, Run<OwnedWorkID>?) -> Void
  ) {
    self.map = map
    self.receive = receive
  }

  /// The sink of row `id`'s machine.
  func sink(for id: ID) -> Sink<RowEvent> {
    Sink { [weak self] output, run in
      guard let self else { return }
      self.receive(self.map(id, output), run)
    }
  }
}

/// The machines of a ``Layer/forEach(_:machine:event:)`` layer, by row id.
///
/// `@unchecked Sendable`: the flow calls `start` and `follow` from its drain only, one call at a
/// time (deliveries never overlap), and nothing else touches the table.
@usableFromInline
final class RowMachines<ID: Hashable & Sendable, Row: Equatable & Sendable, RowEvent: Sendable>:
  @unchecked Sendable
{
  /// Calls its last argument with each row that differs between two lists, new then old
  /// (`IdentifiedList.forEachChange(from:_:)`, made where the row type is known).
  @usableFromInline
  typealias Changes =
    @Sendable (
      IdentifiedList<ID, Row>, IdentifiedList<ID, Row>, (ID, Row?) -> Void
    ) -> Void

  /// A row's wired machine and the ids its machines' work is filed under.
  struct Entry {
    let node: Node<Row>
    let machines: ClosedRange<Int>?
  }

  private let machine: @Sendable (ID) -> Machine<Row, RowEvent>
  private let sink: @Sendable (ID) -> Sink<RowEvent>
  private let host: WeakHost
  private let ids: MachineIDs
  private let tap: (@Sendable (any Sendable) -> Void)?
  private let changes: Changes
  private var current = IdentifiedList<ID, Row>()
  private var entries: [ID: Entry] = [:]

  init(
    machine: @escaping @Sendable (ID) -> Machine<Row, RowEvent>,
    sink: @escaping @Sendable (ID) -> Sink<RowEvent>, host: WeakHost, ids: MachineIDs,
    tap: (@Sendable (any Sendable) -> Void)?, changes: @escaping Changes
  ) {
    self.changes = changes
    self.machine = machine
    self.sink = sink
    self.host = host
    self.ids = ids
    self.tap = tap
  }

  /// Makes, tells and drops the rows' machines after a new state.
  func follow(_ list: IdentifiedList<ID, Row>) {
    let old = current
    current = list
    changes(list, old) { id, row in
      guard let row else { return remove(id) }
      tap?(row)
      if let entry = entries[id] {
        entry.node.process(row)
        return
      }
      let entry = make(id)
      entries[id] = entry
      entry.node.start()
      entry.node.process(row)
    }
  }

  /// Wires row `id`'s machine.
  private func make(_ id: ID) -> Entry {
    let first = ids.peek + 1
    let node = machine(id).build(Wiring(sink: sink(id), host: host, ids: ids))
    let last = ids.peek
    return Entry(node: node, machines: first <= last ? first...last : nil)
  }

  /// Drops row `id`'s machine and cancels its work.
  private func remove(_ id: ID) {
    guard let entry = entries.removeValue(forKey: id), let machines = entry.machines else {
      return
    }
    host.host?.cancelRuns(machines: machines)
  }
}
