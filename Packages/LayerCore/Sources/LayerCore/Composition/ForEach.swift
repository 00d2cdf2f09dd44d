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
  /// A new state costs this layer one look at what changed in the list since the last one it
  /// saw, told by the list itself (its change stamps): when one row of 10,000 changed, was
  /// removed or was appended, it finds that row without looking at the others, and only that
  /// row's machine hears of it. Only a change the list cannot describe (several rows at once,
  /// the list laid out again) makes it compare every row with the one it saw last.
  @inlinable
  public static func forEach<
    ID: Hashable & Sendable, Row: Equatable & Sendable, RowEvent: Sendable
  >(
    _ list: @escaping @Sendable (GlobalState) -> IdentifiedList<ID, Row>,
    machine: @escaping @Sendable (ID) -> Machine<Row, RowEvent>,
    event: @escaping @Sendable (ID, RowEvent) -> GlobalEvent
  ) -> Layer {
    // The look at the list is made here, in the caller's module, where the row type is known:
    // its dictionaries and the list are used specialized rather than through the row's metadata.
    rowLayer(
      list, machine: machine, event: event,
      changes: { list, cursor, body in cursor.follow(list, body) })
  }

  @inlinable
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
        tap: wiring.tap, children: wiring.children, changes: changes)
      return LayerNode(deliver: { rows.follow(list($0)) }, start: {}, route: route)
    }
  }
}

/// How the row machines' outputs become global events. Only the flow holds it strongly; the
/// rows' sinks reach it weakly (see `EventRoute`).
@usableFromInline
final class RowRoute<ID: Sendable, RowEvent, GlobalEvent>: Sendable {
  @usableFromInline let map: @Sendable (ID, RowEvent) -> GlobalEvent
  @usableFromInline let receive: @Sendable (GlobalEvent, Run<OwnedWorkID>?) -> Void

  @inlinable
  init(
    map: @escaping @Sendable (ID, RowEvent) -> GlobalEvent,
    receive: @escaping @Sendable (GlobalEvent, Run<OwnedWorkID>?) -> Void
  ) {
    self.map = map
    self.receive = receive
  }

  /// The sink of row `id`'s machine.
  @inlinable
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
  /// Calls its last argument with each row of the list that changed since the cursor's last
  /// list (``RowCursor/follow(_:_:)``, made where the row type is known).
  @usableFromInline
  typealias Changes =
    @Sendable (
      IdentifiedList<ID, Row>, inout RowCursor<ID, Row>, (ID, Row?) -> Void
    ) -> Void

  /// A row's wired machine and the ids its machines' work is filed under.
  @usableFromInline
  struct Entry {
    @usableFromInline let node: Node<Row>
    @usableFromInline let machines: ClosedRange<Int>?

    @inlinable
    init(node: Node<Row>, machines: ClosedRange<Int>?) {
      self.node = node
      self.machines = machines
    }
  }

  // Inlinable, like `follow`: compiled for the row and id types where the layer is made, the
  // table of machines is hashed and the rows compared specialized, not through metadata.
  @usableFromInline let machine: @Sendable (ID) -> Machine<Row, RowEvent>
  @usableFromInline let sink: @Sendable (ID) -> Sink<RowEvent>
  @usableFromInline let host: WeakHost
  @usableFromInline let ids: MachineIDs
  @usableFromInline let tap: (@Sendable (any Sendable) -> Void)?
  @usableFromInline let children: ChildTap?
  @usableFromInline let changes: Changes
  /// What the layer saw of the list last. It keeps no copy of the list: a copy kept here would
  /// make the reducer's next change to the list copy its index and order (10,000 ids).
  @exclusivity(unchecked) @usableFromInline var cursor = RowCursor<ID, Row>()
  @exclusivity(unchecked) @usableFromInline var entries: [ID: Entry] = [:]

  @inlinable
  init(
    machine: @escaping @Sendable (ID) -> Machine<Row, RowEvent>,
    sink: @escaping @Sendable (ID) -> Sink<RowEvent>, host: WeakHost, ids: MachineIDs,
    tap: (@Sendable (any Sendable) -> Void)?, children: ChildTap?,
    changes: @escaping Changes
  ) {
    self.changes = changes
    self.machine = machine
    self.sink = sink
    self.host = host
    self.ids = ids
    self.tap = tap
    self.children = children
  }

