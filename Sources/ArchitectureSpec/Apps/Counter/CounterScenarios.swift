extension CounterApp {
  public static var scenarios: [Scenario<CounterApp>] { counterScenarios }

  public static func randomProgram(using random: inout SeededRandom) -> Scenario<CounterApp> {
    let load = random.pick([
      (4, FakeStorage.LoadScript.value(Int.random(in: 0...5, using: &random))),
      (1, .value(nil)), (1, .failure), (1, .value(-3)), (1, .value(maximumCount - 1)),
      (1, .value(maximumCount + 1)), (2, .pending),
    ])
    var steps: [Step<CounterApp>] = []
    for _ in 0..<Int.random(in: 1...24, using: &random) {
      steps.append(
        random.pick([
          (5, .send(.increment)), (4, .send(.decrement)), (1, .send(.reset)),
          (1, .failNextSave), (1, .completeLoad(.value(Int.random(in: 0...3, using: &random)))),
          (1, .sendFromObserver(.increment, then: .decrement, times: 2)),
          (1, .holdSaves), (1, .releaseSaves), (2, .answerSave()), (1, .answerSave(failing: true)),
        ]))
    }
    if random.pick([(5, false), (1, true)]) { steps.append(.stop) }
    steps.append(.send(.increment))
    return Scenario(
      "random counter program", rules: [], setup: CounterSetup(load: load), steps: steps)
  }
}

private let saved = CounterApp.savedMessage
private let unreadable = EnvironmentCall.log(CounterApp.unreadableCountMessage)
private let saveFailed = EnvironmentCall.log(CounterApp.saveFailedMessage)
private let cap = CounterApp.maximumCount

