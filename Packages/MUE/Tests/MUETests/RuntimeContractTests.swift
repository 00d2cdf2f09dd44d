import MUE
import MUETesting
import Testing

@Suite struct RuntimeContract {
  // R1
  @Test func nothingRunsBeforeStartAndFirstEffectsStartOnce() async {
    let effects = TallyEffects()
    let loop = makeLoop(TallyUpdate(initialEffects: [.echo(7)]), effects: effects)
    loop.send(.increment)
    loop.send(.echo(1))
    #expect(loop.state == Tally())
    #expect(effects.calls.all.isEmpty)

    loop.start()
    loop.start()
    await loop.idle()
    #expect(effects.calls.all == ["echo(7)", "echo(1)"])
    #expect(loop.state.count == 1)
    #expect(loop.state.results == [7, 1])
  }

  // The effects of one processed event start before those of the next, on the global executor
  // too: each handler is entered when its effect starts, not when a thread picks its task up.
  @Test func effectsReachTheHandlerInTheOrderTheyWereStarted() async {
    let effects = TallyEffects()
    let loop = makeLoop(effects: effects)
    loop.start()
    for value in 1...200 { loop.send(.echo(value)) }
    #expect(effects.calls.all == (1...200).map { "echo(\($0))" })
    await loop.idle()
    #expect(loop.state.results == Array(1...200))
  }

  // R2
  @Test func oneHundredThousandChainedEventsRunQueuedNotNested() async {
    let loop = makeLoop()
    let depth = Recorder<Int>()
    let inObserver = Lock(false)
    loop.observe { state in
      depth.append(inObserver.withLock { $0 ? 1 : 0 })
      if state.count < 100_000 {
        inObserver.withLock { $0 = true }
        loop.send(.increment)
        inObserver.withLock { $0 = false }
      }
    }
    loop.start()  // the observer's first call (count 0) starts the chain
    await loop.idle()
    #expect(loop.state.count == 100_000)
    #expect(depth.all.allSatisfy { $0 == 0 })
  }

  // R2, R4
  @Test func eachUpdateStartsSeveralEffectsAndResultsArriveInOrder() async {
    let loop = makeLoop()
    loop.start()
    loop.send(.echoBoth(1, 2))
    await loop.idle()
    loop.send(.stream(1_000))
    // A stream's handler is long-lived (a timer, say): idle does not wait for it.
    await eventually { loop.state.results.count == 1_002 }
    #expect(loop.state.results.prefix(2).sorted() == [1, 2])
    #expect(Array(loop.state.results.dropFirst(2)) == Array(1...1_000))
  }

  // R2: a chain through effects, each result starting the next effect.
  @Test func oneHundredThousandResultsChainedThroughEffects() async {
    struct Chain: Update {
      func handle(event: Int, _ state: Int) -> UpdateResult<Int, TallyEffect> {
        .dispatchEffects(.echo(event))
      }
      func handle(result: TallyEffect.Result, _ state: Int) -> UpdateResult<Int, TallyEffect> {
        guard state + 1 < 100_000 else { return .newState(state: state + 1) }
        return .dispatchEffect(state: state + 1, effect: .echo(state + 1))
      }
    }
    let loop = Loop(update: Chain(), effectHandler: TallyEffects(), state: 0)
    loop.start()
    loop.send(0)
    await loop.idle()
    #expect(loop.state == 100_000)
  }

  // R3
  @Test func eightThreadsSendingAtOnceLoseNothing() async {
    let loop = makeLoop()
    let seen = Recorder<Int>()
    loop.observe { seen.append($0.count) }
    loop.start()
    await onThreads(8) {
      for _ in 0..<sendsPerThread { loop.send(.increment) }
    }
    await loop.idle()
    #expect(loop.state.count == 8 * sendsPerThread)
    // Published in order, each state once.
    #expect(seen.all == Array(0...8 * sendsPerThread))
  }

  // R4
  @Test func aResultIsAppliedToTheStateWhenItArrives() async {
    let effects = TallyEffects()
    let loop = makeLoop(effects: effects)
    loop.start()
    loop.send(.wait(5))
    await eventually { effects.gate.waiting == 1 }
    loop.send(.increment)
    loop.send(.increment)
    effects.gate.open()
    await loop.idle()
    #expect(loop.state == Tally(count: 2, results: [5]))
  }

