import Foundation
import LayerCoreTesting
import Testing

@testable import LayerCore

/// The runtime contract R1–R10 of the spec, for a core and its layers.
@Suite struct RuntimeContract {
  @Test func startWiresEveryMachineBeforeTheFirstProcessSoNoStartupEventIsLost() async {
    // Upstream lost the storage's startup event 14 times in 40 runs; here it is queued.
    for _ in 0..<50 {
      let view = ViewMachine()
      let flow = TallyCore(view: view, work: WorkMachine(), load: 5).start()
      #expect(view.renders.all == [nil, 5])
      #expect(flow.state == Counter(count: 5))
      flow.stop()
    }
  }

  @Test func anEventQueuedByWorkThatThenFinishedIsStillReduced() async {
    // Found by the conformance kit: the load's answer waited in the queue while the start
    // phase ran, the load's work ended, and the drain then dropped the event as "not live".
    struct Loader: ChildMachine {
      func process(input: Never?, callback: Handler<Int>) {
        let work = Lock<Handler<Int>?>(nil)
        let sent = DispatchSemaphore(value: 0)
        callback.run { send in
          work.withLock { $0 = send }
          send(7)
          sent.signal()
        }
        sent.wait()
        // Spin (no sleep) until the work is over: its answer is queued behind this call.
        while work.withLock({ $0 })?.isActive != false { sched_yield() }
      }
    }
    struct Loading: Core {
      var layers: [Layer<Int, Int>] { [.producer(~Loader(), mapper: { $0 })] }
      func reduce(state: Int?, event: Int) -> ReducerResult<Int> { .set(event) }
    }
    let flow = Loading().start()
    #expect(flow.state == 7)
  }

  @Test func eventsBeforeTheFirstSetAreReducedAgainstNil() async {
    let view = ViewMachine()
    let flow = TallyCore(view: view, work: WorkMachine(), load: nil).start()
    flow.send(.increment)  // skipped: no state yet
    #expect(flow.state == nil)
    #expect(view.renders.all == [nil])
    flow.send(.loaded(2))
    flow.send(.increment)
    #expect(view.renders.all == [nil, 2, 3])
  }

  @Test func skipBroadcastsNothingAndEverySetReachesEveryLayerInOrder() async {
    let view = ViewMachine()
    let flow = TallyCore(view: view, work: WorkMachine()).start()
    flow.send(.touch)
    flow.send(.increment)
    flow.send(.touch)
    flow.send(.increment)
    #expect(view.renders.all == [nil, 0, 1, 2])
  }

  @Test func oneHundredThousandEventsEmittedInsideProcessAreQueuedNotNested() async {
    let view = ViewMachine { count, callback in
      if count < 100_000 { callback(.increment) }
    }
    let flow = TallyCore(view: view, work: WorkMachine()).start()
    // The starting call handles a turn; the flow's own task the rest (R6, progress).
    await flow.idle()
    #expect(flow.state?.count == 100_000)
    #expect(view.renders.all.count == 100_002)
    #expect(view.maximumDepth.load(ordering: .relaxed) == 1)
  }

  @Test func eightThreadsSendingAtOnceLoseNothing() async {
    let view = ViewMachine()
    let flow = TallyCore(view: view, work: WorkMachine()).start()
    await onThreads(8) {
      for _ in 0..<sendsPerThread { flow.send(.increment) }
    }
    await flow.idle()
    #expect(flow.state?.count == 8 * sendsPerThread)
    let renders = view.renders.all.compactMap { $0 }
    #expect(renders == Array(0...8 * sendsPerThread))
    #expect(view.maximumDepth.load(ordering: .relaxed) == 1)
  }

  @Test func aCoreWithNoLayerThatGetsStatesReducesEverySendFromEightThreads() async {
    // No layer takes states: a send reduces under the lock and is done, with no drain claimed.
    struct Bare: Core {
      var layers: [Layer<Int, Event>] { [] }
      func reduce(state: Int?, event: Event) -> ReducerResult<Int> {
        guard case .increment = event else { return .skip }
        return .set((state ?? 0) + 1)
      }
    }
    let flow = Bare().start()
    await onThreads(8) {
      for _ in 0..<sendsPerThread { flow.send(.increment) }
    }
    await flow.idle()
    #expect(flow.state == 8 * sendsPerThread)
    flow.stop()
    flow.send(.increment)
    #expect(flow.state == 8 * sendsPerThread)
  }

  @Test func eventsFromTheUIOutsideProcessAreReducedInOrder() async {
    let view = ViewMachine()
    let flow = TallyCore(view: view, work: WorkMachine()).start()
    await onThreads(4) {
      for _ in 0..<1_000 { view.emit(.increment) }
    }
    await flow.idle()
    #expect(flow.state?.count == 4_000)
  }