private let counterScenarios: [Scenario<CounterApp>] = [
  Scenario(
    "c1.loading-on-start", rules: [.c1, .r1, .c7], setup: CounterSetup(load: .pending),
    steps: [.expectView(.loading), .expectCalls([.load])]),
  Scenario(
    "c1.load-called-once", rules: [.c1, .r1], setup: CounterSetup(load: .value(4)),
    steps: [.expectView(.ready(count: 4)), .expectCalls([.load])]),
  Scenario(
    "c2.load-value", rules: [.c2], setup: CounterSetup(load: .pending),
    steps: [.completeLoad(.value(5)), .expectView(.ready(count: 5)), .expectCalls([.load])]),
  Scenario(
    "c2.load-nil", rules: [.c2], setup: CounterSetup(load: .value(nil)),
    steps: [.expectView(.ready(count: 0)), .expectCalls([.load])]),
  Scenario(
    "c2.load-throws", rules: [.c2, .r9], setup: CounterSetup(load: .failure),
    steps: [.expectView(.ready(count: 0)), .expectCalls([.load, unreadable])]),
  Scenario(
    "c2.load-negative", rules: [.c2], setup: CounterSetup(load: .value(-1)),
    steps: [.expectView(.ready(count: 0)), .expectCalls([.load, unreadable])]),
  Scenario(
    "c2.load-above-range", rules: [.c2], setup: CounterSetup(load: .value(cap + 1)),
    steps: [.expectView(.ready(count: 0)), .expectCalls([.load, unreadable])]),
  Scenario(
    "c2.load-at-range-limits", rules: [.c2], setup: CounterSetup(load: .value(cap)),
    steps: [.expectView(.ready(count: cap)), .expectCalls([.load])]),
  Scenario(
    "c3.intents-ignored-while-loading", rules: [.c3], setup: CounterSetup(load: .pending),
    steps: [
      .send(.increment), .send(.reset), .send(.decrement), .expectView(.loading),
      .expectCalls([.load]), .completeLoad(.value(2)), .expectView(.ready(count: 2)),
      .send(.increment), .expectView(.ready(count: 3)), .expectCalls([.save(3), .log(saved(3))]),
    ]),
  Scenario(
    "c4.increment", rules: [.c4, .c5],
    steps: [
      .send(.increment), .send(.increment), .expectView(.ready(count: 2)),
      .expectCalls([.load, .save(1), .log(saved(1)), .save(2), .log(saved(2))]),
    ]),
  Scenario(
    "c4.decrement", rules: [.c4, .c5], setup: CounterSetup(load: .value(2)),
    steps: [
      .send(.decrement), .expectView(.ready(count: 1)),
      .expectCalls([.load, .save(1), .log(saved(1))]),
    ]),
  Scenario(
    "c4.decrement-at-zero-changes-nothing", rules: [.c4, .c5],
    steps: [
      .send(.decrement), .expectView(.ready(count: 0)), .expectCalls([.load]),
    ]),
  Scenario(
    "c4.increment-at-cap-changes-nothing", rules: [.c4, .c5],
    setup: CounterSetup(load: .value(cap)),
    steps: [.send(.increment), .expectView(.ready(count: cap)), .expectCalls([.load])]),
  Scenario(
    "c4.reset", rules: [.c4, .c5], setup: CounterSetup(load: .value(7)),
    steps: [
      .send(.reset), .expectView(.ready(count: 0)),
      .expectCalls([.load, .save(0), .log(saved(0))]),
      .send(.reset), .expectCalls([]),
    ]),
  Scenario(
    "c5.save-then-log", rules: [.c5], setup: CounterSetup(load: .value(1)),
    steps: [
      .send(.increment), .send(.decrement),
      .expectCalls([.load, .save(2), .log(saved(2)), .save(1), .log(saved(1))]),
    ]),
  Scenario(
    "c5.change-while-save-held-waits", rules: [.c5], setup: CounterSetup(load: .value(1)),
    steps: [
      .holdSaves, .send(.increment), .expectView(.ready(count: 2)),
      .expectCalls([.load, .save(2)]),
      .send(.increment), .expectView(.ready(count: 3)), .expectCalls([]),
      .answerSave(), .expectCalls([.log(saved(2)), .save(3)]),
      .answerSave(), .expectCalls([.log(saved(3))]),
    ]),
  Scenario(
    "c5.every-change-saved-in-order", rules: [.c5], setup: CounterSetup(load: .value(5)),
    steps: [
      .holdSaves, .send(.increment), .send(.decrement), .send(.decrement), .send(.reset),
      .expectView(.ready(count: 0)), .expectCalls([.load, .save(6)]),
      .answerSave(), .expectCalls([.log(saved(6)), .save(5)]),
      .answerSave(), .expectCalls([.log(saved(5)), .save(4)]),
      .answerSave(), .expectCalls([.log(saved(4)), .save(0)]),
      .answerSave(), .expectCalls([.log(saved(0))]), .answerSave(), .expectCalls([]),
    ]),
  Scenario(
    "c5.failed-held-save", rules: [.c5, .c6], setup: CounterSetup(load: .value(0)),
    steps: [
      .holdSaves, .send(.increment), .send(.increment), .expectCalls([.load, .save(1)]),
      .answerSave(failing: true), .expectView(.ready(count: 2)),
      .expectCalls([saveFailed, .save(2)]),
      .releaseSaves, .expectCalls([.log(saved(2))]),
      .send(.decrement), .expectCalls([.save(1), .log(saved(1))]),
    ]),
  Scenario(
    "c6.failed-save-keeps-count", rules: [.c6, .r9], setup: CounterSetup(load: .value(1)),
    steps: [
      .failNextSave, .send(.increment), .expectView(.ready(count: 2)),
      .expectCalls([.load, .save(2), saveFailed]),
      .send(.increment), .expectView(.ready(count: 3)), .expectCalls([.save(3), .log(saved(3))]),
    ]),
  Scenario(
    "c7.flags-follow-count", rules: [.c7],
    steps: [
      .expectView(
        CounterView(
          status: .ready, count: 0, text: "Count: 0", canDecrement: false, canReset: false)),
      .send(.increment),
      .expectView(
        CounterView(status: .ready, count: 1, text: "Count: 1", canDecrement: true, canReset: true)),
      .send(.decrement), .expectView(.ready(count: 0)),
    ]),
  Scenario(
    "r2.observer-sends-are-queued", rules: [.r2, .r10],
    steps: [
      .sendFromObserver(.increment, then: .increment, times: 1_000),
      .expectView(.ready(count: 1_001)),
    ]),
  Scenario(
    "r3.concurrent-sends", rules: [.r3],
    steps: [
      .sendConcurrently(.increment, senders: 8, each: 250), .expectView(.ready(count: 2_000)),
    ]),
  Scenario(
    "r6.stop-ignores-later-intents", rules: [.r6], setup: CounterSetup(load: .value(3)),
    steps: [
      .stop, .send(.increment), .send(.reset), .expectView(.ready(count: 3)), .expectCalls([.load]),
    ]),
  Scenario(
    "r6.stop-cancels-pending-load", rules: [.r6, .r5], setup: CounterSetup(load: .pending),
    steps: [
      .stop, .expectCalls([.load, .cancelled(.load)]), .completeLoad(.value(9)),
      .expectView(.loading), .expectCalls([]),
    ]),
  Scenario(
    "r6.load-answered-after-stop-is-ignored", rules: [.r6, .r5],
    setup: CounterSetup(load: .pending, honorsCancellation: false),
    steps: [
      .stop, .completeLoad(.value(9)), .expectView(.loading),
      .expectCalls([.load, .cancelled(.load)]),
    ]),
  Scenario(
    "r6.release-cancels-pending-load", rules: [.r6], setup: CounterSetup(load: .pending),
    steps: [.release, .expectCalls([.load, .cancelled(.load)])]),
  Scenario(
    "r10.no-notification-without-change", rules: [.r10], setup: CounterSetup(load: .value(0)),
    steps: [.send(.decrement), .send(.reset), .expectView(.ready(count: 0)), .expectCalls([.load])]),
]
