/// Checks implementations against the spec: scenarios with their expectations, trace equality
/// with a reference (``Implementation`` values named `baseline` in this project), and random
/// programs. Every result is a value; nothing here needs a test framework.
///
/// ```swift
/// let report = await Conformance.report(
///   myCounter, reference: .baseline, programs: 200, seed: 1)
/// for failure in report.failures { print(failure) }
/// ```
public enum Conformance {
  /// Runs one scenario against `implementation` and compares its trace with `reference`'s.
  ///
  /// - Returns: One failure per failed expectation and one for a trace divergence.
  public static func check<App>(
    _ scenario: Scenario<App>, implementation: Implementation<App>,
    reference: Implementation<App>
  ) async -> [ConformanceFailure] {
    let result = await ScenarioRunner.run(scenario, on: implementation)
    let expected = await ScenarioRunner.run(scenario, on: reference)
    var messages = result.failures
    if let divergence = result.trace.firstDivergence(
      from: expected.trace, expectedName: reference.architecture)
    {
      messages.append(divergence)
    }
    return messages.map {
      ConformanceFailure(
        architecture: implementation.architecture, app: App.name, scenario: scenario.name,
        rules: scenario.rules, message: $0)
    }
  }

  /// Generates the program for `seed`, runs it on both implementations and, if their traces
  /// differ, shortens it to a smaller program that still diverges.
  public static func checkProgram<App>(
    seed: UInt64, implementation: Implementation<App>, reference: Implementation<App>,
    as app: App.Type = App.self
  ) async -> ProgramFailure? {
    var random = SeededRandom(seed: seed)
    let program = App.randomProgram(using: &random)
    guard await divergence(program, implementation, reference) != nil else { return nil }
    let shortened = await shrink(program) { await divergence($0, implementation, reference) != nil }
    let message = await divergence(shortened, implementation, reference) ?? "diverges"
    return ProgramFailure(seed: seed, program: shortened.description, message: message)
  }

  /// Runs every scenario and `programs` random programs (seeds `seed`, `seed + 1`, …).
  public static func report<App>(
    _ implementation: Implementation<App>, reference: Implementation<App>,
    scenarios: [Scenario<App>] = App.scenarios, programs: Int = 0, seed: UInt64 = 1,
    knownDeviations: [KnownDeviation] = []
  ) async -> AppReport {
    var report = AppReport(
      architecture: implementation.architecture, app: App.name, scenarios: scenarios.count,
      passed: 0, failures: [], knownDeviations: [], programs: programs, programFailures: [])
    for scenario in scenarios {
      let failures = await check(scenario, implementation: implementation, reference: reference)
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
    for index in 0..<programs {
      if let failure = await checkProgram(
        seed: seed &+ UInt64(index), implementation: implementation, reference: reference)
      {
        report.programFailures.append(failure)
      }
    }
    return report
  }

  /// The first divergence of `program`'s trace on `implementation` from `reference`'s.
  static func divergence<App>(
    _ program: Scenario<App>, _ implementation: Implementation<App>,
    _ reference: Implementation<App>
  ) async -> String? {
    let actual = await ScenarioRunner.run(program, on: implementation)
    let expected = await ScenarioRunner.run(program, on: reference)
    if let divergence = actual.trace.firstDivergence(
      from: expected.trace, expectedName: reference.architecture)
    {
      return divergence
    }
    return actual.failures.first
  }

  /// Removes chunks of steps, halving the chunk size, while `fails` still holds.
  static func shrink<App>(
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
