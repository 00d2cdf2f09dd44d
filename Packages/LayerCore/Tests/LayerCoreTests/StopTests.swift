import Foundation
import Synchronization
import Testing

@testable import LayerCore
@testable import LayerCoreTesting

/// R6 in the interleavings that matter, made deterministic with semaphores: no sleeps.
@Suite(.serialized, .timeLimit(.minutes(1))) struct Stopping {
  @Test func stopWaitsForALayerDeliveryInProgressOnAnotherThread() async {
    let events = Recorder<String>()
    let entered = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let flow = StopCore(
      first: ObserverMachine { state in
        guard state.count == 1 else { return }
        events.append("layer began")
        entered.signal()
        release.wait()
        events.append("layer ended")
      }
    ).start()
    Thread { flow.send(.increment) }.start()
    await signalled(entered)
    await stopOnAnotherThread(flow, while: release, events: events)
    flow.send(.increment)
    #expect(events.all == ["layer began", "layer ended", "stop returned"])
    #expect(flow.state?.count == 1)
  }

  @Test func stopWaitsForAMainActorMachinesCallInProgress() async {
    // A machine on `.main` is called from a task of its mailbox, outside the flow's drain: the
    // call is a section of the flow's gate all the same (R6).
    let events = Recorder<String>()
    let entered = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let flow = MainActorCounter(
      machine: MainActorBlocker(events: events, entered: entered, release: release)
    ).start()
    flow.send(1)
    await signalled(entered)
    await stopOnAnotherThread(flow, while: release, events: events)
    #expect(events.all == ["call began", "call ended", "stop returned"])
  }

  @Test func aSendReturnsAfterOneTurnWhileALayerKeepsSending() async {
    // A storm: every change sends another increment, so the queue is never empty. The sender
    // handles one turn and returns; the flow's own task handles the rest (R6).
    let flowBox = Holder<Flow<StopCore>>(nil)
    let storm = SendStorm(until: 4 * messagesPerTurn)
    let flow = StopCore(
      first: ObserverMachine { state in
        storm.observe(state.count) { flowBox.value?.send(.increment) }
      },
      second: ObserverMachine { _ in }
    ).start()
    flowBox.value = flow
    await storm.send { flow.send(.increment) }
    #expect(storm.handledBySender <= messagesPerTurn + 1)
    await storm.reached()
    flow.stop()
  }

  @Test func stopFromInsideALayerReachesNoLaterLayer() {
    let flowBox = Holder<Flow<StopCore>>(nil)
    let later = Recorder<Int>()
    let flow = StopCore(
      first: ObserverMachine { state in
        if state.count == 1 { flowBox.value?.stop() }
      },
      second: ObserverMachine { state in later.append(state.count) }
    ).start()
    flowBox.value = flow
    flow.send(.increment)
    flow.send(.increment)
    #expect(later.all == [0])
    #expect(flow.state?.count == 1)
    flowBox.value = nil
  }

  @Test func workWrappedInWhileRunningNeverBeginsAfterStop() async {
    let saving = SavingMachine()
    let flow = StopCore(first: ObserverMachine { _ in }, work: saving.machine).start()
    flow.send(.wait(1))
    await eventually { saving.gate.waiting == 1 }
    flow.stop()
    saving.gate.open()
    await saving.finished.wait()
    #expect(saving.began.all.isEmpty)
  }

  @Test func releasingTheFlowWhileWorkDeliversDropsWhatIsQueued() async {
    let seen = Recorder<Int>()
    let released = Atomic(false)
    let work = WorkMachine()
    let holder = Holder<Flow<StopCore>>(nil)
    holder.value = StopCore(
      first: ObserverMachine { state in
        seen.append(state.count)
        guard state.results == [7] else { return }
        // On the work's task, inside its delivery: queue five, then drop the last reference.
        for _ in 0..<5 { holder.value?.send(.increment) }
        holder.value = nil
        released.store(true, ordering: .sequentiallyConsistent)
      }, work: work.machine
    ).start()
    let runtime = holder.value!.runtime
    holder.value?.send(.wait(7))
    await eventually { work.gate.waiting == 1 }
    work.gate.open()
    await eventually { released.load(ordering: .sequentiallyConsistent) }
    #expect(runtime.gate.isStopped)
    #expect(runtime.state?.count == 0)
    #expect(seen.all == [0, 0, 0])
  }

}

