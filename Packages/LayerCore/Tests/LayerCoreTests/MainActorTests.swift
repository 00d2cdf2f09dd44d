import Testing

@testable import LayerCore

#if canImport(Observation)
  import Observation
#endif

struct Board: Sendable, Equatable {
  var rows = IdentifiedList<Int, Int>()
}

enum BoardEvent: Sendable, Equatable {
  case bump(Int)
}

/// Records every call of `process`, which must run on the main actor (the check traps
/// otherwise, failing the test). On Linux the main actor need not be the main thread.
final class MainThreadProbe: ChildMachine {
  let calls = Recorder<Int?>()
  var queue: MachineQueue { .main }

  func process(input: Int?, callback: Handler<Never>) {
    MainActor.preconditionIsolated("process ran off the main actor")
    calls.append(input)
  }
}

struct BoardCore: Core {
  let probe: MainThreadProbe
  let screen: ObservableMachine<Board, BoardEvent>

  var layers: [Layer<Board, BoardEvent>] {
    [
      .layer(screen.machine, stateMapper: { $0 }, eventMapper: { $0 }),
      .consumer(probe.machine, mapper: { $0.rows[id: 1] ?? 0 }),
    ]
  }

  func reduce(state: Board?, event: BoardEvent) -> ReducerResult<Board> {
    var board = state ?? Board.thousand
    switch event {
    case .bump(let id): board.rows.update(id: id) { $0 += 1 }
    }
    return .set(board)
  }
}

extension Board {
  /// A thousand rows at 0, ids 1 to 1,000.
  static var thousand: Board {
    var board = Board()
    for id in 1...1_000 { board.rows.append(0, id: id) }
    return board
  }
}

@MainActor @Suite struct MainActorMachines {
  @Test func aMainQueueMachineProcessesOnTheMainActorInOrder() async {
    let probe = MainThreadProbe()
    let flow = BoardCore(probe: probe, screen: ObservableMachine()).start()
    // Sent from other threads: the flow's queue runs there, the probe on the main actor.
    await Task.detached {
      flow.send(.bump(1))
      flow.send(.bump(2))
      flow.send(.bump(1))
    }.value
    await flow.idle()
    #expect(probe.calls.all == [nil, 1, 1, 2])
    flow.stop()
  }

  #if canImport(Observation)
    @Test func aChangeToOneRowInvalidatesOnlyItsReaders() async {
      let screen = ObservableMachine<Board, BoardEvent>()
      let flow = BoardCore(probe: MainThreadProbe(), screen: screen).start()
      screen.send(.bump(5))  // nothing before the flow starts the machine
      await flow.idle()
      flow.send(.bump(5))
      await flow.idle()
      let rows = screen.list(\.rows)
      #expect(rows.ids.count == 1_000)
      let changed = Recorder<Int>()
      for id in [10, 20, 30] {
        withObservationTracking {
          _ = rows.row(id).value
        } onChange: {
          changed.append(id)
        }
      }
      let idsChanged = Recorder<Bool>()
      withObservationTracking {
        _ = rows.ids
      } onChange: {
        idsChanged.append(true)
      }
      screen.send(.bump(20))  // the view's send reaches the reducer
      await flow.idle()
      #expect(changed.all == [20])
      #expect(rows.row(20).value == 1)
      #expect(idsChanged.all.isEmpty)
      #expect(screen.value?.rows[id: 20] == 1)
      flow.stop()
    }
  #endif
}
