import MUE
import MUETesting
import Testing

@Suite struct ChildAssertions {
  let spec = UpdateSpec(List.Update())

  var withMilk: List.State {
    var state = List.State()
    state.rows.append(Row.State(title: "milk"), id: 1)
    state.rows.append(Row.State(title: "bread"), id: 2)
    return state
  }

  @Test func aChildsEffectIsAssertedOnTheChild() {
    spec.given(withMilk).when(.row(1, .save))
      .then(child: \.rows[id: 1], Row.State(title: "milk"), effects: [.row(1, .save("milk"))])
    spec.given(withMilk).when(results: .row(2, .saved("bread")))
      .then(child: \.rows[id: 2], Row.State(title: "bread", saved: ["bread"]))
  }

  @Test func aChangeOutsideTheChildFailsTheChildAssertion() {
    withKnownIssue {
      // The rename also counts in the parent: asserting the row alone is not exhaustive.
      spec.given(withMilk).when(.row(1, .rename("oat milk")))
        .then(child: \.rows[id: 1], Row.State(title: "oat milk"))
    } matching: { issue in
      let message = issue.comments.map(\.rawValue).joined()
      return message.contains("state differs: (− expected, + actual)")
        && message.contains("renames: 0") && message.contains("renames: 1")
    }
  }

  @Test func aWrongChildStateFailsWithADiff() {
    withKnownIssue {
      spec.given(withMilk).when(.row(1, .save))
        .then(child: \.rows[id: 1], Row.State(title: "oat milk"), effects: [.row(1, .save("milk"))])
    } matching: { issue in
      let message = issue.comments.map(\.rawValue).joined()
      return message.contains("when row(1, MUETests.Row.Event.save):")
        && message.contains("oat milk")
    }
  }

  @Test func theHarnessAssertsWhatAChildObserverSaw() async {
    let gate = Gate()
    let harness = LoopHarness(
      update: List.Update(),
      effectHandler: List.Handler(row: Row.Handler(gate: gate, calls: .init())),
      state: List.State())
    await harness.start()
    await harness.send(.add(1, "milk"), .add(2, "bread"), .row(2, .rename("rye")))
    harness.expect(
      child: \.rows[id: 2], states: [nil, Row.State(title: "bread"), Row.State(title: "rye")],
      effects: [])
    await harness.send(.row(1, .save))
    gate.open()
    await harness.settle()
    harness.expect(
      child: \.rows[id: 1], states: [Row.State(title: "milk", saved: ["milk"])],
      effects: [.row(1, .save("milk"))])
    withKnownIssue {
      harness.expect(child: \.rows[id: 1], states: [nil], effects: [])
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("published child states differ")
    }
    harness.stop()
  }
}
