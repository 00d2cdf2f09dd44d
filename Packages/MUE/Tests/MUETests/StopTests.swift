import Foundation
import Synchronization
import Testing

@testable import MUE
@testable import MUETesting

/// R6 in the interleavings that matter, made deterministic with semaphores: no sleeps.
@Suite(.serialized, .timeLimit(.minutes(1))) struct Stopping {
  @Test func stopWaitsForAnObserverCallInProgressOnAnotherThread() async {
    let loop = makeLoop()
    loop.start()
    let events = Recorder<String>()
    let entered = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    loop.observe { state in
      guard state.count == 1 else { return }
      events.append("observer began")
      entered.signal()
      release.wait()
      events.append("observer ended")
    }
    Thread { loop.send(.increment) }.start()
    await signalled(entered)
    let stopped = DispatchSemaphore(value: 0)
    Thread {
      loop.stop()
      events.append("stop returned")
      stopped.signal()
    }.start()
    await eventually { loop.runtime.gate.isStopped }
    #expect(!events.all.contains("stop returned"))
    release.signal()
    await signalled(stopped)
    loop.send(.increment)
    #expect(events.all == ["observer began", "observer ended", "stop returned"])
    #expect(loop.state.count == 1)
  }

  @Test func aSendReturnsAfterOneTurnWhileObserversKeepSending() async {
    // A storm: every change sends another increment, so the queue is never empty. The sender
    // handles one turn and returns; the loop's own task handles the rest (R6).
    let loop = makeLoop()
    loop.start()
    let storm = SendStorm(until: 4 * messagesPerTurn)
    loop.observe { state in storm.observe(state.count) { loop.send(.increment) } }
    await storm.send { loop.send(.increment) }
    #expect(storm.handledBySender <= messagesPerTurn + 1)
    await storm.reached()
    #expect(loop.state.count == 4 * messagesPerTurn)
    loop.stop()
  }

  @Test func stopFromInsideAnObserverCallsNoOtherObserverOfThatEvent() {
    let loop = makeLoop()
    loop.start()
    let seen = Recorder<Int>()
    loop.observe { state in
      if state.count == 1 { loop.stop() }
    }
    loop.observe { state in seen.append(state.count) }
    loop.send(.increment)
    loop.send(.increment)
    #expect(seen.all == [0])
    #expect(loop.state.count == 1)
  }

  @Test func workWrappedInWhileRunningNeverBeginsAfterStop() async {
    let handler = SavingEffects()
    let loop = Loop(update: TallyUpdate(), effectHandler: handler, state: Tally())
    loop.start()
    loop.send(.wait(1))
    await eventually { handler.gate.waiting == 1 }
    loop.stop()
    handler.gate.open()
    await handler.finished.wait()
    #expect(handler.began.all.isEmpty)
  }

  @Test func releasingTheLoopWhileAnEffectDeliversDropsWhatIsQueued() async {
    let seen = Recorder<Int>()
    let released = Atomic(false)
    let effects = TallyEffects()
    let holder = Holder(makeLoop(effects: effects))
    let runtime = holder.value!.runtime
    holder.value?.start()
    holder.value?.observe { state in
      seen.append(state.count)
      guard state.results == [7] else { return }
      // On the effect's task, inside its delivery: queue five, then drop the last reference.
      for _ in 0..<5 { holder.value?.send(.increment) }
      holder.value = nil
      released.store(true, ordering: .sequentiallyConsistent)
    }
    // An effect that suspends, so its result arrives on its own task, not the sender's.
    holder.value?.send(.wait(7))
    await eventually { effects.gate.waiting == 1 }
    effects.gate.open()
    await eventually { released.load(ordering: .sequentiallyConsistent) }
    #expect(runtime.gate.isStopped)
    #expect(runtime.state.count == 0)
    #expect(seen.all == [0, 0])
  }

}

/// Handles `.wait` by waiting on `gate` (ignoring cancellation), then saving and logging
/// through `WhileRunning`.
struct SavingEffects: EffectHandler {
  let gate = Gate()
  let finished = Gate()
  let began = Recorder<String>()

  func handle(_ effect: TallyEffect) async -> EffectResult<TallyEffect.Result> {
    await gate.wait()
    _ = try? await WhileRunning.call { began.append("save") }
    WhileRunning.perform { began.append("log") }
    finished.open()
    return .empty
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
