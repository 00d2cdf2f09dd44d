#if canImport(Observation)
  import IOLoop
  import Observation
  import Testing

  /// A flag an `onChange` sets.
  final class Fired: Sendable {
    private let value = Lock(false)
    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }
  }

  @MainActor @Suite struct ObservationAdapter {
    func input(_ intent: ParentIO.Input) -> Parent.Input { Parent.Input(intent, nil, nil) }

    @Test func aChangeToOneRowInvalidatesOnlyThatRowsReaders() async {
      let main = makeParent(calls: Recorder())
      let model = ObservableMain(main)
      for id in 1...3 { model.send(input(.add(id))) }
      await main.idle()
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

      model.send(input(.row(2, .increment)))
      await main.idle()
      await model.settled()

      #expect(!first.isSet)
      #expect(second.isSet)
      #expect(!ids.isSet)
      #expect(rows.row(2).value?.count == 1)
    }

    @Test func addingARowChangesTheIdsAndNoRow() async {
      let main = makeParent(calls: Recorder())
      let model = ObservableMain(main)
      model.send(input(.add(1)))
      await main.idle()
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
      model.send(input(.add(2)))
      await main.idle()
      await model.settled()
      #expect(ids.isSet)
      #expect(!row.isSet)
      #expect(rows.ids == [1, 2])
    }

    @Test func aRemovedRowsObjectReadsNil() async {
      let main = makeParent(calls: Recorder())
      let model = ObservableMain(main)
      model.send(input(.add(1)))
      await main.idle()
      await model.settled()
      let row = model.list(\.rows).row(1)
      model.send(input(.remove(1)))
      await main.idle()
      await model.settled()
      #expect(row.value == nil)
      #expect(model.list(\.rows) === model.list(\.rows))
    }

    @Test func stateArrivesOnTheMainActorInOrder() async {
      let main = makeParent(calls: Recorder())
      let model = ObservableMain(main)
      await Task.detached {
        for id in 0..<100 { main.send(Parent.Input(.add(id), nil, nil)) }
      }.value
      await main.idle()
      await model.settled()
      #expect(model.state.rows.count == 100)
    }

    @Test func observersCanBeCalledOnTheMainActor() async {
      let main = makeParent(calls: Recorder())
      main.start()
      let seen = Recorder<Int>()
      let done = Fired()
      main.observeOnMainActor(\.rows.count) { count in
        MainActor.assertIsolated()
        seen.append(count)
        if count == 3 { done.set() }
      }
      await Task.detached {
        for id in 0..<3 { main.send(Parent.Input(.add(id), nil, nil)) }
      }.value
      while !done.isSet { await Task.yield() }
      #expect(seen.all.last == 3)
      #expect(seen.all == seen.all.sorted())
    }

    @Test func releasingTheModelStopsTheProgram() async {
      let main = makeParent(calls: Recorder())
      do {
        let model = ObservableMain(main)
        model.send(input(.add(1)))
        await main.idle()
        await model.settled()
      }
      main.send(Parent.Input(.add(2), nil, nil))
      await main.idle()
      #expect(main.state.rows.ids == [1])
    }
  }
#endif
