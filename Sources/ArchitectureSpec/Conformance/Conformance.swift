/// Checks implementations against the spec: scenarios with their expectations, trace equality
/// with a reference (``Implementation`` values named `baseline` in this project), and random
/// programs. Every result is a value; nothing here needs a test framework.
///
/// ```swift
/// let report = await Conformance.report(
///   myCounter, reference: .baseline, options: .init(programs: 200, seed: 1))
/// for failure in report.failures { print(failure) }
/// ```
///
/// From a plain executable, call it from a detached task (`Task.detached { … }`) or an `async`
/// main: the kit waits on executors of its own, never on the main thread, but a runner that
/// blocks the main thread while the check runs on the main actor waits for itself.
public enum Conformance {
  /// How a report runs.
  public struct Options: Sendable, Hashable {
    /// Random programs per app (seeds `seed`, `seed + 1`, …).
    public var programs: Int
    public var seed: UInt64
    /// How many times each scenario runs; runs whose trace differs from the reference's are
    /// counted, to expose traces that depend on thread timing.
    public var repeats: Int
    /// How long one run of one scenario may take in real time before it counts as hung.
    public var timeLimit: Duration
    /// Tries of the stop-and-release race probe (``Stress``), half stopped, half released: what
    /// began after `stop()` returned or after the last reference was dropped fails R6. 0 skips
    /// it.
    public var stressTries: Int

    /// The race probe's tries unless a caller says otherwise: enough to catch, in at least 19
    /// runs of 20, a runtime whose effects check "still running" and then save or log outside
    /// anything `stop()` waits for (the project's mutant tests measure it).
    public static let defaultStressTries = 32

    public init(
      programs: Int = 0, seed: UInt64 = 1, repeats: Int = 1, timeLimit: Duration = .seconds(300),
      stressTries: Int = Options.defaultStressTries
    ) {
      self.programs = programs
      self.seed = seed
      self.repeats = max(1, repeats)
      self.timeLimit = timeLimit
      self.stressTries = max(0, stressTries)
    }
  }

  /// Runs one scenario against `implementation` and compares its trace with `reference`'s.
  ///
  /// - Returns: One failure per failed expectation and one for a trace divergence.
  public static func check<App: ConformanceApp>(
    _ scenario: Scenario<App>, implementation: Implementation<App>,
    reference: Implementation<App>, timeLimit: Duration = .seconds(300)
  ) async -> [ConformanceFailure] {
    await checkRepeatedly(
      scenario, implementation: implementation, reference: reference, repeats: 1,
      timeLimit: timeLimit
    ).failures
  }

  /// Runs `scenario` once on `reference` and `repeats` times on `implementation`.
  ///
  /// - Returns: The failures of the first diverging run (with how many runs diverged when
  ///   not all did) and the number of diverging runs.
  static func checkRepeatedly<App: ConformanceApp>(
    _ scenario: Scenario<App>, implementation: Implementation<App>,
    reference: Implementation<App>, repeats: Int, timeLimit: Duration
  ) async -> (failures: [ConformanceFailure], divergingRuns: Int) {
    func failure(_ message: String) -> ConformanceFailure {
      ConformanceFailure(
        architecture: implementation.architecture, app: App.name, scenario: scenario.name,
        rules: scenario.rules, message: message)
    }
    let seconds = timeLimit.components.seconds
    guard
      let expected = await withTimeLimit(
        timeLimit, { await ScenarioRunner.run(scenario, on: reference) })
    else {
      return (
        [failure("the reference \(reference.architecture) did not finish within \(seconds) s")], 1
      )
    }
    var first: [String]?
    var diverging = 0
    for _ in 0..<repeats {
      var messages: [String]
      if let result = await withTimeLimit(
        timeLimit, { await ScenarioRunner.run(scenario, on: implementation) })
      {
        messages = result.failures
        if let divergence = result.trace.firstDivergence(
          from: expected.trace, expectedName: reference.architecture)
        {
          messages.append(divergence)
        }
      } else {
        messages = [
          "hangs: the scenario did not finish within \(seconds) s (a deadlock, or a step that "
            + "never becomes idle)"
        ]
      }
      if !messages.isEmpty {
        diverging += 1
        if first == nil { first = messages }
      }
      // A hung run keeps its thread; running it again would only pile more up.
      if messages.first?.hasPrefix("hangs:") == true { break }
    }
    guard var messages = first else { return ([], 0) }
    if repeats > 1, diverging < repeats {
      messages = messages.map {
        "diverged in \(diverging) of \(repeats) runs (the outcome depends on thread timing); "
          + "the first diverging run:\n\($0)"
      }
    }
    return (messages.map(failure), diverging)
  }

