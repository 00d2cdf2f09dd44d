#if canImport(Observation)
  import ElmStore
  import Observation
  import Testing

  /// A flag an `onChange` sets.
  final class Fired: Sendable {
    private let value = Lock(false)
    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }
  }

  @MainActor @Suite struct ObservationAdapter {
    func makeStore() -> Store<Parent.State, Parent.Action> {
      Store(state: Parent.State(), update: Parent.update)
    }

    @Test func aStateStillOnItsWayToTheMainActorIsNotShownAfterStop() async {
      let store = makeStore()
      let model = ObservableStore(store)
      await model.settled()
      store.dispatch(.add(1))  // its delivery waits for the main actor, which this test holds
      store.stop()
      await model.settled()
      #expect(model.state.rows.isEmpty)
      #expect(store.state.rows.count == 1)
    }

    @Test func aChangeToOneRowInvalidatesOnlyThatRowsReaders() async {
      let store = makeStore()
      for id in 1...3 { store.dispatch(.add(id)) }
      let model = ObservableStore(store)
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

      store.dispatch(.row(2, .increment))
      await model.settled()

      #expect(!first.isSet)
      #expect(second.isSet)
      #expect(!ids.isSet)
      #expect(rows.row(2).value?.count == 1)
    }

    @Test func rowsChangedOneAfterAnotherAreAllShownWhateverStatesArriveTogether() async {
      let store = makeStore()
      for id in 1...3 { store.dispatch(.add(id)) }
      let model = ObservableStore(store)
      await model.settled()
      let rows = model.list(\.rows)
      let (first, third) = (rows.row(1), rows.row(3))
      // Both sent while this test holds the main actor: the adapter may show them one by one
      // (one row changed in place each) or only the newest state (two rows changed).
      store.dispatch(.row(1, .increment))
      store.dispatch(.row(3, .increment))
      store.dispatch(.row(3, .increment))
      await model.settled()
      #expect(first.value?.count == 1)
      #expect(third.value?.count == 2)
      #expect(rows.row(2).value?.count == 0)
      store.dispatch(.row(2, .increment))
      await model.settled()
      #expect(rows.row(2).value?.count == 1)
    }

    @Test func addingARowChangesTheIdsAndNoRow() async {
      let store = makeStore()
      store.dispatch(.add(1))
      let model = ObservableStore(store)
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
      store.dispatch(.add(2))
      await model.settled()
      #expect(ids.isSet)
      #expect(!row.isSet)
      #expect(rows.ids == [1, 2])
    }

    @Test func aRemovedRowsObjectReadsNil() async {
      let store = makeStore()
      store.dispatch(.add(1))
      let model = ObservableStore(store)
      await model.settled()
      let row = model.list(\.rows).row(1)
      store.dispatch(.remove(1))
      await model.settled()
      #expect(row.value == nil)
      #expect(model.list(\.rows) === model.list(\.rows))
    }

    @Test func stateArrivesOnTheMainActorInOrder() async {
      let store = makeStore()
      let model = ObservableStore(store)
      await Task.detached {
        for _ in 0..<100 { store.dispatch(.single(.increment)) }
      }.value
      await model.settled()
      #expect(model.state.single.count == 100)
      model.send(.single(.increment))
      await model.settled()
      #expect(model.state.single.count == 101)
    }

    @Test func observersCanBeCalledOnTheMainActor() async {
      let store = makeStore()
      let seen = Recorder<Int>()
      let done = Fired()
      let count: @Sendable (Parent.State) -> Int = { $0.single.count }
      store.subscribeOnMainActor(count) { count in
        MainActor.assertIsolated()
        seen.append(count)
        if count == 3 { done.set() }
      }
      await Task.detached {
        for _ in 0..<3 { store.dispatch(.single(.increment)) }
      }.value
      while !done.isSet { await Task.yield() }
      #expect(seen.all.last == 3)
      #expect(seen.all == seen.all.sorted())
    }
  }
#endif
