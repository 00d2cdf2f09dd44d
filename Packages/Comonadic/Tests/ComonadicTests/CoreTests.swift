import Testing

@testable import Comonadic

@Suite struct CoreQueue {
  typealias TestCore = Core<Void, Store<Int, Int>>

  @Test func aResultQueuedBeforeItsRunIsSupersededIsDropped() {
    // A run's result can arrive while the input that supersedes the run is being handled; the
    // run stays registered until its result is handled, so superseding it drops the result.
    var core = TestCore(space: Store(position: 0) { $0 })
    _ = core.enqueue(.plan(.none))
    let (first, _) = core.register(EffectID("work"), isFinite: true, replacing: true)
    _ = core.enqueue(.result(.set(10), token: first, rest: []))
    _ = core.enqueue(.plan(.none))
    let (second, superseded) = core.register(EffectID("work"), isFinite: true, replacing: true)
    #expect(superseded.isEmpty)  // no task attached in this test
    #expect(first != second)
    #expect(core.queue.count == 2)
    #expect(core.queue.allSatisfy { if case .plan = $0 { true } else { false } })
    #expect(core.finiteRuns == 1)
  }

  @Test func completingARunStartsTheNextOneWaitingUnderItsId() {
    var core = TestCore(space: Store(position: 0) { $0 })
    let (first, _) = core.register(EffectID("save"), isFinite: true, replacing: false)
    core.waiting[EffectID("save")] = [Waiting(operation: { _, _ in .set(2) }, focus: 1, rest: [])]
    let (isLive, next) = core.complete(first)
    #expect(isLive)
    #expect(next?.waiting.focus == 1)
    #expect(core.runs.count == 1)
    #expect(core.waiting.isEmpty)
    #expect(core.finiteRuns == 1)
  }
}
