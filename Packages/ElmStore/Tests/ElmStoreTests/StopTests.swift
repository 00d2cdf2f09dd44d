import Foundation
import Synchronization
import Testing

@testable import ElmStore

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

  @Test func releasingTheStoreDropsWhatIsQueuedWhileAnEffectDelivers() async {
    let seen = Recorder<Int>()
    let entered = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let gate = Gate()
    let effect = Effect<Tally, Counting> { _, action, dispatch in
      guard action == .noop else { return }
      dispatch.run { send in
        await gate.wait()
        send(.result("late"))
      }
    }
    var store: Store<Tally, Counting>? = Store(state: Tally(), update: countUp, effect: effect)
    store?.subscribe { state in
      seen.append(state.count)
      guard state.results == ["late"] else { return }
      entered.signal()
      release.wait()
    }
    let runtime = store!.runtime
    store?.dispatch(.noop)
    gate.open()  // the effect's task now hands in its result and blocks in the observer
    await signalled(entered)
    for _ in 0..<5 { store?.dispatch(.increment) }  // queued behind the blocked delivery
    let dropped = DispatchSemaphore(value: 0)
    let last = Holder(store)
    store = nil
    Thread {
      last.value = nil  // the last reference: the store stops, waiting for the observer
      dropped.signal()
    }.start()
    await eventually { runtime.gate.isStopped }
    release.signal()
    await signalled(dropped)
    await runtime.idle()
    #expect(runtime.state.count == 0)
    #expect(seen.all == [0, 0])
  }
}

/// A reference another thread can drop.
final class Holder<Value: AnyObject>: @unchecked Sendable {
  // @unchecked: set once here, cleared once by one thread, read by nobody else.
  var value: Value?
  init(_ value: Value?) { self.value = value }
}

/// Waits for `semaphore` without blocking a thread of the cooperative pool: the observer that
/// signals it may need one.
func signalled(_ semaphore: DispatchSemaphore) async {
  while semaphore.wait(timeout: .now()) == .timedOut { await Task.yield() }
}