  @Test func aResultIsReducedAgainstTheStateWhenItArrives() async {
    let work = WorkMachine()
    let flow = TallyCore(view: ViewMachine(), work: work).start()
    flow.send(.wait(1))
    for _ in 0..<3 { flow.send(.increment) }
    work.gate.open()
    await flow.idle()
    #expect(flow.state?.count == 3)
    #expect(flow.state?.results == [1])
  }

  @Test func supersededWorkIsCancelledAndItsLateResultDropped() async {
    let work = WorkMachine()
    let flow = TallyCore(view: ViewMachine(), work: work).start()
    flow.send(.wait(1))
    flow.send(.wait(2))  // same id: the first is cancelled, but ignores it
    await eventually { work.gate.waiting == 2 }
    work.gate.open()
    await flow.idle()
    #expect(flow.state?.results == [2])
    #expect(work.calls.all == ["wait(1)", "wait(2)", "cancelled 1"])
  }

  @Test func cancelledWorkNeverDeliversEvenWhenItIgnoresCancellation() async {
    let work = WorkMachine()
    let flow = TallyCore(view: ViewMachine(), work: work).start()
    flow.send(.wait(1))
    flow.send(.cancelWait)
    await eventually { work.gate.waiting == 1 }
    work.gate.open()
    await flow.idle()
    #expect(flow.state?.results == [])
    #expect(work.calls.all == ["wait(1)", "cancelled 1"])
  }

  @Test func afterStopNothingIsReducedAndNoMachineIsCalled() async {
    let view = ViewMachine()
    let work = WorkMachine()
    let flow = TallyCore(view: view, work: work).start()
    flow.send(.wait(1))
    await eventually { work.gate.waiting == 1 }
    flow.stop()
    #expect(work.calls.all == ["wait(1)", "cancelled 1"])
    work.gate.open()
    flow.send(.increment)
    view.emit(.increment)
    await flow.idle()
    #expect(flow.state == Counter(count: 0, request: Request(id: 1, value: 1), requests: 1))
    #expect(view.renders.all == [nil, 0, 0])
    #expect(flow.isStopped)
  }

  @Test(arguments: [false, true])
  func aReleasedFlowWithARunningTimerIsFreed(stopped: Bool) async {
    let (ticks, tick) = AsyncStream.makeStream(of: Void.self)
    weak var released: Flow<TallyCore>?
    do {
      let flow = TallyCore(view: ViewMachine(), work: WorkMachine(ticks: ticks)).start()
      flow.send(.startTimer)
      tick.yield()
      await eventually { flow.state?.ticks == 1 }
      if stopped { flow.stop() }
      released = flow
    }
    #expect(released == nil)
    tick.finish()
  }

  @Test func aMachineThatKeepsItsCallbackIsFreedWithTheFlow() async {
    // simprokcore's idiom: the screen keeps its callback for its buttons, and its layer keeps the
    // screen. Found by the benchmark's lifecycle workload: the callback held the layer's event
    // mapper, which held the screen, so each released app leaked its screen.
    final class Button: ChildMachine {
      let callback = Lock<Handler<Event>?>(nil)
      func process(input: Int?, callback: Handler<Event>) {
        if input == nil { self.callback.withLock { $0 = callback } }
      }
    }
    struct ButtonLayer: LayerType {
      let button: Button
      var machine: Machine<Int, Event> { ~button }
      func map(state: Counter) -> Int { state.count }
      func map(event: Event) -> Event { event }
    }
    struct App: Core {
      let button: Button
      var layers: [Layer<Counter, Event>] { [~ButtonLayer(button: button)] }
      func reduce(state: Counter?, event: Event) -> ReducerResult<Counter> {
        .set(Counter(count: (state?.count ?? 0) + 1))
      }
    }
    weak var releasedButton: Button?
    weak var releasedFlow: Flow<App>?
    do {
      let button = Button()
      let flow = App(button: button).start()
      button.callback.withLock { $0 }?(.increment)
      #expect(flow.state?.count == 1)
      (releasedButton, releasedFlow) = (button, flow)
    }
    #expect(releasedFlow == nil)
    #expect(releasedButton == nil)
  }

  @Test func idleIgnoresTimersAndWaitsForFiniteWork() async {
    let (ticks, tick) = AsyncStream.makeStream(of: Void.self)
    let work = WorkMachine(ticks: ticks)
    let flow = TallyCore(view: ViewMachine(), work: work).start()
    flow.send(.startTimer)
    await flow.idle()  // the timer waits: idle anyway
    flow.send(.wait(7))
    work.gate.open()
    await flow.idle()  // returns only once the wait's result is reduced
    #expect(flow.state?.results == [7])
    tick.yield()
    await eventually { flow.state?.ticks == 1 }
    flow.send(.stopTimer)
    tick.yield()
    await flow.idle()
    #expect(flow.state?.ticks == 1)
    flow.stop()
  }

  @Test func aFailureBecomesAnEventTheReducerHandles() async {
    let flow = TallyCore(view: ViewMachine(), work: WorkMachine()).start()
    flow.send(.fail)
    await flow.idle()
    #expect(flow.state?.failure == "disk full")
  }
}