  /// Generates the program for `seed`, runs it on both implementations and, if their traces
  /// differ, shortens it to a smaller program that still diverges.
  public static func checkProgram<App: ConformanceApp>(
    seed: UInt64, implementation: Implementation<App>, reference: Implementation<App>,
    as app: App.Type = App.self, timeLimit: Duration = .seconds(300)
  ) async -> ProgramFailure? {
    var random = SeededRandom(seed: seed)
    let program = App.randomProgram(using: &random)
    guard
      let original = await divergence(
        program, implementation, reference, timeLimit: timeLimit)
    else { return nil }
    let shortened = await shrink(program) {
      await divergence($0, implementation, reference, timeLimit: timeLimit) != nil
    }
    if let message = await divergence(shortened, implementation, reference, timeLimit: timeLimit) {
      return ProgramFailure(seed: seed, program: shortened.description, message: message)
    }
    // The failure depends on timing: keep the program and the message it first gave.
    return ProgramFailure(
      seed: seed, program: program.description,
      message: "diverged once and did not reproduce while shortening (the outcome depends on "
        + "thread timing); the original failure:\n\(original)")
  }

  /// Runs every scenario and random programs as `options` say.
  public static func report<App: ConformanceApp>(
    _ implementation: Implementation<App>, reference: Implementation<App>,
    scenarios: [Scenario<App>] = App.scenarios, options: Options = Options(),
    knownDeviations: [KnownDeviation] = []
  ) async -> AppReport {
    var report = AppReport(
      architecture: implementation.architecture, app: App.name, scenarios: scenarios.count,
      passed: 0, failures: [], knownDeviations: [], programs: options.programs,
      programFailures: [], repeats: options.repeats, divergingRuns: 0,
      rulesMetByGlue: await rulesMetByGlue(implementation))
    for scenario in scenarios {
      let (failures, diverging) = await checkRepeatedly(
        scenario, implementation: implementation, reference: reference,
        repeats: options.repeats, timeLimit: options.timeLimit)
      report.divergingRuns += diverging
      let known = knownDeviations.first {
        $0.architecture == implementation.architecture && $0.app == App.name
          && $0.scenario == scenario.name
      }
      switch (known, failures.isEmpty) {
      case (nil, true):
        report.passed += 1
      case (nil, false):
        report.failures += failures
      case (let known?, false):
        report.knownDeviations.append(known)
      case (let known?, true):
        report.failures.append(
          ConformanceFailure(
            architecture: implementation.architecture, app: App.name, scenario: scenario.name,
            rules: scenario.rules,
            message:
              "known deviation no longer reproduces (\(known.reason)); remove it from the list"))
      }
    }
    for index in 0..<options.programs {
      if let failure = await checkProgram(
        seed: options.seed &+ UInt64(index), implementation: implementation,
        reference: reference, timeLimit: options.timeLimit)
      {
        report.programFailures.append(failure)
      }
    }
    if options.stressTries > 0,
      let probe = await raceProbe(implementation, tries: options.stressTries, seed: options.seed)
    {
      report.raceProbe = probe
      if let failure = raceFailure(probe) { report.failures.append(failure) }
    }
    return report
  }

  /// The name under which the race probe's late events are reported.
  public static let raceProbeName = "r6.stop-and-release-race"

