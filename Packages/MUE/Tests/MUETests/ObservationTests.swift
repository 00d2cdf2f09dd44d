#if canImport(Observation)
  import MUE
  import Observation
  import Testing

  /// A flag an `onChange` sets.
  final class Fired: Sendable {
    private let value = Lock(false)
    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }
  }

  @MainActor @Suite struct ObservationAdapter {
    func makeList() -> Loop<List.Update, List.Handler> {
      Loop(
        update: List.Update(),
        effectHandler: List.Handler(row: Row.Handler(gate: Gate(), calls: Recorder())),
        state: List.State())
    }

    @Test func aChangeToOneRowInvalidatesOnlyThatRowsReaders() async {
      let loop = makeList()
      let model = ObservableLoop(loop)
      for id in 1...3 { model.send(.add(id, "row \(id)")) }
      await loop.idle()
      await model.settled()
      let rows = model.list(\.rows)
      let (first, second, ids) = (Fired(), Fired(), Fired())
      withObservationTracking {
        _ = rows.row(1).value
      } onChange: {
        first.set()
      }
      withObservationTracking {
        _ = rows.row(2).value
      } onChange: {
        second.set()
      }
      withObservationTracking {
        _ = rows.ids
      } onChange: {
        ids.set()
      }

      model.send(.row(2, .rename("changed")))
      await loop.idle()
      await model.settled()

      #expect(!first.isSet)
      #expect(second.isSet)
      #expect(!ids.isSet)
      #expect(rows.row(2).value?.title == "changed")
    }

    @Test func addingARowChangesTheIdsAndNoRow() async {
      let loop = makeList()
      let model = ObservableLoop(loop)
      model.send(.add(1, "milk"))
      await loop.idle()
      await model.settled()
      let rows = model.list(\.rows)
      let (row, ids) = (Fired(), Fired())
      withObservationTracking {
        _ = rows.row(1).value
      } onChange: {
        row.set()
      }
      withObservationTracking {
        _ = rows.ids
      } onChange: {
        ids.set()
      }
      model.send(.add(2, "bread"))
      await loop.idle()
      await model.settled()
      #expect(ids.isSet)
      #expect(!row.isSet)
      #expect(rows.ids == [1, 2])
    }

    @Test func aRemovedRowsObjectReadsNil() async {
      let loop = makeList()
      let model = ObservableLoop(loop)
      model.send(.add(1, "milk"))
      await loop.idle()
      await model.settled()
      let row = model.list(\.rows).row(1)
      model.send(.remove(1))
      await loop.idle()
      await model.settled()
      #expect(row.value == nil)
      #expect(model.list(\.rows) === model.list(\.rows))
    }

    @Test func stateArrivesOnTheMainActorInOrder() async {
      let loop = makeList()
      let model = ObservableLoop(loop)
      await Task.detached {
        for id in 0..<100 { loop.send(.add(id, "row")) }
      }.value
      await loop.idle()
      await model.settled()
      #expect(model.state.rows.count == 100)
    }

    @Test func observersCanBeCalledOnTheMainActor() async {
      let loop = makeList()
      loop.start()
      let seen = Recorder<Int>()
      let done = Fired()
      let count: @Sendable (List.State) -> Int = { $0.rows.count }
      loop.observeOnMainActor(count) { count in
        MainActor.assertIsolated()
        seen.append(count)
        if count == 3 { done.set() }
      }
      await Task.detached {
        for id in 0..<3 { loop.send(.add(id, "row")) }
      }.value
      while !done.isSet { await Task.yield() }
      #expect(seen.all.last == 3)
      #expect(seen.all == seen.all.sorted())
    }

    @Test func releasingTheModelStopsTheLoop() async {
      let loop = makeList()
      do {
        let model = ObservableLoop(loop)
        model.send(.add(1, "milk"))
        await loop.idle()
        await model.settled()
      }
      loop.send(.add(2, "bread"))
      await loop.idle()
      #expect(loop.state.rows.ids == [1])
    }
  }
#endif
