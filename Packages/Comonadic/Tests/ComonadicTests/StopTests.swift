import Foundation
import Synchronization
import Testing

@testable import Comonadic
@testable import ComonadicTesting

/// R6 in the interleavings that matter, made deterministic with semaphores: no sleeps.
@Suite(.serialized, .timeLimit(.minutes(1))) struct Stopping {
  @Test func stopWaitsForAnObserverCallInProgressOnAnotherThread() async {
    let component = component()
    let events = Recorder<String>()
    let entered = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    component.subscribe { model in
      guard model.count == 1 else { return }
      events.append("observer began")
      entered.signal()
      release.wait()
      events.append("observer ended")
    }
    Thread { component.send(.increment) }.start()
    await signalled(entered)
    let stopped = DispatchSemaphore(value: 0)
    Thread {
      component.stop()
      events.append("stop returned")
      stopped.signal()
    }.start()
    await eventually { component.explorer.gate.isStopped }
    #expect(!events.all.contains("stop returned"))
    release.signal()
    await signalled(stopped)
    component.send(.increment)
    #expect(events.all == ["observer began", "observer ended", "stop returned"])
    #expect(component.state.count == 1)
  }

  @Test func aSendReturnsAfterOneTurnWhileObserversKeepSending() async {
    // A storm: every change sends another increment, so the queue is never empty. The sender
    // handles one turn and returns; the explorer's own task handles the rest (R6).
    let component = component()
    let storm = SendStorm(until: 4 * messagesPerTurn)
    component.subscribe { model in storm.observe(model.count) { component.send(.increment) } }
    await component.idle()
    await storm.send { component.send(.increment) }
    #expect(storm.handledBySender <= messagesPerTurn + 1)
    await storm.reached()
    #expect(component.state.count == 4 * messagesPerTurn)
    component.stop()
  }

  @Test func stopFromInsideAnObserverCallsNoOtherObserverOfThatInput() async {
    let component = component()
    let seen = Recorder<Int>()
    component.subscribe { model in
      if model.count == 1 { component.stop() }
    }
    component.subscribe { model in seen.append(model.count) }
    await component.idle()
    component.send(.increment)
    component.send(.increment)
    #expect(seen.all == [0])
    #expect(component.state.count == 1)
  }

  @Test func workWrappedInWhileRunningNeverBeginsAfterStop() async {
    let gate = Gate()
    let finished = Gate()
    let began = Recorder<String>()
    let component = component { _ in
      [
        .task { _, _ in
          await gate.wait()  // ignores cancellation, like a slow service
          _ = try? await WhileRunning.call { began.append("save") }
          WhileRunning.perform { began.append("log") }
          finished.open()
          return record("done")
        }
      ]
    }
    component.send(.work(1))
    await eventually { gate.waiting == 1 }
    component.stop()
    gate.open()
    await finished.wait()
    #expect(began.all.isEmpty)
  }

  @Test func releasingTheComponentWhileWorkDeliversDropsWhatIsQueued() async {
    let seen = Recorder<Int>()
    let released = Atomic(false)
    let gate = Gate()
    let holder = Holder<TestComponent>(
      component { _ in
        [
          .task { _, _ in
            await gate.wait()
            return record("late")
          }
        ]
      })
    let explorer = holder.value!.explorer
    holder.value?.subscribe { model in
      seen.append(model.count)
      guard model.results == ["late"] else { return }
      // On the task, inside its delivery: queue five, then drop the last reference.
      for _ in 0..<5 { holder.value?.send(.increment) }
      holder.value = nil
      released.store(true, ordering: .sequentiallyConsistent)
    }
    holder.value?.send(.work(1))
    await eventually { gate.waiting == 1 }
    gate.open()
    await eventually { released.load(ordering: .sequentiallyConsistent) }
    #expect(explorer.gate.isStopped)
    #expect(explorer.space.position.count == 0)
    #expect(seen.all == [0, 0])
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
