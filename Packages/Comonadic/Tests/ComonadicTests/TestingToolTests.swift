import Comonadic
import ComonadicTesting
import Testing

/// A small app: a counter whose `.save` input saves through a gate-held task.
enum Saver {
  struct State: Equatable, Sendable {
    var count = 0
    var saved: [Int] = []
  }

  enum Input: Equatable, Sendable {
    case increment
    case save
    case watch
    case unwatch
  }

  static func dispatcher(_ gate: Gate) -> StateDispatcher<Void, State, Input> {
    .workflow { input in
      switch input {
      case .increment:
        [.action(.mutate { $0.count += 1 })]
      case .save:
        [
          .task(id: "save") { _, state in
            await gate.wait()
            return .mutate { $0.saved.append(state.count) }
          },
          .action(.mutate { $0.count = 0 }),
        ]
      case .watch:
        [.stream(id: "watch") { _, _, _ in await gate.wait() }]
      case .unwatch:
        [.cancel(id: "watch")]
      }
    }
  }

  static func render(_ state: State, _: @escaping @Sendable (Input) -> Void) -> String {
    "count \(state.count), saved \(state.saved)"
  }
}

@Suite struct TestDispatcherBehaviour {
  let dispatcher = TestDispatcher(Saver.dispatcher(Gate()), environment: ())

  @Test func runsActionsAndStopsAtTheFirstTask() {
    let outcome = dispatcher.run(.save, from: Saver.State(count: 2))
    #expect(outcome.states.isEmpty)
    #expect(outcome.effects == [.task(id: "save")])
    dispatcher.expect(.increment, from: Saver.State(count: 2)) { $0.count = 3 }
    dispatcher.expect(.watch, from: Saver.State(), effects: [.stream(id: "watch")])
    dispatcher.expect(.unwatch, from: Saver.State(), effects: [.cancel(id: "watch")])
  }

  @Test func aWrongStateFailsWithALineDiff() {
    withKnownIssue {
      dispatcher.expect(.increment, from: Saver.State()) { $0.count = 5 }
    } matching: { issue in
      let text = issue.comments.map(\.rawValue).joined()
      return text.contains("State after increment differs") && text.contains("−   - count: 5")
        && text.contains("+   - count: 1")
    }
  }

  @Test func missingEffectsFailAndNameThem() {
    withKnownIssue {
      dispatcher.expect(.save, from: Saver.State())
    } matching: { issue in
      let text = issue.comments.map(\.rawValue).joined()
      return text.contains("Effects of save differ") && text.contains("task(id: save)")
    }
  }
}

@Suite struct ComponentHarnessBehaviour {
  @Test func sendAssertsEveryViewInOrder() async {
    let gate = Gate()
    let harness = ComponentHarness(
      initialState: Saver.State(), environment: (), dispatcher: Saver.dispatcher(gate),
      render: Saver.render)
    await harness.send(.increment, renders: ["count 1, saved []"])
    await harness.send(.save, renders: [])
    gate.open()
    await harness.renders(["count 1, saved [1]", "count 0, saved [1]"])
    await harness.finish()
  }

  @Test func aWrongViewFailsWithADiff() async {
    let harness = ComponentHarness(
      initialState: Saver.State(), environment: (), dispatcher: Saver.dispatcher(Gate()),
      render: Saver.render)
    await withKnownIssue {
      await harness.send(.increment, renders: ["count 2, saved []"])
    } matching: { issue in
      let text = issue.comments.map(\.rawValue).joined()
      return text.contains("Views rendered after increment differ")
        && text.contains("−   - \"count 2, saved []\"")
        && text.contains("+   - \"count 1, saved []\"")
    }
  }

  @Test func unassertedViewsFailTheNextSendAndFinish() async {
    let gate = Gate()
    let harness = ComponentHarness(
      initialState: Saver.State(), environment: (), dispatcher: Saver.dispatcher(gate),
      render: Saver.render)
    await harness.send(.save, renders: [])
    gate.open()
    await harness.component.idle()
    await withKnownIssue {
      await harness.send(.increment, renders: ["count 1, saved [0]"])
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains(
        "2 view(s) rendered before sending increment were not asserted")
    }
    await harness.send(.increment, renders: ["count 1, saved [0]"])
    harness.component.send(.increment)
    await withKnownIssue {
      await harness.finish()
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("1 rendered view(s) were not asserted")
    }
  }
}
