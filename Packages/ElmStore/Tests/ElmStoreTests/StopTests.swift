import Foundation
import Synchronization
import Testing

@testable import ElmStore
@testable import ElmStoreTesting

/// R6 in the interleavings that matter, made deterministic with semaphores: no sleeps.
@Suite(.serialized, .timeLimit(.minutes(1))) struct Stopping {
  @Test func stopWaitsForAnObserverCallInProgressOnAnotherThread() async {
    let store = Store(state: Tally(), update: countUp)
    let events = Recorder<String>()
    let entered = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    store.subscribe { state in
      guard state.count == 1 else { return }
      events.append("observer began")
      entered.signal()
      release.wait()
      events.append("observer ended")
    }
    let dispatcher = Thread { store.dispatch(.increment) }
    dispatcher.start()
    await signalled(entered)
    let stopped = DispatchSemaphore(value: 0)
    Thread {
      store.stop()
      events.append("stop returned")
      stopped.signal()
    }.start()
    // Once the gate is closed, the stopping thread waits for the observer.
    await eventually { store.runtime.gate.isStopped }
    #expect(!events.all.contains("stop returned"))
    release.signal()
    await signalled(stopped)
    store.dispatch(.increment)
    #expect(events.all == ["observer began", "observer ended", "stop returned"])
    #expect(store.state.count == 1)
  }

  @Test func aDispatchReturnsAfterOneTurnWhileObserversKeepDispatching() async {
    // A storm: every change dispatches another increment, so the queue is never empty. The
    // dispatcher handles one turn and returns; the store's own task handles the rest (R6).
    let store = Store(state: Tally(), update: countUp)
    let storm = SendStorm(until: 4 * messagesPerTurn)
    store.subscribe { state in storm.observe(state.count) { store.dispatch(.increment) } }
    await storm.send { store.dispatch(.increment) }
    #expect(storm.handledBySender <= messagesPerTurn + 1)
    await storm.reached()
    #expect(store.state.count == 4 * messagesPerTurn)
    store.stop()
  }

  @Test func stopFromInsideAnObserverCallsNoOtherObserverOfThatAction() {
    let store = Store(state: Tally(), update: countUp)
    let seen = Recorder<Int>()
    store.subscribe { state in
      if state.count == 1 { store.stop() }
    }
    store.subscribe { state in seen.append(state.count) }
    store.dispatch(.increment)
    store.dispatch(.increment)
    #expect(seen.all == [0])
    #expect(store.state.count == 1)
  }

  @Test func aSaveWrappedInIfActiveNeverBeginsAfterStop() async {
    let began = Recorder<String>()
    let gate = Gate()
    let finished = Gate()
    let effect = Effect<Tally, Counting> { _, action, dispatch in
      guard action == .increment else { return }
      dispatch.run { send in
        await gate.wait()  // ignores cancellation, like a slow service
        _ = try? await send.ifActive { began.append("save") }
        send.performIfActive { began.append("log") }
        finished.open()
      }
    }
    let store = Store(state: Tally(), update: countUp, effect: effect)
    store.dispatch(.increment)
    await eventually { gate.waiting == 1 }
    store.stop()
    gate.open()
    await finished.wait()
    #expect(began.all.isEmpty)
  }

  @Test func releasingTheStoreWhileAnEffectDeliversDropsWhatIsQueued() async {
    let seen = Recorder<Int>()
    let gate = Gate()
    let released = Atomic(false)
    let effect = Effect<Tally, Counting> { _, action, dispatch in
      guard action == .noop else { return }
      dispatch.run { send in
        await gate.wait()
        send(.result("late"))
      }
    }
    let holder = Holder(Store(state: Tally(), update: countUp, effect: effect))
    let runtime = holder.value!.runtime
    holder.value?.subscribe { state in
      seen.append(state.count)
      guard state.results == ["late"] else { return }
      // On the effect's task, inside its delivery: queue five, then drop the last reference.
      for _ in 0..<5 { holder.value?.dispatch(.increment) }
      holder.value = nil
      released.store(true, ordering: .sequentiallyConsistent)
    }
    holder.value?.dispatch(.noop)
    gate.open()
    await eventually { released.load(ordering: .sequentiallyConsistent) }
    await runtime.idle()
    #expect(runtime.gate.isStopped)
    #expect(runtime.state.count == 0)
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
