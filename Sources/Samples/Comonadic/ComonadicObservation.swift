#if canImport(Observation)
  import Comonadic
  import Workloads

  /// A list of rows and a count as a component, followed by ``ObservableComponent``: the path a
  /// SwiftUI app takes, for the `observation.*` workloads.
  @MainActor
  public final class ComonadicObservation: ObservationSubject {
    struct State: Equatable, Sendable {
      var rows = Comonadic.IdentifiedList<Int, ObservedRow>()
      var count = 0
    }

    enum Input: Sendable {
      case toggle(Int)
      case tick
    }

    typealias Component = StoreComponent<Void, State, Input, State>

    /// Each input is one state action, as Bow Arch users write a dispatcher.
    static let dispatcher = StateDispatcher<Void, State, Input>.pure { input in
      switch input {
      case .toggle(let id): .mutate { $0.rows.update(id: id) { $0.done.toggle() } }
      case .tick: .mutate { $0.count += 1 }
      }
    }

    let component: Component
    let model: ObservableComponent<Void, State, Input, State>
    let rows: ObservableList<Int, ObservedRow>

    public init(rows count: Int) async {
      var state = State()
      state.rows.append(contentsOf: (1...count).lazy.map { ($0, ObservedRow()) })
      component = Component(
        initialState: state, environment: (), dispatcher: Self.dispatcher,
        render: { state, _ in state })
      model = ObservableComponent(component)
      rows = model.list(\.rows)
      await model.settled()
    }

    public func isDone(_ id: Int) -> Bool? { rows.row(id).value?.done }
    public var count: Int { model.state.count }
    public func toggle(_ id: Int) { model.send(.toggle(id)) }
    public func tick() { model.send(.tick) }
    public func settled() async { await model.settled() }
    public func stop() { component.stop() }
  }
#endif
