import Comonadic
import ComonadicTesting
import Synchronization
import Testing

enum Tap: Equatable, Sendable {
  case increment
  case work(Int)
  case noop
}

struct Model: Equatable, Sendable {
  var count = 0
  var results: [String] = []
}

typealias TestComponent = StoreComponent<Void, Model, Tap, Model>
typealias TestEffect = StateEffect<Void, Model>

func increment() -> State<Model, Void> { .mutate { $0.count += 1 } }
func record(_ text: String) -> State<Model, Void> { .mutate { $0.results.append(text) } }

/// A component whose `.increment` adds one and whose `.work(n)` runs `work(n)`.
func component(
  _ work: @escaping @Sendable (Int) -> [TestEffect] = { _ in [] }
) -> TestComponent {
  StoreComponent(
    initialState: Model(), environment: (),
    dispatcher: .workflow { input in
      switch input {
      case .increment: [.action(increment())]
      case .work(let n): work(n)
      case .noop: []
      }
    },
    render: { model, _ in model })
}

@Suite struct RuntimeContract {
  @Test func aComponentShowsItsInitialStateAndRunsNothingBeforeAnInput() async {
    let started = Atomic(0)
    let component = component { _ in
      [.perform { _, _ in started.add(1, ordering: .relaxed) }]
    }
    let views = Recorder<Model>()
    component.subscribe { views.append($0) }
    await component.idle()
    #expect(views.all == [Model()])
    #expect(started.load(ordering: .relaxed) == 0)
  }

  @Test func aChainOfOneHundredThousandSynchronousInputsRunsWithoutNesting() async {
    let component = component()
    component.onEffect { model in
      if model.count < 100_000 { component.send(.increment) }
    }
    component.send(.increment)
    // The sender handles a turn; the explorer's own task the rest (R6, progress).
    await component.idle()
    #expect(component.state.count == 100_000)
    component.stop()  // releases the hook, which keeps the component
  }

