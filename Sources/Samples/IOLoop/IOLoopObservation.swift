#if canImport(Observation)
  import IOLoop
  import Workloads

  /// What the list and the count are sent: toggles and ticks, as a screen's buttons would.
  public enum ObservationIO: IOType {
    public enum Input: Sendable {
      case toggle(Int)
      case tick
    }
  }

  /// A list of rows and a count as a pure app, run by a program followed by
  /// ``ObservableMain``: the path a SwiftUI app takes, for the `observation.*` workloads.
  @MainActor
  public final class IOLoopObservation: ObservationSubject {
    struct App: PureApp, Equatable {
      var rows = IOLoop.IdentifiedList<Int, ObservedRow>()
      var count = 0

      static func start() -> (App, IOOutputs<ObservationIO>) { (App(), .none) }

      /// Written in place, as a list's step should be: the program's own state changes.
      mutating func run(inPlace input: IOInput<ObservationIO>) -> IOOutputs<ObservationIO> {
        let sent: ObservationIO.Input? = input.values
        switch sent {
        case .toggle(let id): rows.update(id: id) { $0.done.toggle() }
        case .tick: count += 1
        case nil: break
        }
        return .none
      }
    }

    let main: Main<App, InputOnlyHandler<ObservationIO>>
    let model: ObservableMain<App>
    let rows: ObservableList<Int, ObservedRow>

    public init(rows count: Int) async {
      var state = App()
      state.rows.append(contentsOf: (1...count).lazy.map { ($0, ObservedRow()) })
      main = Main(state: state, handlers: InputOnlyHandler<ObservationIO>())
      model = ObservableMain(main)
      rows = model.list(\.rows)
      await model.settled()
    }

    public func isDone(_ id: Int) -> Bool? { rows.row(id).value?.done }
    public var count: Int { model.state.count }
    public func toggle(_ id: Int) { main.send(.toggle(id), from: ObservationIO.self) }
    public func tick() { main.send(.tick, from: ObservationIO.self) }
    public func settled() async { await model.settled() }
    public func stop() { main.stop() }
  }
#endif
