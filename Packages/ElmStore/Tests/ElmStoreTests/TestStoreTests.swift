import ElmStore
import ElmStoreTesting
import Testing

/// A small app with a synchronous effect, an asynchronous one, and a long-lived one.
enum Saving {
  struct State: Equatable, Sendable {
    var count = 0
    var saved: [Int] = []
    var isWatching = false
  }

  enum Action: Equatable, Sendable {
    case increment
    case doubleIncrement
    case saved(Int)
    case watch
    case unwatch
  }

  static func update(_ state: inout State, _ action: Action) {
    switch action {
    case .increment, .doubleIncrement: state.count += 1
    case .saved(let count): state.saved.append(count)
    case .watch: state.isWatching = true
    case .unwatch: state.isWatching = false
    }
  }

  static func effect(_ gate: Gate) -> Effect<State, Action> {
    Effect { state, action, dispatch in
      switch action {
      case .increment:
        let count = state.count
        dispatch.run { send in send(.saved(count)) }
      case .doubleIncrement:
        dispatch(.increment)
      case .watch:
        dispatch.run(id: "watch", lifetime: .untilCancelled) { _ in await gate.wait() }
      case .unwatch:
        dispatch.cancel(id: "watch")
      case .saved:
        break
      }
    }
  }

  static func testStore(_ gate: Gate = Gate()) -> TestStore<State, Action> {
    TestStore(initialState: State(), update: update, effect: effect(gate))
  }
}

@Suite struct TestStoreBehaviour {
  @Test func exhaustiveSendAndReceivePass() async {
    let store = Saving.testStore()
    await store.send(.increment) { $0.count = 1 }
    await store.receive(.saved(1)) { $0.saved = [1] }
    await store.send(.doubleIncrement) { $0.count = 2 }
    await store.receive(.increment) { $0.count = 3 }
    await store.receive(.saved(3)) { $0.saved = [1, 3] }
    await store.finish()
  }

  @Test func aCancelledLongLivedEffectLetsTheTestFinish() async {
    let store = Saving.testStore()
    await store.send(.watch) { $0.isWatching = true }
    await store.send(.unwatch) { $0.isWatching = false }
    await store.finish()
  }

  @Test func nonExhaustiveChecksOnlyWhatIsAsserted() async {
    let store = Saving.testStore()
    store.exhaustivity = .off
    await store.send(.doubleIncrement)
    await store.receive(.saved(2)) { $0.saved = [2] }
    await store.send(.watch)
    await store.finish()
    #expect(store.state.count == 2)
  }
}

@Suite struct TestStoreFailures {
  @Test func aWrongStateAssertionShowsADiff() async {
    let store = Saving.testStore()
    store.exhaustivity = .off
    await withKnownIssue {
      await store.send(.increment) { $0.count = 2 }
    } matching: { issue in
      let text = issue.comments.map(\.rawValue).joined()
      return text.contains("State after increment differs from the expected state")
        && text.contains("−   - count: 2\n+   - count: 1")
    }
  }

  @Test func anUnassertedReceivedActionFailsFinish() async {
    let store = Saving.testStore()
    await store.send(.increment) { $0.count = 1 }
    await withKnownIssue {
      await store.finish()
    } matching: { issue in
      issue.comments.map(\.rawValue).joined()
        == "1 received action(s) were not asserted:\n  saved(1)"
    }
  }

  @Test func aRunningEffectFailsFinish() async {
    let gate = Gate()
    let store = Saving.testStore(gate)
    await store.send(.watch) { $0.isWatching = true }
    await withKnownIssue {
      await store.finish()
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().hasPrefix("1 effect(s) are still running.")
    }
    gate.open()
  }

  @Test func receivingTheWrongActionFails() async {
    let store = Saving.testStore()
    await store.send(.increment) { $0.count = 1 }
    await withKnownIssue {
      await store.receive(.saved(2))
    } matching: { issue in
      issue.comments.map(\.rawValue).joined()
        .hasPrefix("Expected to receive saved(2), but received saved(1).")
    }
  }

  @Test func sendingBeforeHandlingReceivedActionsFails() async {
    let store = Saving.testStore()
    await store.send(.increment) { $0.count = 1 }
    await withKnownIssue {
      await store.send(.watch) { $0.isWatching = true }
    } matching: { issue in
      issue.comments.map(\.rawValue).joined()
        == "Must handle 1 received action(s) before sending watch:\n  saved(1)"
    }
    await store.receive(.saved(1)) { $0.saved = [1] }
    await store.send(.unwatch) { $0.isWatching = false }
    await store.finish()
  }

  @Test func receivingWhenNothingArrivedFails() async {
    let store = Saving.testStore()
    await withKnownIssue {
      await store.receive(.saved(1))
    } matching: { issue in
      issue.comments.map(\.rawValue).joined()
        == "Expected to receive saved(1), but no action was received."
    }
  }
}

@Suite struct TestStoreChildren {
  func makeStore() -> TestStore<Parent.State, Parent.Action> {
    var state = Parent.State()
    state.rows.append(Child.State(), id: 1)
    state.rows.append(Child.State(), id: 2)
    return TestStore(initialState: state, update: Parent.update)
  }

