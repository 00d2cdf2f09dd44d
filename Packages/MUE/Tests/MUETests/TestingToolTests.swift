import MUE
import MUETesting
import Testing

@Suite struct UpdateSpecBehaviour {
  let spec = UpdateSpec(TallyUpdate(initialEffects: [.timer]))

  @Test func eventsAndResultsApplyInOrder() {
    spec.given(Tally())
      .when(.increment, .echo(4), .increment)
      .then(state: Tally(count: 2), effects: [.echo(4)])
    spec.given(Tally(count: 2))
      .when(results: .echoed(4), .tick)
      .then(state: Tally(count: 2, results: [4], ticks: 1))
    spec.given(Tally())
      .when([.event(.increment), .result(.failed("x"))])
      .then(state: Tally(count: 1, failure: "x"))
  }

  @Test func cancellationsAndFirstAreChecked() {
    spec.given(Tally()).when(.wait(1), .cancelWait)
      .then(state: Tally(), effects: [.wait(1)], cancellations: [.wait])
    spec.given(Tally(count: 3)).whenStarting().then(state: Tally(count: 3), effects: [.timer])
    spec.given(Tally(count: 3)).when(.touch).thenNoChange(from: Tally(count: 3))
  }

  @Test func outcomeIsInspectable() {
    let outcome = spec.given(Tally()).when(.echoBoth(1, 2))
    #expect(outcome.effects == [.echo(1), .echo(2)])
    #expect(outcome.state == Tally())
  }

  @Test func aWrongStateFailsWithALineDiff() {
    withKnownIssue {
      spec.given(Tally()).when(.increment, .increment).then(state: Tally(count: 3))
    } matching: { issue in
      let message = issue.comments.map(\.rawValue).joined()
      return message.contains("when increment, increment:")
        && message.contains("state differs: (− expected, + actual)")
        && message.contains("−   - count: 3") && message.contains("+   - count: 2")
        && !message.contains("effects differ")
    }
  }

  @Test func missingOrExtraEffectsFailWithBothLists() {
    withKnownIssue {
      spec.given(Tally()).when(.echoBoth(1, 2)).then(state: Tally(), effects: [.echo(1)])
    } matching: { issue in
      let message = issue.comments.map(\.rawValue).joined()
      return message.contains(
        "effects differ:\n  expected: [echo(1)]\n  actual:   [echo(1), echo(2)]")
        && !message.contains("state differs")
    }
  }

  @Test func missingCancellationsFail() {
    withKnownIssue {
      spec.given(Tally()).when(.cancelWait).then(state: Tally())
    } matching: { issue in
      issue.comments.map(\.rawValue).joined()
        .contains("cancellations differ:\n  expected: []\n  actual:   [wait]")
    }
  }
}

@Suite struct LoopHarnessBehaviour {
  @Test func recordsStatesAndEffectsAndSettlesWithoutSleeping() async {
    let effects = TallyEffects()
    let harness = LoopHarness(
      update: TallyUpdate(initialEffects: [.echo(9)]), effectHandler: effects, state: Tally())
    await harness.start()
    harness.expect(states: [Tally(), Tally(results: [9])], effects: [.echo(9)])

    await harness.send(.increment, .wait(5))
    #expect(effects.gate.waiting == 1)  // settled: the handler waits on the gate
    harness.expect(states: [Tally(count: 1, results: [9])], effects: [.wait(5)])

    effects.gate.open()
    await harness.settle()
    harness.expect(states: [Tally(count: 1, results: [9, 5])], effects: [])
    #expect(
      harness.steps.map(\.input) == [
        "first(state:)", "result echoed(9)", "increment", "wait(5)", "result echoed(5)",
      ])
    harness.stop()
  }

  @Test func aWrongExpectationFailsWithTheInputsAndADiff() async {
    let harness = LoopHarness(update: TallyUpdate(), effectHandler: TallyEffects(), state: Tally())
    await harness.start()
    await harness.send(.echo(1))
    withKnownIssue {
      harness.expect(states: [Tally(), Tally(results: [2])], effects: [.echo(1)])
    } matching: { issue in
      let message = issue.comments.map(\.rawValue).joined()
      return message.contains("after first(state:), echo(1), result echoed(1):")
        && message.contains("published states differ: (− expected, + actual)")
        && message.contains("−       - 2") && message.contains("+       - 1")
        && !message.contains("effects differ")
    }
  }
}
