// Vendored from Kernel/Runtime/Observation.swift by Scripts/vendor-kernel. Do not edit here: edit the source,
// then run the script (CI fails while a copy differs).

/// Hands values to code on the main actor in the order they were produced, skipping any value
/// older than one already delivered, and tells when all produced values were delivered.
package final class MainActorDelivery<Value: Sendable>: Sendable {
  private struct State {
    var produced = 0
    var delivered = 0
    var waiters: [CheckedContinuation<Void, Never>] = []
  }

  private let state = Lock(State())
  private let deliver: @MainActor @Sendable (Value) -> Void
  /// The runtime's gate: a value still on its way to the main actor when the runtime stops is
  /// not delivered (R6).
  private let gate: StopGate?

  package init(gate: StopGate? = nil, _ deliver: @escaping @MainActor @Sendable (Value) -> Void) {
    self.gate = gate
    self.deliver = deliver
  }

  /// Delivers `value` on the main actor, unless a newer value gets there first.
  package func send(_ value: Value) {
    let number = state.withLock { state -> Int in
      state.produced += 1
      return state.produced
    }
    Task { @MainActor in self.apply(number, value) }
  }

  /// Returns once every value produced so far was delivered or skipped.
  package func settled() async {
    await withCheckedContinuation { continuation in
      let done = state.withLock { state in
        if state.delivered >= state.produced { return true }
        state.waiters.append(continuation)
        return false
      }
      if done { continuation.resume() }
    }
  }

  @MainActor
  private func apply(_ number: Int, _ value: Value) {
    let (isNewest, waiters) = state.withLock {
      state -> (Bool, [CheckedContinuation<Void, Never>]) in
      let isNewest = number > state.delivered
      state.delivered = max(state.delivered, number)
      guard state.delivered >= state.produced else { return (isNewest, []) }
      defer { state.waiters = [] }
      return (isNewest, state.waiters)
    }
    if isNewest {
      if let gate {
        if gate.enter() {
          deliver(value)
          gate.leave()
        }
      } else {
        deliver(value)
      }
    }
    for waiter in waiters { waiter.resume() }
  }
}

#if canImport(Observation)
  import Observation

  /// The rows of one identified list as observable objects: `ids` changes only when rows are
  /// added, removed or moved; each row object changes only when its row does.
  @MainActor @Observable
  public final class ObservableList<ID: Hashable & Sendable, Row: Equatable & Sendable> {
    /// The ids in list order.
    public fileprivate(set) var ids: [ID]

    @ObservationIgnored fileprivate var rows: [ID: ObservableRow<Row>] = [:]
    @ObservationIgnored fileprivate var current: IdentifiedList<ID, Row>

    init(_ list: IdentifiedList<ID, Row>) {
      current = list
      ids = list.ids
    }

    /// The observable row with `id`, created on first use and reused; its `value` is `nil`
    /// once the row left the list.
    public func row(_ id: ID) -> ObservableRow<Row> {
      if let row = rows[id] { return row }
      let row = ObservableRow(current[id: id])
      rows[id] = row
      return row
    }

    /// Takes the new list; touches only the row objects whose row changed.
    ///
    /// - Complexity: O(1) when the list did not change or one row changed in place (the list
    ///   says which: its change stamp); otherwise O(rows handed out), plus O(n) when the ids
    ///   changed.
    fileprivate func follow(_ list: IdentifiedList<ID, Row>) {
      let change = list.change(since: current.stamp)
      current = list
      switch change {
      case .none:
        return
      case .slot(let slot):
        // The same ids; one row changed in place, in `slot`.
        guard let id = list.idsBySlot[slot], let row = rows[id] else { return }
        let value = list.elements[slot]
        if row.value != value { row.value = value }
        return
      case .removed, .added, .unknown:
        break
      }
      if ids != list.ids { ids = list.ids }
      for (id, row) in rows {
        let value = list[id: id]
        if row.value != value { row.value = value }
      }
    }
  }

  /// One row of an ``ObservableList``.
  @MainActor @Observable
  public final class ObservableRow<Row: Equatable & Sendable> {
    /// The row now; `nil` once it left the list.
    public fileprivate(set) var value: Row?

    init(_ value: Row?) { self.value = value }
  }

  /// A weak reference set after initialisation, read on the main actor only.
  @MainActor
  package final class WeakBox<Object: AnyObject>: Sendable {
    package weak var value: Object?

    package init() {}
  }

  /// Something an observable model keeps up to date with its runtime's state.
  @MainActor
  package protocol StateFollower<State>: AnyObject {
    associatedtype State
    func follow(_ state: State)
  }

  /// Keeps one ``ObservableList`` up to date with the identified list at `path`.
  @MainActor
  package final class ObservableListFollower<
    State, ID: Hashable & Sendable, Row: Equatable & Sendable
  >: StateFollower {
    package let path: KeyPath<State, IdentifiedList<ID, Row>>
    package let list: ObservableList<ID, Row>

    package init(path: KeyPath<State, IdentifiedList<ID, Row>>, state: State) {
      self.path = path
      list = ObservableList(state[keyPath: path])
    }

    package func follow(_ state: State) { list.follow(state[keyPath: path]) }
  }
#endif
