import Kernel
import Samples
import Testing
import Workloads

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// SPEC R6, progress: a `send` processes a bounded number of messages and returns, however fast
/// messages arrive; the runtime's own task processes the rest.
///
/// The storm is deterministic: the observer sends another increment on every change, so the
/// queue is never empty until the count reaches four turns. What the sender handled itself is
/// counted on its thread while it is inside `send`: a runtime whose sender drains until the
/// queue is empty handles all four turns there.
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
    let storm = Storm(until: 4 * messagesPerTurn)
    let subject = tally.init(TallySetup(state: TallyState(), observers: 1) { storm.observe($0) })
    storm.connect(subject)

    // Returns after its turn: the first increment and at most a turn of what followed.
    storm.sending(true)
    subject.send(.increment, times: 1)
    storm.sending(false)
    #expect(storm.callsOnSender <= messagesPerTurn + 1)

    // The runtime's own task goes on with the storm, with no sender left.
    await storm.reached()
    subject.stop()
    let afterStop = storm.calls
    #expect(afterStop > 4 * messagesPerTurn)
    // Stopped means stopped: the storm's own sends after stop are ignored (R6).
    subject.send(.increment, times: 1)
    #expect(storm.calls == afterStop)
  }
}

/// An observer that sends an increment on every change it sees until the count reaches `until`,
/// then tells a waiting test.
private final class Storm: Sendable {
  private struct State {
    weak var subject: (any TallySubject)?
    var calls = 0
    /// The thread inside `send`, while it is.
    var sender: pthread_t?
    var callsOnSender = 0
    var reached = false
    var waiter: CheckedContinuation<Void, Never>?
  }
  private let state = Lock(State())
  private let until: Int

  init(until: Int) { self.until = until }

  func connect(_ subject: any TallySubject) { state.withLock { $0.subject = subject } }

  var calls: Int { state.withLock { $0.calls } }
  var callsOnSender: Int { state.withLock { $0.callsOnSender } }

  func sending(_ isSending: Bool) {
    state.withLock { $0.sender = isSending ? pthread_self() : nil }
  }

  func observe(_ value: TallyState) {
    let (subject, waiter) = state.withLock {
      state -> ((any TallySubject)?, CheckedContinuation<Void, Never>?) in
      state.calls += 1
      if let sender = state.sender, pthread_equal(sender, pthread_self()) != 0 {
        state.callsOnSender += 1
      }
      guard value.count >= until else { return (state.subject, nil) }
      guard !state.reached else { return (nil, nil) }
      state.reached = true
      let waiter = state.waiter
      state.waiter = nil
      return (nil, waiter)
    }
    waiter?.resume()
    subject?.send(.increment, times: 1)
  }

  /// Returns once an observed count reached `until`.
  func reached() async {
    await withCheckedContinuation { continuation in
      let now = state.withLock { state in
        if state.reached { return true }
        state.waiter = continuation
        return false
      }
      if now { continuation.resume() }
    }
  }
}
