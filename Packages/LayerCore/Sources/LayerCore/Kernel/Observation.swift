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

  /// A property's key path, made by the first read or write of the property and kept, for a
  /// generic observable class that calls its `ObservationRegistrar` itself.
  ///
  /// Observation names a property by its key path, and a key path into a generic class is made
  /// anew wherever it is written: its types are looked up by their names, about 20,000
  /// instructions. `@Observable` writes one into every read and every change of the property,
  /// so the generic observable classes here (and each package's model) are written out instead.
  ///
  /// ```swift
  /// public private(set) var state: State {
  ///   get {
  ///     registrar.access(self, keyPath: statePath { \.state })
  ///     return storedState
  ///   }
  ///   set {
  ///     registrar.withMutation(of: self, keyPath: statePath { \.state }) { storedState = newValue }
  ///   }
  /// }
  /// private var statePath = KeptKeyPath<Model, State>()
  /// ```
  package struct KeptKeyPath<Root, Value> {
    private var path: KeyPath<Root, Value>?

    package init() {}

    /// The kept key path; `make` makes it the first time.
    package mutating func callAsFunction(_ make: () -> KeyPath<Root, Value>) -> KeyPath<Root, Value>
    {
      if let path { return path }
      let made = make()
      path = made
      return made
    }
  }

  /// The rows of one identified list as observable objects: `ids` changes only when rows are
  /// added, removed or moved; each row object changes only when its row does.
  @MainActor
  public final class ObservableList<ID: Hashable & Sendable, Row: Equatable & Sendable>:
    Observable
  {
    /// The ids in list order.
    public fileprivate(set) var ids: [ID] {
      get {
        registrar.access(self, keyPath: idsPath { \.ids })
        return storedIDs
      }
      set {
        registrar.withMutation(of: self, keyPath: idsPath { \.ids }) { storedIDs = newValue }
      }
    }

    private var storedIDs: [ID]
    private let registrar = ObservationRegistrar()
    private var idsPath = KeptKeyPath<ObservableList, [ID]>()
    fileprivate var rows: [ID: ObservableRow<Row>] = [:]
    fileprivate var current: IdentifiedList<ID, Row>

    init(_ list: IdentifiedList<ID, Row>) {
      current = list
      storedIDs = list.ids
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
  @MainActor
  public final class ObservableRow<Row: Equatable & Sendable>: Observable {
    /// The row now; `nil` once it left the list.
    public fileprivate(set) var value: Row? {
      get {
        registrar.access(self, keyPath: valuePath { \.value })
        return storedValue
      }
      set {
        registrar.withMutation(of: self, keyPath: valuePath { \.value }) { storedValue = newValue }
      }
    }

    private var storedValue: Row?
    private let registrar = ObservationRegistrar()
    private var valuePath = KeptKeyPath<ObservableRow, Row?>()

    init(_ value: Row?) { storedValue = value }
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
