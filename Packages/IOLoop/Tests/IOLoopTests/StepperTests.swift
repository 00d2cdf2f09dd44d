import IOLoop
import IOLoopTesting
import Testing

@Suite struct StepperBehaviour {
  @Test func stepsAreCheckedOneByOne() {
    var app = Stepper(Tally.self)
    app.start(expecting: Tally(), Tally.Outputs([.render(0)], []))
    app.step(IOInput(.increment, nil), expecting: Tally(count: 1), Tally.Outputs([.render(1)], []))
    app.step(IOInput(.wait(2), nil), expecting: Tally(count: 1), Tally.Outputs([], [.wait(2)]))
    app.step(IOInput(nil, .echoed(2)), expecting: Tally(count: 1, results: [2]), .none)
    #expect(app.steps == 4)
  }

  @Test func aStepperCanStartFromAnyState() {
    var app = Stepper(from: Tally(ticks: 2, stopAfterTicks: 3))
    app.step(
      IOInput(nil, .tick), expecting: Tally(ticks: 3, stopAfterTicks: 3),
      Tally.Outputs([], [.stopTimer]))
  }

  @Test func aWrongStateFailsNamingTheStepWithALineDiff() {
    var app = Stepper(Tally.self)
    app.start()
    withKnownIssue {
      app.step(
        IOInput(.increment, nil), expecting: Tally(count: 2), Tally.Outputs([.render(1)], []))
    } matching: { issue in
      let message = issue.comments.map(\.rawValue).joined()
      return message.contains("step 1 (increment):")
        && message.contains("state differs: (− expected, + actual)")
        && message.contains("−   - count: 2") && message.contains("+   - count: 1")
        && !message.contains("outputs differ")
    }
    // It goes on from the actual state.
    #expect(app.state?.count == 1)
  }

  @Test func wrongOutputsFailWithTheirDiff() {
    var app = Stepper(Tally.self)
    app.start()
    withKnownIssue {
      app.step(
        IOInput(.countdown(1), nil), expecting: Tally(isCountingDown: true),
        Tally.Outputs([], [.echo(2)]))
    } matching: { issue in
      let message = issue.comments.map(\.rawValue).joined()
      return message.contains("step 1 (countdown(1)):")
        && message.contains("outputs differ: (− expected, + actual)")
        && message.contains("− ") && message.contains("2") && message.contains("+ ")
        && !message.contains("state differs")
    }
  }

  @Test func steppingBeforeStartFails() {
    var app = Stepper(Tally.self)
    withKnownIssue {
      app.step(IOInput(.increment, nil))
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("before start()")
    }
  }
}

@Suite struct StepperChildren {
  @Test func aChildNamedByAPropertyIsNamedInTheFailure() {
    var app = Stepper(from: parentWithRows())
    withKnownIssue {
      app.step(
        Parent.Input(.child(.increment), nil, nil), child: \.child, expecting: Tally(),
        Parent.Outputs([], [Tally.Outputs([.render(1)], [])], []))
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains(
        "child \\Parent.child differs: (− expected, + actual)")
    }
  }

  @Test func aStepOfOneChildIsCheckedOnTheChildAndTheStepsOutputs() {
    var app = Stepper(from: parentWithRows(1, 2))
    app.step(
      Parent.Input(.row(2, .increment), nil, nil), child: \.rows[id: 2],
      expecting: Tally(count: 1),
      Parent.Outputs([], [], [.outputs(2, Tally.Outputs([.render(1)], []))]))
    app.step(
      Parent.Input(.child(.wait(4)), nil, nil), child: \.child, expecting: Tally(),
      Parent.Outputs([], [Tally.Outputs([], [.wait(4)])], []))
    #expect(app.steps == 3)
  }

  @Test func aWrongChildFailsNamingItsPathWithALineDiff() {
    var app = Stepper(from: parentWithRows(1, 2))
    withKnownIssue {
      app.step(
        Parent.Input(.row(2, .increment), nil, nil), child: \.rows[id: 2],
        expecting: Tally(count: 2),
        Parent.Outputs([], [], [.outputs(2, Tally.Outputs([.render(1)], []))]))
    } matching: { issue in
      let message = issue.comments.map(\.rawValue).joined()
      return message.contains("step 1 (row(2, IOLoopTests.Intent.increment)):")
        && message.contains("differs: (− expected, + actual)")
        && message.contains("count: 2") && message.contains("count: 1")
        && !message.contains("outputs differ") && !message.contains("outside the child")
    }
  }

  @Test func aChangeOutsideTheChildFails() {
    // Row 1's echo also counts in row 2 (its sibling): asserting row 1 alone is not exhaustive.
    var app = Stepper(from: parentWithRows(1, 2))
    withKnownIssue {
      app.step(
        Parent.Input(nil, nil, .init(id: 1, input: Tally.Input(nil, .echoed(5)))),
        child: \.rows[id: 1], expecting: Tally(results: [5]), .none)
    } matching: { issue in
      let message = issue.comments.map(\.rawValue).joined()
      return message.contains("state outside the child changed: (− before, + actual)")
        && message.contains("count: 1") && !message.contains("differs: (− expected")
    }
  }

  private func parentWithRows(_ ids: Int...) -> Parent {
    var parent = Parent()
    for id in ids { parent.rows.append(Tally(), id: id) }
    return parent
  }
}
