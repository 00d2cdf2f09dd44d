import ElmStore
import ElmStoreTesting
import Synchronization
import Testing

enum Counting: Equatable, Sendable {
  case increment
  case chain(Int)
  case result(String)
  case noop
}

struct Tally: Equatable, Sendable {
  var count = 0
  var results: [String] = []
}

func countUp(_ state: inout Tally, _ action: Counting) {
  switch action {
  case .increment, .chain: state.count += 1
  case .result(let text): state.results.append(text)
  case .noop: break
  }
}

@Suite struct RuntimeContract {
  @Test func aChainOfOneHundredThousandSynchronousDispatchesRunsWithoutNesting() async {
    let effect = Effect<Tally, Counting> { _, action, dispatch in
      if case .chain(let n) = action, n < 100_000 { dispatch(.chain(n + 1)) }
    }
    let store = Store(state: Tally(), update: countUp, effect: effect)
    store.dispatch(.chain(1))
    // The dispatcher handles a turn; the store's own task the rest (R6, progress).
    await store.idle()
    #expect(store.state.count == 100_000)
  }

  @Test func anEffectsDispatchIsQueuedBehindTheActionEveryEffectSees() {
    // Elementary ran the nested action depth-first: the second effect saw `.chain(2)` first.
    let seen = Recorder<String>()
    let store = Store(
      state: Tally(), update: countUp,
      effect: join(
        effects: Effect { _, action, dispatch in
          seen.append("first \(action)")
          if action == .chain(1) { dispatch(.chain(2)) }
        },
        Effect { _, action, _ in seen.append("second \(action)") }))
    store.dispatch(.chain(1))
    #expect(
      seen.all == ["first chain(1)", "second chain(1)", "first chain(2)", "second chain(2)"])
  }

  @Test func eightThreadsSendingAtOnceLoseNothing() async {
    let store = Store(state: Tally(), update: countUp)
    let last = Atomic(0)
    let outOfOrder = Atomic(0)
    store.subscribe { state in
      // Observers are called one at a time, so this read-then-write is not raced.
      if state.count <= last.load(ordering: .relaxed), state.count > 0 {
        outOfOrder.add(1, ordering: .relaxed)
      }
      last.store(state.count, ordering: .relaxed)
    }
    await onThreads(8) {
      for _ in 0..<sendsPerThread { store.dispatch(.increment) }
    }
    await store.idle()
    #expect(store.state.count == 8 * sendsPerThread)
    #expect(last.load(ordering: .relaxed) == 8 * sendsPerThread)
    #expect(outOfOrder.load(ordering: .relaxed) == 0)
  }

  // The work of one processed action starts before that of the next, on the global executor
  // too: each run's operation is entered when the effect starts it, not when a thread picks
  // its task up.
  @Test func workIsEnteredInTheOrderItWasStarted() async {
    let calls = Recorder<Int>()
    let effect = Effect<Tally, Counting> { _, action, dispatch in
      guard case .chain(let n) = action else { return }
      dispatch.run { send in
        calls.append(n)
        send(.result("run \(n)"))
      }
    }
    let store = Store(state: Tally(), update: countUp, effect: effect)
    for n in 1...200 { store.dispatch(.chain(n)) }
    #expect(calls.all == Array(1...200))
    await store.idle()
    #expect(store.state.results == (1...200).map { "run \($0)" })
  }

  @Test func aSupersededResultIsNeverAppliedEvenWhenItsEffectIgnoresCancellation() async {
    let first = Gate()
    let second = Gate()
    let effect = Effect<Tally, Counting> { state, action, dispatch in
      guard case .chain(let n) = action else { return }
      dispatch.run(id: "work") { send in
        await (n == 1 ? first : second).wait()
        send(.result("run \(n)"))
      }
    }
    let store = Store(state: Tally(), update: countUp, effect: effect)
    store.dispatch(.chain(1))
    await eventually { first.waiting == 1 }
    store.dispatch(.chain(2))
    first.open()
    second.open()
    await store.idle()
    #expect(store.state.results == ["run 2"])
  }

  @Test func aResultArrivingAfterStopIsNeverApplied() async {
    let gate = Gate()
    let effect = Effect<Tally, Counting> { _, action, dispatch in
      guard action == .increment else { return }
      dispatch.run { send in
        await gate.wait()
        send(.result("late"))
      }
    }
    let store = Store(state: Tally(), update: countUp, effect: effect)
    let views = Recorder<Tally>()
    store.subscribe { views.append($0) }
    store.dispatch(.increment)
    await eventually { gate.waiting == 1 }
    store.stop()
    gate.open()
    await store.idle()
    store.dispatch(.increment)
    #expect(store.state == Tally(count: 1))
    #expect(views.all == [Tally(), Tally(count: 1)])
  }

  @Test(arguments: [false, true])
  func aReleasedStoreWithARunningTimerIsFreed(stoppedFirst: Bool) async {
    weak var weakStore: Store<Tally, Counting>?
    do {
      let effect = Effect<Tally, Counting> { _, action, dispatch in
        guard action == .increment else { return }
        dispatch.run(id: "timer", lifetime: .untilCancelled) { send in
          // A timer whose ticks the test never sends: it runs until cancelled.
          for await _ in AsyncStream<Void>.never { send(.increment) }
        }
      }
      let store = Store(state: Tally(), update: countUp, effect: effect)
      store.dispatch(.increment)
      await Task.yield()
      #expect(store.runningEffectCount == 1)  // the timer runs
      if stoppedFirst { store.stop() }
      weakStore = store
    }
    #expect(weakStore == nil)
  }

  @Test func idleWaitsForFiniteEffectsButNotForTimers() async {
    let gate = Gate()
    let effect = Effect<Tally, Counting> { _, action, dispatch in
      switch action {
      case .chain:
        dispatch.run(id: "timer", lifetime: .untilCancelled) { _ in
          for await _ in AsyncStream<Void>.never {}
        }
      case .increment:
        dispatch.run { send in
          await gate.wait()
          send(.result("done"))
        }
      default: break
      }
    }
    let store = Store(state: Tally(), update: countUp, effect: effect)
    store.dispatch(.chain(1))
    await store.idle()  // only the timer runs: idle at once
    store.dispatch(.increment)
    await eventually { gate.waiting == 1 }
    let waiting = Task { await store.idle() }
    gate.open()
    await waiting.value
    #expect(store.state.results == ["done"])
    store.stop()
  }

  @Test func aThrownErrorBecomesAnAction() async {
    struct Broken: Error {}
    let effect = Effect<Tally, Counting> { _, action, dispatch in
      guard action == .increment else { return }
      dispatch.run {
        _ in
        throw Broken()
      } catch: { error, send in
        send(.result("failed: \(error is Broken)"))
      }
    }
    let store = Store(state: Tally(), update: countUp, effect: effect)
    store.dispatch(.increment)
    await store.idle()
    #expect(store.state.results == ["failed: true"])
  }
}

