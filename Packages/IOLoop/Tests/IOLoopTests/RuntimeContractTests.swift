import IOLoop
import IOLoopTesting
import Testing

@Suite struct RuntimeContract {
  // R1
  @Test func nothingIsHandledBeforeStartAndStartHappensOnce() async {
    let calls = Recorder<String>()
    let main = makeMain(calls: calls)
    main.send(IOInput(.increment, nil))
    #expect(calls.all.isEmpty)
    #expect(main.state.count == 0)
    main.start()
    main.start()
    await main.idle()
    #expect(calls.all == ["render(0)", "render(1)"])
  }

  // R2
  @Test func oneHundredThousandInputsChainedByAHandlerAreQueuedNotNested() async {
    let calls = Recorder<String>()
    let depth = Lock(0)
    let maximum = Lock(0)
    let view = ViewHandler(calls: Recorder()) { count, context in
      let now = depth.withLock { depth in
        depth += 1
        return depth
      }
      maximum.withLock { $0 = max($0, now) }
      if count < 100_000 { context.send(.increment) }
      depth.withLock { $0 -= 1 }
    }
    let main = makeMain(view: view, calls: calls)
    main.start()
    await main.idle()
    #expect(main.state.count == 100_000)
    #expect(maximum.withLock { $0 } == 1)
  }

  // R2: outputs of one step reach the handlers in order: IO types in order, lists in order.
  @Test func outputsAreHandledInADefinedOrder() async {
    let calls = Recorder<String>()
    let main = makeMain(calls: calls)
    main.start()
    main.send(IOInput(.echoBoth(1, 2), nil))
    await main.idle()
    #expect(calls.all == ["render(0)", "render(0)", "echo(1)", "echo(2)"])
    #expect(main.state.results == [1, 2])
  }

  // R3
  @Test func eightThreadsSendingAtOnceLoseNothing() async {
    let main = makeMain()
    main.start()
    await onThreads(8) {
      for _ in 0..<sendsPerThread { main.send(IOInput(.incrementQuietly, nil)) }
    }
    await main.idle()
    #expect(main.state.count == 8 * sendsPerThread)
  }

  // R3, R10: with a render per input, every state is rendered once, in order.
  @Test func concurrentInputsAreRenderedOnceEachInOrder() async {
    let view = ViewHandler(calls: Recorder())
    let main = makeMain(view: view)
    main.start()
    await onThreads(8) {
      for _ in 0..<2_000 { main.send(IOInput(.increment, nil)) }
    }
    await main.idle()
    #expect(main.state.count == 16_000)
    #expect(view.renders.all == Array(0...16_000))
  }

  // R4
  @Test func anInputIsAppliedToTheStateWhenItArrives() async {
    let (main, work, _) = startedWithWork()
    main.send(IOInput(.wait(5), nil))
    await eventually { work.gate.waiting == 1 }
    main.send(IOInput(.increment, nil))
    work.gate.open()
    await main.idle()
    #expect(main.state.count == 1)
    #expect(main.state.results == [5])
  }

  // R5
  @Test func supersededWorkIsCancelledAndWhatItSendsLaterDropped() async {
    let (main, work, calls) = startedWithWork()
    main.send(IOInput(.wait(1), nil))
    await eventually { work.gate.waiting == 1 }
    main.send(IOInput(.wait(2), nil))
    await eventually { work.gate.waiting == 2 }
    #expect(calls.all.contains("cancelled 1"))
    work.gate.open()
    await main.idle()
    #expect(main.state.results == [2])
  }

  // R5
  @Test func cancelledWorkSendsNothing() async {
    let (main, work, calls) = startedWithWork()
    main.send(IOInput(.wait(1), nil))
    await eventually { work.gate.waiting == 1 }
    main.send(IOInput(.cancelWait, nil))
    work.gate.open()
    await main.idle()
    await eventually { calls.all.contains("cancelled 1") }
    #expect(main.state.results.isEmpty)
  }