  // R5
  @Test func aSupersededEffectIsCancelledAndItsLateResultDropped() async {
    let effects = TallyEffects()
    let loop = makeLoop(effects: effects)
    loop.start()
    loop.send(.wait(1))
    await eventually { effects.gate.waiting == 1 }
    loop.send(.wait(2))
    await eventually { effects.gate.waiting == 2 }
    #expect(effects.calls.all == ["wait(1)", "cancelled 1", "wait(2)"])
    effects.gate.open()  // both return; wait(1) ignored its cancellation
    await loop.idle()
    #expect(loop.state.results == [2])
  }

  // R5
  @Test func aCancelledEffectsResultIsDropped() async {
    let effects = TallyEffects()
    let loop = makeLoop(effects: effects)
    loop.start()
    loop.send(.wait(1))
    await eventually { effects.gate.waiting == 1 }
    loop.send(.cancelWait)
    effects.gate.open()
    await loop.idle()
    await eventually { effects.calls.all.contains("cancelled 1") }
    #expect(loop.state.results.isEmpty)
  }

  // R6
  @Test func afterStopNothingIsAppliedOrObserved() async {
    let effects = TallyEffects()
    let loop = makeLoop(effects: effects)
    let seen = Recorder<Tally>()
    loop.observe { seen.append($0) }
    loop.start()
    loop.send(.wait(1))
    await eventually { effects.gate.waiting == 1 }
    loop.stop()
    let seenAtStop = seen.all
    loop.send(.increment)
    effects.gate.open()
    await loop.idle()
    await eventually { effects.calls.all.contains("cancelled 1") }
    #expect(loop.state == Tally())
    #expect(seen.all == seenAtStop)
  }

  // R6
  @Test(arguments: [false, true])
  func aReleasedLoopWithARunningTimerIsFreed(stoppedFirst: Bool) async {
    weak var weakLoop: TallyLoop?
    let (ticks, tick) = AsyncStream.makeStream(of: Void.self)
    do {
      let loop = makeLoop(effects: TallyEffects(ticks: ticks))
      weakLoop = loop
      loop.start()
      loop.send(.startTimer)
      tick.yield()
      await eventually { loop.state.ticks == 1 }
      if stoppedFirst { loop.stop() }
    }
    await eventually { weakLoop == nil }
    #expect(weakLoop == nil)
  }

  // R7
  @Test func idleWaitsForFiniteEffectsButNotTimers() async {
    let effects = TallyEffects()
    let loop = makeLoop(effects: effects)
    loop.start()
    loop.send(.startTimer)
    await loop.idle()  // the timer alone keeps nothing busy
    loop.send(.wait(3))
    let done = Lock(false)
    let waiter = Task {
      await loop.idle()
      done.withLock { $0 = true }
    }
    await eventually { effects.gate.waiting == 1 }
    #expect(!done.withLock { $0 })
    effects.gate.open()
    await waiter.value
    #expect(loop.state.results == [3])
  }

  // R9
  @Test func aFailureBecomesAResultTheUpdateHandles() async {
    let loop = makeLoop()
    loop.start()
    loop.send(.fail)
    await loop.idle()
    #expect(loop.state.failure == "disk full")
  }

  // R10
  @Test func observersGetTheCurrentStateThenOnlyChanges() async {
    let loop = makeLoop(state: Tally(count: 4))
    loop.start()
    let seen = Recorder<Int>()
    let subscription = loop.observe { seen.append($0.count) }
    loop.send(.touch)
    loop.send(.increment)
    loop.send(.touch)
    await loop.idle()
    subscription.cancel()
    loop.send(.increment)
    await loop.idle()
    #expect(seen.all == [4, 5])
  }

  @Test func aTransformedObserverHearsOnlyWhenItsValueChanges() async {
    let loop = makeLoop()
    loop.start()
    let seen = Recorder<Bool>()
    loop.observe({ $0.count >= 2 }, { seen.append($0) })
    for _ in 0..<4 { loop.send(.increment) }
    await loop.idle()
    #expect(seen.all == [false, true])
  }

  @Test func smartCopyChangesFieldsAndClearsOptionals() {
    let failed = Tally(count: 1, failure: "disk full")
    #expect(failed.copy { $0.count = 2 } == Tally(count: 2, failure: "disk full"))
    #expect(failed.copy(\.failure, nil) == Tally(count: 1))
    #expect(failed.failure == "disk full")
  }
}
