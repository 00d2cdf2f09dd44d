#if canImport(Observation)
  import LayerCore
  import Workloads

  /// A list of rows and a count as a core whose screen layer is an ``ObservableMachine``: the
  /// path a SwiftUI app takes, for the `observation.*` workloads.
  @MainActor
  public final class LayerCoreObservation: ObservationSubject {
    struct State: Equatable, Sendable {
      var rows = LayerCore.IdentifiedList<Int, ObservedRow>()
      var count = 0
    }

    enum Event: Sendable {
      case toggle(Int)
      case tick
    }

    struct App: Core {
      let initialState: State?
      let screen: ObservableMachine<State, Event>

      var layers: [Layer<State, Event>] {
        [.layer(screen.machine, stateMapper: { $0 }, eventMapper: { $0 })]
      }

      /// Written in place, as a list's reducer should be: the flow's own state changes.
      func reduce(state: inout State?, event: Event) -> InPlaceReducerResult {
        switch event {
        case .toggle(let id):
          guard state?.rows.update(id: id, { $0.done.toggle() }) != nil else { return .skip }
          return .set
        case .tick:
          guard state != nil else { return .skip }
          state?.count += 1
          return .set
        }
      }
    }

    let flow: Flow<App>
    let screen = ObservableMachine<State, Event>()
    let rows: ObservableList<Int, ObservedRow>

    public init(rows count: Int) async {
      var state = State()
      state.rows.append(contentsOf: (1...count).lazy.map { ($0, ObservedRow()) })
      flow = App(initialState: state, screen: screen).start()
      rows = screen.list(\.rows)
      await flow.idle()
    }

    public func isDone(_ id: Int) -> Bool? { rows.row(id).value?.done }
    public var count: Int { screen.value?.count ?? 0 }
    public func toggle(_ id: Int) { screen.send(.toggle(id)) }
    public func tick() { screen.send(.tick) }
    public func settled() async { await flow.idle() }
    public func stop() { flow.stop() }
  }
#endif
