import Kernel
import KernelTesting
import Samples
import Testing
import Workloads

/// SPEC R6, progress: a `send` processes a bounded number of messages and returns, however fast
/// messages arrive; the runtime's own task processes the rest.
///
/// The storm (the kernel's `SendStorm`) is deterministic: the observer sends another increment on
/// every change, so the queue is never empty until the count reaches four turns. What the sender
/// handled itself is counted on its thread while it is inside `send`: a runtime whose sender
/// drains until the queue is empty handles all four turns there.
// The generous limit is for the runtimes' own tasks: they run on the global pool, which the
// rest of the suite can keep busy for minutes under ThreadSanitizer on two cores (a 1-minute
// limit timed out once in CI while other suites held both threads).
@Suite(.serialized, .timeLimit(.minutes(5)))
struct ProgressTests {
  static let contestants = Catalog.contestants.filter { $0.tally != nil && $0.name != "bare" }

  @Test(arguments: contestants.map(\.name))
  func aSendReturnsWhileObserversKeepSending(_ name: String) async throws {
    let contestant = try #require(Self.contestants.first { $0.name == name })
    let tally = try #require(contestant.tally)
    let storm = SendStorm(until: 4 * messagesPerTurn)
    let calls = Lock(0)
    // The observer sends through the subject it observes, set once it exists.
    let sendNext = Lock<(@Sendable () -> Void)?>(nil)
    let subject = tally.init(
      TallySetup(state: TallyState(), observers: 1) { value in
        calls.withLock { $0 += 1 }
        storm.observe(value.count) { sendNext.withLock { $0 }?() }
      })
    sendNext.withLock { $0 = { [weak subject] in subject?.send(.increment, times: 1) } }

    // Returns after its turn: the first increment and at most a turn of what followed.
    await storm.send { subject.send(.increment, times: 1) }
    #expect(storm.handledBySender <= messagesPerTurn + 1)

    // The runtime's own task goes on with the storm, with no sender left.
    await storm.reached()
    subject.stop()
    let afterStop = calls.withLock { $0 }
    #expect(afterStop > 4 * messagesPerTurn)
    // Stopped means stopped: sends after stop are ignored (R6).
    subject.send(.increment, times: 1)
    #expect(calls.withLock { $0 } == afterStop)
  }
}
