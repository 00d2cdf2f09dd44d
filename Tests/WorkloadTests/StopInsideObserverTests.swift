import Kernel
import Samples
import Testing
import Workloads

/// SPEC R6, stop from inside an observer: once that observer call returns, no observer begins,
/// the other observers of the same message included. Checked on every contestant's benchmark
/// counter, the baseline's included, with three observers (LayerCore: three observing layers).
@Suite struct StopInsideObserverTests {
  static let contestants = Catalog.contestants.filter { $0.tally != nil && $0.name != "bare" }

  @Test(arguments: contestants.map(\.name))
  func aStopFromTheFirstObserverCallsNoneOfTheOthers(_ name: String) throws {
    let contestant = try #require(Self.contestants.first { $0.name == name })
    let tally = try #require(contestant.tally)
    let observers = 3
    let calls = Lock(0)
    let stopSubject = Lock<(@Sendable () -> Void)?>(nil)
    let subject = tally.init(
      TallySetup(state: TallyState(), observers: observers) { _ in
        // The first call after the three current values: the first observer of the change.
        let call = calls.withLock {
          $0 += 1
          return $0
        }
        if call == observers + 1 { stopSubject.withLock { $0 }?() }
      })
    stopSubject.withLock { $0 = { [weak subject] in subject?.stop() } }
    #expect(calls.withLock { $0 } == observers, "each observer hears the current value once")

    subject.send(.increment, times: 1)
    #expect(calls.withLock { $0 } == observers + 1, "observers called after a stop inside one")
    subject.send(.increment, times: 1)
    #expect(calls.withLock { $0 } == observers + 1, "an increment after stop notified")
  }
}
