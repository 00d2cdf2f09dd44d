import Foundation
import Synchronization
import Testing

@testable import IOLoop
@testable import IOLoopTesting

/// R6 in the interleavings that matter, made deterministic with semaphores: no sleeps.
@Suite(.serialized, .timeLimit(.minutes(1))) struct Stopping {
  @Test func stopWaitsForAnObserverCallInProgressOnAnotherThread() async {
    let main = makeMain()
    main.start()
    let events = Recorder<String>()
    let entered = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    main.observe { (state: Tally) in
      guard state.count == 1 else { return }
      events.append("observer began")
      entered.signal()
      release.wait()
      events.append("observer ended")
    }
    Thread { main.send(IOInput(.increment, nil)) }.start()
    await signalled(entered)
    let stopped = DispatchSemaphore(value: 0)
    Thread {
      main.stop()
      events.append("stop returned")
      stopped.signal()
    }.start()
    await eventually { main.runtime.gate.isStopped }
    #expect(!events.all.contains("stop returned"))
    release.signal()
    await signalled(stopped)
    main.send(IOInput(.increment, nil))
    #expect(events.all == ["observer began", "observer ended", "stop returned"])
    #expect(main.state.count == 1)
  }

  @Test func aSendReturnsAfterOneTurnWhileObserversKeepSending() async {
    // A storm: every change sends another increment, so the queue is never empty. The sender
    // handles one turn and returns; the program's own task handles the rest (R6).
    let main = makeMain()
    main.start()
    let storm = SendStorm(until: 4 * messagesPerTurn)
    main.observe { (state: Tally) in
      storm.observe(state.count) { main.send(IOInput(.increment, nil)) }
    }
    await storm.send { main.send(IOInput(.increment, nil)) }
    #expect(storm.handledBySender <= messagesPerTurn + 1)
    await storm.reached()
    #expect(main.state.count == 4 * messagesPerTurn)
    main.stop()
  }

  @Test func stopFromInsideAnObserverCallsNoOtherObserverOfThatInput() {
    let main = makeMain()
    main.start()
    let seen = Recorder<Int>()
    main.observe { (state: Tally) in
      if state.count == 1 { main.stop() }
    }
    main.observe { (state: Tally) in seen.append(state.count) }
    main.send(IOInput(.increment, nil))
    main.send(IOInput(.increment, nil))
    #expect(seen.all == [0])
    #expect(main.state.count == 1)
  }

  @Test func workWrappedInWhileRunningNeverBeginsAfterStop() async {
    let work = SavingWork()
    let main = Main(app: Tally.self, handlers: ViewHandler(calls: Recorder()), work)
    main.start()
    main.send(IOInput(.wait(1), nil))
    await eventually { work.gate.waiting == 1 }
    main.stop()
    work.gate.open()
    await work.finished.wait()
    #expect(work.began.all.isEmpty)
  }

  @Test func releasingTheProgramWhileWorkDeliversDropsWhatIsQueued() async {
    let seen = Recorder<Int>()
    let released = Atomic(false)
    let calls = Recorder<String>()
    let work = WorkHandler(calls: calls)
    let holder = Holder(makeMain(work: work, calls: calls))
    let runtime = holder.value!.runtime
    holder.value?.start()
    holder.value?.observe { (state: Tally) in
      seen.append(state.count)
      guard state.results == [7] else { return }
      // On the work's task, inside its delivery: queue five, then drop the last reference.
      for _ in 0..<5 { holder.value?.send(IOInput(.increment, nil)) }
      holder.value = nil
      released.store(true, ordering: .sequentiallyConsistent)
    }
    holder.value?.send(IOInput(.wait(7), nil))
    await eventually { work.gate.waiting == 1 }
    work.gate.open()
    await eventually { released.load(ordering: .sequentiallyConsistent) }
    #expect(runtime.gate.isStopped)
    #expect(runtime.state.count == 0)
    #expect(seen.all == [0, 0])
  }

}

/// Handles `.wait` with work that waits on `gate` (ignoring cancellation), then saves and logs
/// through `WhileRunning`.
struct SavingWork: IOHandler {
  typealias IO = WorkIO
  let gate = Gate()
  let finished = Gate()
  let began = Recorder<String>()

  func handle(_ output: WorkIO.Output, context: IOContext<WorkIO>) {
    guard case .wait = output else { return }
    let (gate, finished, began) = (gate, finished, began)
    context.run { _ in
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
func signalled(_ semaphore: DispatchSemaphore) async {
  while semaphore.wait(timeout: .now()) == .timedOut { await Task.yield() }
}