  // R6
  @Test func afterStopNothingIsHandledOrApplied() async {
    let (main, work, calls) = startedWithWork()
    main.send(IOInput(.wait(1), nil))
    await eventually { work.gate.waiting == 1 }
    let callsBeforeStop = calls.all
    main.stop()
    main.send(IOInput(.increment, nil))
    work.gate.open()
    await main.idle()
    await eventually { calls.all.contains("cancelled 1") }
    #expect(calls.all == callsBeforeStop + ["cancelled 1"])
    #expect(main.state == Tally())
  }

  // R6
  @Test(arguments: [false, true])
  func aReleasedProgramWithARunningTimerIsFreed(stoppedFirst: Bool) async {
    weak var weakMain: TallyMain?
    let (ticks, tick) = AsyncStream.makeStream(of: Void.self)
    do {
      let main = makeMain(work: WorkHandler(calls: Recorder(), ticks: ticks))
      weakMain = main
      main.start()
      main.send(IOInput(.startTimer, nil))
      tick.yield()
      await eventually { main.state.ticks == 1 }
      if stoppedFirst { main.stop() }
    }
    await eventually { weakMain == nil }
    #expect(weakMain == nil)
  }

  // R7
  @Test func idleWaitsForFiniteWorkButNotTimers() async {
    let (main, work, _) = startedWithWork()
    main.send(IOInput(.startTimer, nil))
    await main.idle()
    main.send(IOInput(.wait(3), nil))
    let done = Lock(false)
    let waiter = Task {
      await main.idle()
      done.withLock { $0 = true }
    }
    await eventually { work.gate.waiting == 1 }
    #expect(!done.withLock { $0 })
    work.gate.open()
    await waiter.value
    #expect(main.state.results == [3])
  }

  // R9
  @Test func aFailureBecomesAnInput() async {
    let main = makeMain()
    main.start()
    main.send(IOInput(.fail, nil))
    await main.idle()
    #expect(main.state.failure == "disk full")
  }

  // R10
  @Test func theAppRendersTheCurrentStateThenOnlyChanges() async {
    let view = ViewHandler(calls: Recorder())
    let main = makeMain(view: view)
    main.start()
    main.send(IOInput(.touch, nil))
    main.send(IOInput(.increment, nil))
    main.send(IOInput(.touch, nil))
    await main.idle()
    #expect(view.renders.all == [0, 1])
  }

  // R10, for observers: whole-state observers (one comparison per step for all of them) and a
  // projection's observer each hear the state now, then only changes, in order.
  @Test func observersOfTheWholeStateHearOnlyChangesAlongsideAProjectionsObserver() async {
    let main = makeMain()
    let first = Recorder<Int>()
    let second = Recorder<Int>()
    let ticks = Recorder<Int>()
    main.observe { (state: Tally) in first.append(state.count) }
    main.observe({ $0.ticks }, { ticks.append($0) })
    main.start()
    main.send(IOInput(.touch, nil))
    main.send(IOInput(.increment, nil))
    main.observe { (state: Tally) in second.append(state.count) }
    main.send(IOInput(.touch, nil))
    main.send(IOInput(.incrementQuietly, nil))
    main.send(IOInput(.touch, nil))
    await main.idle()
    #expect(first.all == [0, 1, 2])
    #expect(second.all == [1, 2])
    #expect(ticks.all == [0])
  }

  // The termination rule.
  @Test func runReturnsTheFinalStateWhenNothingIsLeftToDo() async {
    let main = makeMain()
    main.send(IOInput(.countdown(3), nil))
    let final = await main.run()
    #expect(final.results == [3, 2, 1, 0])
    #expect(final.isCountingDown)
  }

  @Test func aTimerKeepsTheProgramAliveUntilTheAppCancelsIt() async {
    let (ticks, tick) = AsyncStream.makeStream(of: Void.self)
    for _ in 0..<5 { tick.yield() }  // the stream stays open: only cancelling ends the timer
    let main = Main(
      state: Tally(stopAfterTicks: 3), outputs: Tally.Outputs([], [.startTimer]),
      handlers: ViewHandler(calls: Recorder()), WorkHandler(calls: Recorder(), ticks: ticks))
    let final = await main.run()
    #expect(final.ticks == 3)
  }
}
