/// The stopwatch's fakes: only the run's virtual clock, which every app shares.
public struct StopwatchFakes: AppFakes {}

extension StopwatchApp: ConformanceApp {
  public static func makeFakes(_ setup: BasicSetup, context: FakeContext) -> StopwatchFakes {
    StopwatchFakes()
  }

  public static func environment(from fakes: StopwatchFakes, context: FakeContext)
    -> StopwatchEnvironment
  {
    StopwatchEnvironment(clock: context.clock, executor: context.executor)
  }

  public static var scenarios: [Scenario<StopwatchApp>] { stopwatchScenarios }

  public static func randomProgram(using random: inout SeededRandom) -> Scenario<StopwatchApp> {
    var steps: [Step<StopwatchApp>] = []
    for _ in 0..<Int.random(in: 1...24, using: &random) {
      let milliseconds = random.pick([(3, 100), (2, 50), (2, 250), (1, 0), (1, 1_000), (1, 30)])
      steps.append(
        random.pick([
          (4, .send(.start)), (3, .send(.stop)), (1, .send(.reset)), (3, .send(.lap)),
          (6, .advance(.milliseconds(milliseconds))),
          (1, .sendFromObserver(.lap, then: .stop, times: 1)),
        ]))
    }
    if random.pick([(5, false), (1, true)]) {
      steps += [.stop, .send(.start), .advance(.seconds(1))]
    }
    return Scenario("random stopwatch program", rules: [], steps: steps)
  }
}

private func view(_ tenths: Int, running: Bool, laps: [Int] = []) -> StopwatchView {
  StopwatchView(elapsedTenths: tenths, isRunning: running, lapTenths: laps)
}

private let stopwatchScenarios: [Scenario<StopwatchApp>] = [
  Scenario(
    "s1.initial", rules: [.s1, .r1],
    steps: [
      .expectView(.initial), .expectSleepers(0),
      .expectSleepers(0), .advance(.seconds(5)), .expectView(.initial),
    ]),
  Scenario(
    "s2.start-ticks-on-absolute-deadlines", rules: [.s2, .r7, .r8],
    steps: [
      .send(.start),
      .expectView(view(0, running: true)),
      .expectSleepers(1), .advance(.milliseconds(99)), .expectView(view(0, running: true)),
      .advance(.milliseconds(1)), .expectView(view(1, running: true)),
      .advance(.milliseconds(250)), .expectView(view(3, running: true)),
      .advance(.milliseconds(50)), .expectView(view(4, running: true)), .expectSleepers(1),
    ]),
  Scenario(
    "s2.second-start-changes-nothing", rules: [.s2],
    steps: [
      .send(.start), .advance(.milliseconds(50)), .send(.start), .expectSleepers(1),
      .advance(.milliseconds(950)), .expectView(view(10, running: true)),
    ]),
  Scenario(
    "s3.stop-cancels-the-timer", rules: [.s3, .r5],
    steps: [
      .send(.start), .advance(.milliseconds(350)), .send(.stop),
      .expectView(view(3, running: false)),
      .expectSleepers(0), .advance(.seconds(2)), .expectView(view(3, running: false)),
    ]),
  Scenario(
    "s3.stop-while-stopped-changes-nothing", rules: [.s3],
    steps: [.send(.stop), .expectView(.initial), .expectSleepers(0)]),
  Scenario(
    "s3.stop-from-a-tick-notification", rules: [.s3, .r2],
    steps: [
      .send(.start), .advance(.milliseconds(100)),
      .sendFromObserver(.lap, then: .stop, times: 1), .advance(.seconds(1)),
      .expectView(view(1, running: false, laps: [1])), .expectSleepers(0),
    ]),
  Scenario(
    "s4.reset-while-running", rules: [.s4],
    steps: [
      .send(.start), .advance(.milliseconds(500)), .send(.lap), .send(.reset),
      .expectView(.initial),
      .expectSleepers(0), .advance(.seconds(1)), .expectView(.initial),
    ]),
  Scenario(
    "s4.reset-while-stopped", rules: [.s4],
    steps: [
      .send(.start), .advance(.milliseconds(300)), .send(.lap), .send(.stop), .send(.reset),
      .expectView(.initial), .send(.reset), .expectView(.initial),
    ]),
  Scenario(
    "s5.laps-numbered-from-one", rules: [.s5],
    steps: [
      .send(.start), .advance(.milliseconds(1_200)), .send(.lap),
      .expectView(view(12, running: true, laps: [12])),
      .advance(.milliseconds(300)), .send(.lap),
      .expectView(view(15, running: true, laps: [12, 15])),
      .send(.stop), .send(.lap), .expectView(view(15, running: false, laps: [12, 15])),
    ]),
  Scenario(
    "s5.lap-while-stopped-ignored", rules: [.s5],
    steps: [.send(.lap), .expectView(.initial)]),
  Scenario(
    "s6.restart-continues", rules: [.s6, .s2],
    steps: [
      .send(.start), .advance(.milliseconds(250)), .send(.stop), .advance(.milliseconds(30)),
      .send(.start), .advance(.milliseconds(90)), .expectView(view(2, running: true)),
      .advance(.milliseconds(10)), .expectView(view(3, running: true)),
      .advance(.milliseconds(100)), .expectView(view(4, running: true)),
    ]),
  Scenario(
    "s7.format-minutes-unpadded", rules: [.s7, .s8],
    steps: [
      .send(.start), .advance(.milliseconds(59_900)), .expectView(view(599, running: true)),
      .advance(.milliseconds(100)), .expectView(view(600, running: true)),
      .advance(.seconds(3_600)), .expectView(view(36_600, running: true)),
      .advance(.milliseconds(1_500)), .expectView(view(36_615, running: true)),
    ]),
  Scenario(
    "s8.one-second-is-ten-ticks", rules: [.s8, .r8],
    steps: [
      .advance(.milliseconds(1_234)), .send(.start), .advance(.milliseconds(50)),
      .expectView(view(0, running: true)), .advance(.milliseconds(950)),
      .expectView(view(10, running: true)),
    ]),
  Scenario(
    "r6.stop-then-time-passes", rules: [.r6],
    steps: [
      .send(.start), .advance(.milliseconds(200)), .stop, .advance(.seconds(1)),
      .send(.start), .advance(.seconds(1)), .expectView(view(2, running: true)), .expectSleepers(0),
    ]),
  Scenario(
    "r6.release-while-running", rules: [.r6],
    steps: [.send(.start), .advance(.milliseconds(100)), .release, .expectSleepers(0)]),
]