  /// Makes, tells and drops the rows' machines after a new state.
  @inlinable
  func follow(_ list: IdentifiedList<ID, Row>) {
    changes(list, &cursor) { id, row in
      guard let row else { return remove(id) }
      tap?(row)
      children?.received(AnyWorkID(id), row)
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
  @inlinable
  func make(_ id: ID) -> Entry {
    let first = ids.peek + 1
    let child = children.map { _ in AnyWorkID(id) }
    let rowSink = child.flatMap { children?.sink(sink(id), of: $0, host: host) } ?? sink(id)
    let node = machine(id).build(Wiring(sink: rowSink, host: host, ids: ids))
    let last = ids.peek
    let machines = first <= last ? first...last : nil
    if let children, let child { children.presented(child, machines) }
    return Entry(node: node, machines: machines)
  }

  /// Drops row `id`'s machine and cancels its work.
  @inlinable
  func remove(_ id: ID) {
    guard let entry = entries.removeValue(forKey: id) else { return }
    if let machines = entry.machines { host.host?.cancelRuns(machines: machines) }
    children?.dismissed(AnyWorkID(id))
  }
}

/// What a ``Layer/forEach(_:machine:event:)`` layer saw of its list: the list's stamp and
/// layout then, the id in each slot and each row as last seen — enough to tell from the list's
/// own account of its last change (`IdentifiedList.change(since:)`) which row changed, left or
/// came, without a copy of the old list.
@usableFromInline
struct RowCursor<ID: Hashable & Sendable, Row: Equatable & Sendable> {
  @usableFromInline var stamp: UInt64 = 0
  @usableFromInline var layout: UInt64 = 0
  @usableFromInline var slotCount = 0
  /// The id in each slot, under `layout`.
  @usableFromInline var ids: [Int: ID] = [:]
  /// Each row as last seen.
  @usableFromInline var rows: [ID: Row] = [:]

  @inlinable init() {}

  /// Calls `body` with each row of `list` that changed since the last list followed (`nil`
  /// for one that left), then remembers `list`.
  ///
  /// - Complexity: O(1) for a list that changed one row in place, lost one or had rows
  ///   appended (O(a) for a appended); O(n) for any other change.
  @inlinable
  mutating func follow(_ list: IdentifiedList<ID, Row>, _ body: (ID, Row?) -> Void) {
    let change: ChangeSince = list.layout == layout ? list.change(since: stamp) : .unknown
    stamp = list.stamp
    switch change {
    case .none:
      return
    case .slot(let slot):
      guard let id = ids[slot], let row = list[id: id] else { return resync(list, body) }
      if rows[id] != row {
        rows[id] = row
        body(id, row)
      }
    case .removed(let slot):
      guard let id = ids.removeValue(forKey: slot) else { return resync(list, body) }
      rows[id] = nil
      body(id, nil)
    case .added:
      let end = list.idsBySlot.slotCount
      // Grown once for all the rows appended, not row by row.
      ids.reserveCapacity(ids.count + end - slotCount)
      rows.reserveCapacity(rows.count + end - slotCount)
      for slot in slotCount..<end {
        guard let id = list.idsBySlot[slot], let row = list[id: id] else { continue }
        ids[slot] = id
        rows[id] = row
        body(id, row)
      }
      slotCount = end
    case .unknown:
      resync(list, body)
    }
  }

  /// Compares every row of `list` with the one seen last: the rows that left first, in the
  /// order they had, then the changed and new rows in list order.
  @inlinable
  mutating func resync(_ list: IdentifiedList<ID, Row>, _ body: (ID, Row?) -> Void) {
    for slot in ids.keys.sorted() {
      guard let id = ids[slot], !list.contains(id: id) else { continue }
      rows[id] = nil
      body(id, nil)
    }
    layout = list.layout
    slotCount = list.idsBySlot.slotCount
    ids.removeAll(keepingCapacity: true)
    ids.reserveCapacity(list.count)
    rows.reserveCapacity(list.count)
    for id in list.ids {
      guard let row = list[id: id] else { continue }
      if let slot = list.slots[id] { ids[slot] = id }
      if rows[id] != row {
        rows[id] = row
        body(id, row)
      }
    }
  }
}