@Suite struct Observation {
  @Test func anObserverGetsTheCurrentStateFirstThenEveryChange() {
    let store = Store(state: Tally(), update: countUp)
    store.dispatch(.increment)
    let seen = Recorder<Int>()
    store.subscribe { seen.append($0.count) }
    store.dispatch(.increment)
    store.dispatch(.noop)
    store.dispatch(.increment)
    #expect(seen.all == [1, 2, 3])
  }

  @Test func aMappedObserverIsCalledOnlyWhenItsValueChanges() {
    let store = Store(state: Tally(), update: countUp)
    let seen = Recorder<Bool>()
    store.subscribe({ $0.count > 1 }, { seen.append($0) })
    for _ in 0..<4 { store.dispatch(.increment) }
    #expect(seen.all == [false, true])
  }

  @Test func aCancelledSubscriptionIsNotCalledAgain() {
    let store = Store(state: Tally(), update: countUp)
    let seen = Recorder<Int>()
    let subscription = store.subscribe { seen.append($0.count) }
    store.dispatch(.increment)
    subscription.cancel()
    store.dispatch(.increment)
    #expect(seen.all == [0, 1])
  }

  @Test func anObserverMayDispatchAndSeesEveryStateInOrder() {
    let store = Store(state: Tally(), update: countUp)
    let seen = Recorder<Int>()
    store.subscribe { state in
      seen.append(state.count)
      if state.count == 1 { store.dispatch(.increment) }
    }
    store.dispatch(.increment)
    #expect(seen.all == [0, 1, 2])
  }
}
