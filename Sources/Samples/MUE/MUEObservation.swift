#if canImport(Observation)
  import MUE
  import Workloads

  /// A list of rows and a count on a loop, followed by ``ObservableLoop``: the path a SwiftUI
  /// app takes, for the `observation.*` workloads.
  @MainActor
  public final class MUEObservation: ObservationSubject {
    struct State: Equatable, Sendable {
      var rows = MUE.IdentifiedList<Int, ObservedRow>()
      var count = 0
    }

    enum Event: Sendable {
      case toggle(Int)
      case tick
    }

    /// Written in place, as a list's update should be: the loop's own state changes.
    struct Rows: Update {
      typealias Effect = NoEffect

      func handle(event: Event, changing state: inout State) -> InPlaceResult<NoEffect> {
        switch event {
        case .toggle(let id):
          return state.rows.update(id: id) { $0.done.toggle() } == nil ? .noChange : .changedState
        case .tick:
          state.count += 1
          return .changedState
        }
      }

      func handle(result: Never, changing state: inout State) -> InPlaceResult<NoEffect> {}
    }

    let loop: Loop<Rows, HandleEffects<NoEffect>>
    let model: ObservableLoop<Rows, HandleEffects<NoEffect>>
    let rows: ObservableList<Int, ObservedRow>

    public init(rows count: Int) async {
      var state = State()
      state.rows.append(contentsOf: (1...count).lazy.map { ($0, ObservedRow()) })
      loop = Loop(update: Rows(), state: state)
      model = ObservableLoop(loop)
      rows = model.list(\.rows)
      await model.settled()
    }

    public func isDone(_ id: Int) -> Bool? { rows.row(id).value?.done }
    public var count: Int { model.state.count }
    public func toggle(_ id: Int) { model.send(.toggle(id)) }
    public func tick() { model.send(.tick) }
    public func settled() async { await model.settled() }
    public func stop() { loop.stop() }
  }
#endif