/// A core whose state is set at start: an observer layer, then another observer, then a work
/// machine, each optional but the first.
struct StopCore: Core {
  let first: ObserverMachine
  var second: ObserverMachine?
  var work: Machine<WorkInput, Event>?

  var layers: [Layer<Counter, Event>] {
    var layers: [Layer<Counter, Event>] = [
      .layer(first.machine, stateMapper: { $0 }, eventMapper: { $0 }),
      .producer(StorageMachine(value: 0).machine, mapper: { .loaded($0) }),
    ]
    if let second {
      layers.append(.layer(second.machine, stateMapper: { $0 }, eventMapper: { $0 }))
    }
    if let work { layers.append(.layer(work, stateMapper: WorkInput.init, eventMapper: { $0 })) }
    return layers
  }

  func reduce(state: Counter?, event: Event) -> ReducerResult<Counter> {
    TallyCore(view: ViewMachine(), work: WorkMachine()).reduce(state: state, event: event)
  }
}

/// Calls `body` with every state it is given.
struct ObserverMachine: ChildMachine {
  let body: @Sendable (Counter) -> Void
  init(_ body: @escaping @Sendable (Counter) -> Void) { self.body = body }

  func process(input: Counter?, callback: Handler<Event>) {
    if let input { body(input) }
  }
}

/// Starts work for a request that waits on `gate` (ignoring cancellation), then saves and logs
/// through `WhileRunning`.
final class SavingMachine: ChildMachine {
  let gate = Gate()
  let finished = Gate()
  let began = Recorder<String>()
  private let started = Atomic(false)

  func process(input: WorkInput?, callback: Handler<Event>) {
    guard input?.request != nil, !started.exchange(true, ordering: .relaxed) else { return }
    let (gate, finished, began) = (gate, finished, began)
    callback.run { _ in
      await gate.wait()
      _ = try? await WhileRunning.call { began.append("save") }
      WhileRunning.perform { began.append("log") }
      finished.open()
    }
  }
}

/// A reference another thread can drop.
final class Holder<Value: AnyObject>: @unchecked Sendable {
  // @unchecked: set before the runtime runs, then read and cleared only by the observer.
  var value: Value?
  init(_ value: Value?) { self.value = value }
}

/// Waits for `semaphore` without blocking a thread of the cooperative pool: the observer that
/// signals it may need one.
/// Stops `flow` on another thread while a call it began waits for `release`: checks that
/// `stop()` has not returned before the call is released, then releases it and waits for
/// `stop()` to return ("stop returned" in `events`).
func stopOnAnotherThread<C: Core>(
  _ flow: Flow<C>, while release: DispatchSemaphore, events: Recorder<String>,
  sourceLocation: SourceLocation = #_sourceLocation
) async {
  let stopped = DispatchSemaphore(value: 0)
  Thread {
    flow.stop()
    events.append("stop returned")
    stopped.signal()
  }.start()
  await eventually { flow.runtime.gate.isStopped }
  #expect(!events.all.contains("stop returned"), sourceLocation: sourceLocation)
  release.signal()
  await signalled(stopped)
}

func signalled(_ semaphore: DispatchSemaphore) async {
  while semaphore.wait(timeout: .now()) == .timedOut { await Task.yield() }
}

/// A count whose one layer is a machine on the main actor.
struct MainActorCounter: Core {
  let machine: MainActorBlocker

  var layers: [Layer<Int, Int>] { [.consumer(~machine, mapper: { $0 })] }

  func reduce(state: Int?, event: Int) -> ReducerResult<Int> { .set((state ?? 0) + event) }
}

/// A machine on the main actor that, given 1, says so and waits until released.
final class MainActorBlocker: ChildMachine {
  let events: Recorder<String>
  let entered: DispatchSemaphore
  let release: DispatchSemaphore

  init(events: Recorder<String>, entered: DispatchSemaphore, release: DispatchSemaphore) {
    self.events = events
    self.entered = entered
    self.release = release
  }

  var queue: MachineQueue { .main }

  func process(input: Int?, callback: Handler<Never>) {
    guard input == 1 else { return }
    events.append("call began")
    entered.signal()
    release.wait()
    events.append("call ended")
  }
}
