#if canImport(Observation)
  import ElmStore
  import Workloads

  /// A list of rows and a count on a store, followed by ``ObservableStore``: the path a
  /// SwiftUI app takes, for the `observation.*` workloads.
  @MainActor
  public final class ElmStoreObservation: ObservationSubject {
    struct State: Sendable {
      var rows = ElmStore.IdentifiedList<Int, ObservedRow>()
      var count = 0
    }

    enum Action: Sendable {
      case toggle(Int)
      case tick
    }

    let store: Store<State, Action>
    let model: ObservableStore<State, Action>
    let rows: ObservableList<Int, ObservedRow>

    public init(rows count: Int) async {
      var state = State()
      state.rows.append(contentsOf: (1...count).lazy.map { ($0, ObservedRow()) })
      store = Store(state: state) { state, action in
        switch action {
        case .toggle(let id): state.rows[id: id]?.done.toggle()
        case .tick: state.count += 1
        }
      }
      model = ObservableStore(store)
      rows = model.list(\.rows)
      await model.settled()
    }

    public func isDone(_ id: Int) -> Bool? { rows.row(id).value?.done }
    public var count: Int { model.state.count }
    public func toggle(_ id: Int) { model.send(.toggle(id)) }
    public func tick() { model.send(.tick) }
    public func settled() async { await model.settled() }
    public func stop() { store.stop() }
  }
#endif