  @Test func anInputSentWhileOneIsHandledIsQueuedBehindItsWholeWorkflow() {
    let seen = Recorder<String>()
    let component = StoreComponent<Void, Model, Tap, Model>(
      initialState: Model(), environment: (),
      dispatcher: .workflow { input in
        guard case .work(let n) = input else { return [] }
        return [
          .perform { _, _ in seen.append("first \(n)") },
          .action(record("\(n)")),
          .perform { _, model in seen.append("second \(n) sees \(model.results)") },
        ]
      },
      render: { model, _ in model })
    component.onEffect { model in
      if model.results == ["1"] { component.send(.work(2)) }
    }
    component.send(.work(1))
    #expect(
      seen.all == [
        "first 1", "second 1 sees [\"1\"]", "first 2", "second 2 sees [\"1\", \"2\"]",
      ])
    component.stop()
  }

  @Test func eightThreadsSendingAtOnceLoseNothing() async {
    let component = component()
    let last = Atomic(0)
    let outOfOrder = Atomic(0)
    component.subscribe { model in
      // Observers are called one at a time, so this read-then-write is not raced.
      if model.count <= last.load(ordering: .relaxed), model.count > 0 {
        outOfOrder.add(1, ordering: .relaxed)
      }
      last.store(model.count, ordering: .relaxed)
    }
    await onThreads(8) {
      for _ in 0..<sendsPerThread { component.send(.increment) }
    }
    await component.idle()
    #expect(component.state.count == 8 * sendsPerThread)
    #expect(last.load(ordering: .relaxed) == 8 * sendsPerThread)
    #expect(outOfOrder.load(ordering: .relaxed) == 0)
  }

  @Test func aResultIsAppliedToTheStateCurrentWhenItArrives() async {
    let gate = Gate()
    let component = component { _ in
      [
        .task { _, started in
          await gate.wait()
          return .mutate { $0.results.append("started at \(started.count), now \($0.count)") }
        }
      ]
    }
    component.send(.work(1))
    component.send(.increment)
    component.send(.increment)
    gate.open()
    await component.idle()
    #expect(component.state.results == ["started at 0, now 2"])
  }

  @Test func aSupersededResultIsNeverAppliedEvenWhenItsEffectIgnoresCancellation() async {
    let first = Gate()
    let second = Gate()
    let sawCancellation = Atomic(false)
    let component = component { n in
      [
        .task(id: "work") { _, _ in
          await (n == 1 ? first : second).wait()
          if n == 1 { sawCancellation.store(Task.isCancelled, ordering: .relaxed) }
          return record("run \(n)")
        }
      ]
    }
    component.send(.work(1))
    await eventually { first.waiting == 1 }
    component.send(.work(2))
    first.open()
    second.open()
    await component.idle()
    #expect(component.state.results == ["run 2"])
    let cancelled = sawCancellation.load(ordering: .relaxed)
    #expect(cancelled)
  }

  @Test func aCancelStepDropsTheRunAndItsResult() async {
    let gate = Gate()
    let component = component { n in
      n == 1
        ? [
          .task(id: "work") { _, _ in
            await gate.wait()
            return record("late")
          }
        ]
        : [.cancel(id: "work")]
    }
    component.send(.work(1))
    await eventually { gate.waiting == 1 }
    component.send(.work(2))
    await component.idle()  // the cancelled run no longer counts
    gate.open()
    await Task.yield()
    await component.idle()
    #expect(component.state.results == [])
  }

  @Test func enqueuedRunsUnderOneIdGoOneAtATimeInOrder() async {
    let gates = (0..<3).map { _ in Gate() }
    let started = Recorder<Int>()
    let component = component { n in
      [
        .task(id: "save", whenRunning: .enqueue) { _, model in
          started.append(n)
          await gates[n].wait()
          return record("saved \(n) at \(model.count)")
        }
      ]
    }
    component.send(.work(0))
    component.send(.increment)
    component.send(.work(1))
    component.send(.increment)
    component.send(.work(2))
    await eventually { gates[0].waiting == 1 }
    gates[2].open()
    gates[1].open()
    #expect(started.all == [0])
    gates[0].open()
    await component.idle()
    #expect(started.all == [0, 1, 2])
    // Each run sees the state its step was reached with, not the one it started in.
    #expect(component.state.results == ["saved 0 at 0", "saved 1 at 1", "saved 2 at 2"])
  }

  @Test func aResultArrivingAfterStopIsNeverApplied() async {
    let gate = Gate()
    let component = component { _ in
      [
        .task { _, _ in
          await gate.wait()
          return record("late")
        }
      ]
    }
    let views = Recorder<Model>()
    component.subscribe { views.append($0) }
    component.send(.increment)
    component.send(.work(1))
    await eventually { gate.waiting == 1 }
    component.stop()
    gate.open()
    await component.idle()
    component.send(.increment)
    #expect(component.state == Model(count: 1))
    #expect(views.all == [Model(), Model(count: 1)])
  }

  @Test(arguments: [false, true])
  func aReleasedComponentWithARunningTimerIsFreed(stoppedFirst: Bool) async {
    weak var weakComponent: TestComponent?
    let ticking = Gate()
    do {
      let component = component { _ in
        [
          .stream(id: "timer") { _, _, send in
            ticking.open()
            for await _ in AsyncStream<Void>.never { send(increment()) }
          }
        ]
      }
      component.send(.work(1))
      await ticking.wait()
      if stoppedFirst { component.stop() }
      weakComponent = component
    }
    #expect(weakComponent == nil)
  }

  @Test func idleWaitsForTasksButNotForStreams() async {
    let gate = Gate()
    let component = component { n in
      n == 1
        ? [.stream(id: "timer") { _, _, _ in for await _ in AsyncStream<Void>.never {} }]
        : [
          .task { _, _ in
            await gate.wait()
            return record("done")
          }
        ]
    }
    component.send(.work(1))
    await component.idle()  // only the stream runs: idle at once
    component.send(.work(2))
    await eventually { gate.waiting == 1 }
    let waiting = Task { await component.idle() }
    gate.open()
    await waiting.value
    #expect(component.state.results == ["done"])
    component.stop()
  }

  @Test func aStreamsActionsAreAppliedInTheOrderSent() async {
    let component = component { _ in
      [
        .stream(id: "numbers") { _, _, send in
          for n in 1...100 { send(record("\(n)")) }
        }
      ]
    }
    component.send(.work(1))
    await eventually { component.state.results.count == 100 }
    #expect(component.state.results == (1...100).map(String.init))
  }

  @Test func aThrownErrorBecomesState() async {
    struct Broken: Error {}
    let component = component { _ in
      [.task({ _, _ in throw Broken() }, catch: { error in record("failed: \(error is Broken)") })]
    }
    component.send(.work(1))
    await component.idle()
    #expect(component.state.results == ["failed: true"])
  }

  @Test func aReadStepDecidesTheRestFromTheStateItsPredecessorsMade() async {
    let component = component { n in
      [
        .action(.mutate { $0.count += n }),
        .read { model in model.count > 1 ? [.action(record("big \(model.count)"))] : [] },
      ]
    }
    component.send(.work(1))
    component.send(.work(1))
    #expect(component.state.results == ["big 2"])
  }

  @Test func noResultLandsAndNoStepRunsAfterStop() async {
    // On the harness's executor, so `renders` returns only once the task has finished.
    let gate = Gate()
    let performed = Recorder<String>()
    let harness = ComponentHarness(
      initialState: Model(), environment: (),
      dispatcher: StateDispatcher<Void, Model, Tap>.workflow { _ in
        [
          .task { _, _ in
            await gate.wait()
            return record("late")
          },
          .perform { _, _ in performed.append("after the task") },
        ]
      },
      render: { model, _ in model })
    await harness.send(.work(1), renders: [])
    harness.component.stop()
    gate.open()
    await harness.renders([])
    #expect(harness.state == Model())
    #expect(performed.all == [])
  }

  @Test func eachStepOfAWorkflowIsAVisibleUpdate() async {
    let component = component { _ in
      [
        .action(record("a")),
        .task { _, _ in record("b") },
        .action(record("c")),
      ]
    }
    let views = Recorder<[String]>()
    component.subscribe { views.append($0.results) }
    component.send(.work(1))
    await component.idle()
    #expect(views.all == [[], ["a"], ["a", "b"], ["a", "b", "c"]])
  }
}

