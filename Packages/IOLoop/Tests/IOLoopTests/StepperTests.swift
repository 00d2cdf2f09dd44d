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