  @Test func aChildsChangeIsAssertedThroughItsPath() async {
    let store = makeStore()
    await store.send(.row(1, .increment), child: \.rows[id: 1]) { $0?.count = 1 }
    await store.send(.single(.increment), child: \.single) { $0.count = 1 }
    await store.finish()
  }

  @Test func aWrongChildExpectationFailsWithTheUsualMessage() async {
    let store = makeStore()
    await withKnownIssue {
      await store.send(.row(2, .increment), child: \.rows[id: 2]) { $0?.count = 5 }
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("count")
    }
    await store.finish()
  }

  @Test func aChangeToAnotherChildFailsAnExhaustiveChildAssertion() async {
    let store = makeStore()
    await withKnownIssue {
      // The action changes row 2; asserting row 1's (unchanged) part does not cover it.
      await store.send(.row(2, .increment), child: \.rows[id: 1]) { _ in }
    }
    await store.finish()
  }
}

/// A clock whose time moves only when a test says so: sleepers due by then wake.
final class StepClock: Clock, Sendable {
  struct Instant: InstantProtocol {
    var offset: Duration
    func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
    func duration(to other: Instant) -> Duration { other.offset - offset }
    static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
  }

  private let state = Lock<
    (now: Instant, sleepers: [(Instant, CheckedContinuation<Void, any Error>)])
  >(
    (Instant(offset: .zero), []))

  var now: Instant { state.withLock { $0.now } }
  var minimumResolution: Duration { .zero }

  func sleep(until deadline: Instant, tolerance: Duration?) async throws {
    try await withCheckedThrowingContinuation { continuation in
      let due = state.withLock { state in
        if deadline <= state.now { return true }
        state.sleepers.append((deadline, continuation))
        return false
      }
      if due { continuation.resume() }
    }
  }

  func advance(by duration: Duration) {
    let due = state.withLock { state in
      state.now = state.now.advanced(by: duration)
      let now = state.now
      let due = state.sleepers.filter { $0.0 <= now }.map(\.1)
      state.sleepers.removeAll { $0.0 <= now }
      return due
    }
    for continuation in due { continuation.resume() }
  }
}

@Suite struct TestStoreTime {
  enum Action: Equatable, Sendable { case start, fired }

  static func effect(_ clock: StepClock) -> Effect<Int, Action> {
    Effect { _, action, dispatch in
      guard action == .start else { return }
      dispatch.run(id: "timer") { send in
        try await clock.sleep(until: clock.now.advanced(by: .milliseconds(30)), tolerance: nil)
        send(.fired)
      }
    }
  }

  @Test func receiveAdvancesVirtualTimeUntilTheActionArrives() async {
    let clock = StepClock()
    let store = TestStore(
      initialState: 0, update: { state, action in if action == .fired { state += 1 } },
      effect: Self.effect(clock))
    await store.send(.start)
    await store.receive(.fired, within: .milliseconds(100), advancing: clock.advance(by:)) {
      $0 = 1
    }
    await store.finish()
  }

  @Test func receiveFailsAtTheLimitInsteadOfHanging() async {
    let clock = StepClock()
    let store = TestStore(initialState: 0, update: { _, _ in }, effect: Self.effect(clock))
    await store.send(.start)
    await withKnownIssue {
      await store.receive(.fired, within: .milliseconds(10), advancing: clock.advance(by:))
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("no action was received")
    }
    clock.advance(by: .milliseconds(30))
    await store.receive(.fired)
    await store.finish()
  }
}

@Suite struct CurrentStateReading {
  enum Action: Equatable, Sendable {
    case startWatch, bump
    case seen(Int)
  }

  struct Watched: Equatable, Sendable {
    var count = 0
    var seen: Int?
  }

  @Test func anEffectReadsTheStateWhenItsWorkFiresNotWhenItStarted() async {
    let gate = Gate()
    let effect = Effect<Watched, Action>.reading { _, action, dispatch, current in
      guard action == .startWatch else { return }
      dispatch.run(id: "watch") { send in
        await gate.wait()
        send(.seen(current.value?.count ?? -1))
      }
    }
    let update: Update<Watched, Action> = { state, action in
      switch action {
      case .bump: state.count += 1
      case .seen(let count): state.seen = count
      case .startWatch: break
      }
    }
    let store = Store(state: Watched(), update: update, effect: effect)
    store.dispatch(.startWatch)
    store.dispatch(.bump)
    store.dispatch(.bump)
    gate.open()
    await store.idle()
    #expect(store.state.seen == 2, "the snapshot at start had 0")
  }

  @Test func aLiftedChildReadsItsOwnPart() async {
    let gate = Gate()
    let read = Recorder<Int>()
    let child = Effect<Child.State, Child.Action>.reading { _, action, dispatch, current in
      guard action == .startJob else { return }
      dispatch.run(id: "read") { _ in
        await gate.wait()
        read.append(current.value?.count ?? -1)
      }
    }
    let store = Store(
      state: Parent.State(), update: Parent.update,
      effect: child.lifted(forEach: \Parent.State.rows, action: Parent.row))
    store.dispatch(.add(1))
    store.dispatch(.row(1, .startJob))
    store.dispatch(.row(1, .increment))
    store.dispatch(.row(1, .increment))
    gate.open()
    await store.idle()
    #expect(read.all == [2])
  }
}