@Suite struct Observation {
  @Test func anObserverGetsTheCurrentViewFirstThenEveryChange() {
    let component = component()
    component.send(.increment)
    let seen = Recorder<Int>()
    component.subscribe { seen.append($0.count) }
    component.send(.increment)
    component.send(.noop)
    component.send(.increment)
    #expect(seen.all == [1, 2, 3])
  }

  @Test func anUnchangedStateNotifiesNoObserver() {
    let component = StoreComponent<Void, Model, Tap, Model>(
      initialState: Model(), environment: (),
      dispatcher: .pure { _ in .none }, render: { model, _ in model })
    let seen = Recorder<Int>()
    component.subscribe { seen.append($0.count) }
    component.send(.increment)
    #expect(seen.all == [0])
  }

  @Test func aCancelledSubscriptionIsNotCalledAgain() {
    let component = component()
    let seen = Recorder<Int>()
    let subscription = component.subscribe { seen.append($0.count) }
    component.send(.increment)
    subscription.cancel()
    component.send(.increment)
    #expect(seen.all == [0, 1])
  }

  @Test func observersOfChangedViewsAndEffectHooksAreCalledInTheOrderTheyJoined() {
    let component = component()
    let calls = Recorder<String>()
    component.onEffect { calls.append("hook 1 sees \($0.count)") }
    component.subscribe { calls.append("view A \($0.count)") }
    component.onEffect { calls.append("hook 2 sees \($0.count)") }
    component.subscribe { calls.append("view B \($0.count)") }
    component.send(.increment)
    // The two view observers are told together, where the first one joined.
    #expect(
      calls.all == [
        "view A 0", "view B 0", "hook 1 sees 1", "view A 1", "view B 1", "hook 2 sees 1",
      ])
  }

  @Test func aViewObserverJoiningAfterAllLeftComparesWithTheViewItGot() {
    let component = component()
    let first = Recorder<Int>()
    let subscription = component.subscribe { first.append($0.count) }
    subscription.cancel()
    // Changes while nobody watches views, then one that ends where the last seen view was.
    component.send(.increment)
    let second = Recorder<Int>()
    component.subscribe { second.append($0.count) }
    component.send(.noop)
    component.send(.increment)
    #expect(first.all == [0])
    #expect(second.all == [1, 2])
  }

  @Test func theEffectHookSeesTheNewStateAfterEveryAction() {
    let component = component()
    let seen = Recorder<Int>()
    component.onEffect { seen.append($0.count) }
    component.send(.increment)
    component.send(.increment)
    #expect(seen.all == [1, 2])
  }

  @Test func aViewsHandleSendsToTheComponent() {
    struct Button: Sendable {
      let count: Int
      let tap: @Sendable (Tap) -> Void
    }
    let component = StoreComponent<Void, Model, Tap, Button>(
      initialState: Model(), environment: (),
      dispatcher: .pure { _ in increment() },
      render: { model, handle in Button(count: model.count, tap: handle) })
    component.view.tap(.increment)
    component.view.tap(.increment)
    #expect(component.view.count == 2)
    #expect(component.space.peek(Model(count: 7)).count == 7)
  }
}

