import Testing

@testable import Comonadic

@Suite struct ExplorerCoreQueue {
  typealias Core = ExplorerCore<Void, Store<Int, Int>>

  @Test func aResultQueuedBeforeItsRunIsSupersededIsDropped() throws {
    // A run's result can arrive while the input that supersedes the run is being handled; the
    // run stays registered until its result is handled, so superseding it drops the result.
    var core = Core(space: Store(position: 0) { $0 })
    let claim = DrainClaim()
    _ = core.enqueue(.plan(.none), claim)
    let started = core.start(AnyWorkID("work"), isFinite: true)
    let first = try #require(started)
    _ = core.enqueue(.result(.set(10), from: first.run, rest: []), claim)
    _ = core.enqueue(.plan(.none), claim)
    let restarted = core.start(AnyWorkID("work"), isFinite: true)
    let second = try #require(restarted)
    #expect(second.superseded == nil)  // no task attached in this test
    #expect(first.run != second.run)
    var plans = 0
    while core.queue.hasNext {
      let message = core.queue.next()
      guard case .plan = message else {
        Issue.record("the superseded run's result is still queued")
        continue
      }
      plans += 1
    }
    #expect(plans == 2)
    #expect(core.runs.finiteCount == 1)
  }

  @Test func completingARunStartsTheNextOneWaitingUnderItsId() throws {
    var core = Core(space: Store(position: 0) { $0 })
    let started = core.start(AnyWorkID("save"), isFinite: true)
    let first = try #require(started)
    var line = WaitingLine<Waiting<Void, Int, State<Int, Void>>>()
    line.append(Waiting(operation: .seeing { _, _ in .set(2) }, focus: 1, rest: []))
    core.waiting[AnyWorkID("save")] = line
    let (isLive, next) = core.finish(first.run)
    #expect(isLive)
    #expect(next?.waiting.focus == 1)
    #expect(core.runs.count == 1)
    #expect(core.waiting.isEmpty)
    #expect(core.runs.finiteCount == 1)
  }

  @Test func aWaitingLineTakesFromTheFrontInOrder() {
    var line = WaitingLine<Int>()
    for number in 0..<1_000 { line.append(number) }
    var taken: [Int] = []
    for _ in 0..<500 { taken.append(line.removeFirst()!) }
    for number in 1_000..<1_200 { line.append(number) }
    while let number = line.removeFirst() { taken.append(number) }
    #expect(taken == Array(0..<1_200))
    #expect(line.isEmpty)
    // Taking from the front does not leave the taken items behind: the line compacts.
    #expect(line.items.isEmpty && line.head == 0)
  }
}
