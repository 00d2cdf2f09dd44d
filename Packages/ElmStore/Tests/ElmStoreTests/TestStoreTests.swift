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