/// An executor that holds the jobs it is given until the test runs them: how a test decides
/// when a task begins.
final class HeldExecutor: TaskExecutor, @unchecked Sendable {
  // @unchecked: the held jobs are guarded by the lock; a job runs on the thread that calls
  // `runAll()`.
  private let jobs = Lock<[UnownedJob]>([])

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    jobs.withLock { $0.append(job) }
  }

  /// How many jobs wait.
  var held: Int { jobs.withLock { $0.count } }

  /// Runs the held jobs, and the jobs they enqueue, until none is left.
  func runAll() {
    while let job = jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
      job.runSynchronously(on: asUnownedTaskExecutor())
    }
  }
}

@Suite struct WorkBeginsWhenStarted {
  /// A component whose work `n` records its call, waits for its executor once and then records
  /// whether it was cancelled meanwhile.
  func component(calls: Recorder<String>, executor: HeldExecutor) -> TestComponent {
    StoreComponent(
      initialState: Model(), environment: (),
      dispatcher: .workflow { input in
        guard case .work(let n) = input else { return [] }
        return [
          .task(id: "work") { _, _ in
            calls.append("call \(n)")
            await Task.yield()  // goes on when the test runs the executor's jobs
            if Task.isCancelled { calls.append("cancelled \(n)") }
            return record("run \(n)")
          }
        ]
      }, executor: executor,
      render: { model, _ in model })
  }

  // Work begins when its step starts it, in order, before `send` returns, whatever its
  // executor does; superseded afterwards, it is cancelled and its result dropped (R5).
  @Test func workIsCalledInOrderThenTheSupersededOneCancelled() async {
    let calls = Recorder<String>()
    let executor = HeldExecutor()
    let component = component(calls: calls, executor: executor)
    component.send(.work(1))
    component.send(.work(2))
    #expect(calls.all == ["call 1", "call 2"])
    #expect(executor.held == 2)
    executor.runAll()
    await component.idle()
    #expect(calls.all == ["call 1", "call 2", "cancelled 1"])
    #expect(component.state.results == ["run 2"])
  }

  // R6: work that began before stop is cancelled by it, and its result is never applied.
  @Test func afterStopBegunWorkIsCancelledAndItsResultDropped() async {
    let calls = Recorder<String>()
    let executor = HeldExecutor()
    let component = component(calls: calls, executor: executor)
    component.send(.work(1))
    component.stop()
    executor.runAll()
    #expect(calls.all == ["call 1", "cancelled 1"])
    #expect(component.state.results == [])
  }
}
