import LayerCore
import LayerCoreTesting
import Testing

@Suite struct CoreHarnessBehaviour {
  @Test func recordsPerEventWhatEachLayerReceivedAndEmitted() async {
    let work = WorkMachine()
    let harness = CoreHarness(TallyCore(view: ViewMachine(), work: work, load: 4))
    await harness.start()
    harness.expect(events: [.loaded(4)], state: Counter(count: 4))
    harness.expect(layer: 0, received: [4])
    harness.expect(layer: 1, emitted: [.loaded(4)])

    await harness.send(.wait(5), .touch)
    harness.expect(layer: 2, received: [WorkInput(Counter(count: 4)), waiting(5)])
    work.gate.open()
    await harness.settle()
    harness.expect(
      events: [.wait(5), .touch, .echoed(5)],
      state: Counter(count: 4, results: [5], requests: 1))
    harness.expect(layer: 2, emitted: [.echoed(5)])
    harness.expect(layer: 0, received: [4, 4])  // a set state reaches every layer, changed or not

    let steps = harness.steps
    #expect(steps.map(\.event) == [nil, .loaded(4), .wait(5), .touch, .echoed(5)])
    #expect(steps.map { $0.state?.count } == [nil, 4, 4, nil, 4])  // `touch` skips
    #expect(steps[3].received.allSatisfy { $0.isEmpty })
    #expect(steps[2].emitted == [[], [], []])
    #expect(steps[4].received[0].compactMap { $0 as? Int } == [4])
    #expect(steps[0].emitted[1] == [.loaded(4)])
  }

  @Test func eventsALayerEmitsInsideProcessBelongToTheStepThatCausedThem() async {
    let view = ViewMachine { count, callback in if count == 5 { callback(.increment) } }
    let harness = CoreHarness(TallyCore(view: view, work: WorkMachine(), load: 4))
    await harness.start()
    await harness.send(.increment)
    let steps = harness.steps
    #expect(steps.map(\.event) == [nil, .loaded(4), .increment, .increment])
    #expect(steps[2].emitted[0] == [.increment])
    #expect(harness.state?.count == 6)
  }

  @Test func stopDropsLateResults() async {
    let work = WorkMachine()
    let harness = CoreHarness(TallyCore(view: ViewMachine(), work: work))
    await harness.start()
    await harness.send(.wait(1))
    harness.stop()
    work.gate.open()
    await harness.settle()
    harness.expect(events: [.loaded(0), .wait(1)])
    #expect(harness.state?.results == [])
  }

  @Test func wrongEventsAndStateFailWithBothListsAndALineDiff() async {
    let harness = CoreHarness(TallyCore(view: ViewMachine(), work: WorkMachine(), load: 4))
    await harness.start()
    withKnownIssue {
      harness.expect(events: [.increment], state: Counter(count: 5))
    } matching: { issue in
      let message = issue.comments.map(\.rawValue).joined()
      return message.contains(
        "events reduced differ:\n  expected: [increment]\n  actual:   [loaded(4)]")
        && message.contains("state differs: (− expected, + actual)")
        && message.contains("−   - count: 5") && message.contains("+   - count: 4")
    }
  }

  @Test func aStateNeverSetIsReportedAsNil() async {
    let harness = CoreHarness(TallyCore(view: ViewMachine(), work: WorkMachine(), load: nil))
    await harness.start()
    withKnownIssue {
      harness.expect(events: [], state: Counter())
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains(
        "state differs: expected Counter(count: 0")
        && issue.comments.map(\.rawValue).joined().hasSuffix("actual nil (never set)")
    }
  }

  @Test func wrongInputsFailWithADiffAndWrongTypesSayWhatTheLayerGets() async {
    let harness = CoreHarness(TallyCore(view: ViewMachine(), work: WorkMachine(), load: 4))
    await harness.start()
    await harness.send(.increment)
    withKnownIssue {
      harness.expect(layer: 0, received: [4, 6])
    } matching: { issue in
      let message = issue.comments.map(\.rawValue).joined()
      return message.contains("layer 0 received differently: (− expected, + actual)")
        && message.contains("−   - 6") && message.contains("+   - 5")
    }
    await harness.send(.increment)
    withKnownIssue {
      harness.expect(layer: 0, received: ["6"])
    } matching: { issue in
      issue.comments.map(\.rawValue).joined() == "layer 0 receives Int, not String: received [6]"
    }
  }

  @Test func wrongEmissionsAndUnknownLayersFail() async {
    let harness = CoreHarness(TallyCore(view: ViewMachine(), work: WorkMachine(), load: 4))
    await harness.start()
    withKnownIssue {
      harness.expect(layer: 1, emitted: [])
    } matching: { issue in
      issue.comments.map(\.rawValue).joined()
        == "layer 1 emitted:\n  expected: []\n  actual:   [loaded(4)]"
    }
    withKnownIssue {
      harness.expect(layer: 3, emitted: [])
    } matching: { issue in
      issue.comments.map(\.rawValue).joined() == "no layer 3: the core has 3 layers"
    }
  }
}

/// The work layer's input once `.wait(value)` was the first request.
private func waiting(_ value: Int) -> WorkInput {
  WorkInput(Counter(count: 4, request: Request(id: 1, value: value), requests: 1))
}

@Suite struct CoreHarnessChildren {
  @Test func aMountedChildsLayersAreCheckedByTheChildsNames() async {
    let harness = CoreHarness(ParentCore())
    await harness.start()
    await harness.send(.child(.increment))
    // The child's layer 0 (its view) got the child's counts; layer 1 (its storage) loaded.
    harness.expect(child: \.child, layer: 0, received: [0, 1])
    harness.expect(child: \.child, layer: 1, emitted: [.child(.loaded(0))])
    // The row list is the parent's own layer after the child's three.
    harness.expect(layer: 3, received: [Row]())
  }

  @Test func aWrongChildExpectationFailsWithTheChildsNames() async {
    let harness = CoreHarness(ParentCore())
    await harness.start()
    withKnownIssue {
      harness.expect(child: \.child, layer: 0, received: [5])
    } matching: { issue in
      let message = issue.comments.map(\.rawValue).joined()
      return message.contains("received differently") && message.contains("5")
    }
    withKnownIssue {
      harness.expect(child: \.child, layer: 7, received: [Int]())
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("no layer 7 in the child at")
    }
  }
}