  /// Runs the stop-and-release race probe when `App` has a stress environment.
  static func raceProbe<App: ConformanceApp>(
    _ implementation: Implementation<App>, tries: Int, seed: UInt64
  ) async -> Stress.Report? {
    guard let stressApp = App.self as? any StressApp.Type else { return nil }
    return await raceProbe(stressApp, implementation, tries: tries, seed: seed)
  }

  private static func raceProbe<Stressed: StressApp, App: ConformanceApp>(
    _ app: Stressed.Type, _ implementation: Implementation<App>, tries: Int, seed: UInt64
  ) async -> Stress.Report? {
    guard let typed = implementation as? Implementation<Stressed> else { return nil }
    return await Stress.run(typed, tries: tries, seed: seed)
  }

  /// The probe's late events as a failure of R6, with the examples it saw.
  static func raceFailure(_ probe: Stress.Report) -> ConformanceFailure? {
    guard !probe.isClean else { return nil }
    let kinds = probe.triesWith.sorted { $0.key < $1.key }.map { kind, tries in
      "\(kind) in \(tries) of \(probe.tries) tries"
    }
    let message =
      "R6: stopped or released while two threads sent, the runtime began work afterwards: "
      + kinds.joined(separator: ", ") + ". For example:\n"
      + probe.examples.map { "  \($0)" }.joined(separator: "\n")
      + "\nA save, a log or an observer call must begin inside something stop() waits for "
      + "(RunGate, a lock, an actor), or not at all."
    return ConformanceFailure(
      architecture: probe.architecture, app: probe.app, scenario: raceProbeName, rules: [.r6],
      message: message)
  }

  /// Runs every scenario and `programs` random programs (seeds `seed`, `seed + 1`, …).
  public static func report<App: ConformanceApp>(
    _ implementation: Implementation<App>, reference: Implementation<App>,
    scenarios: [Scenario<App>] = App.scenarios, programs: Int, seed: UInt64 = 1,
    knownDeviations: [KnownDeviation] = []
  ) async -> AppReport {
    await report(
      implementation, reference: reference, scenarios: scenarios,
      options: Options(programs: programs, seed: seed), knownDeviations: knownDeviations)
  }

  /// What the implementation's driver says its glue takes care of.
  static func rulesMetByGlue<App: ConformanceApp>(_ implementation: Implementation<App>) async
    -> [String]
  {
    let fakes = FakeEnvironment<App>()
    let rules = implementation.makeDriver(fakes.environment).rulesMetByGlue
    await fakes.finish()
    return rules
  }

  /// The first divergence of `program`'s trace on `implementation` from `reference`'s.
  static func divergence<App: ConformanceApp>(
    _ program: Scenario<App>, _ implementation: Implementation<App>,
    _ reference: Implementation<App>, timeLimit: Duration
  ) async -> String? {
    guard
      let actual = await withTimeLimit(
        timeLimit, { await ScenarioRunner.run(program, on: implementation) })
    else { return "hangs: the program did not finish within \(timeLimit.components.seconds) s" }
    guard
      let expected = await withTimeLimit(
        timeLimit, { await ScenarioRunner.run(program, on: reference) })
    else { return nil }
    if let divergence = actual.trace.firstDivergence(
      from: expected.trace, expectedName: reference.architecture)
    {
      return divergence
    }
    return actual.failures.first
  }

  /// Removes chunks of steps, halving the chunk size, while `fails` still holds.
  static func shrink<App: ConformanceApp>(
    _ program: Scenario<App>, maximumRuns: Int = 200,
    fails: (Scenario<App>) async -> Bool
  ) async -> Scenario<App> {
    var best = program
    var runs = 0
    var chunk = max(1, best.steps.count / 2)
    while chunk >= 1, runs < maximumRuns {
      var start = 0
      while start < best.steps.count, runs < maximumRuns {
        var candidate = best
        candidate.steps.removeSubrange(start..<min(start + chunk, candidate.steps.count))
        runs += 1
        if await fails(candidate) { best = candidate } else { start += chunk }
      }
      if chunk == 1 { break }
      chunk /= 2
    }
    return best
  }
}
