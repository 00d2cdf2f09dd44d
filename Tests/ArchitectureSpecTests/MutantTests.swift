import ArchitectureSpec
import ArchitectureSpecTesting
import Baseline
import Foundation
import Testing

/// Deliberately broken variants of the baseline, each reproducing a bug of an original library.
/// Every one must be caught by the suite with a readable first-divergence message.
@Suite("Mutants are caught")
struct MutantTests {
  /// Runs `scenario` against the mutant and expects the suite to report `message`.
  func expectCaught<App: ConformanceApp>(
    _ mutant: Implementation<App>, reference: Implementation<App>, _ scenarioName: String,
    reporting message: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let scenario = try #require(
      App.scenarios.first { $0.name == scenarioName }, sourceLocation: sourceLocation)
    let seen = Lines()
    await withKnownIssue {
      // The race probe has tests of its own; here each mutant fails only what it breaks.
      await expectConformance(mutant, scenario: scenario, reference: reference, stressTries: 0)
    } matching: { issue in
      let text = issue.comments.map(\.rawValue).joined(separator: "\n")
      seen.append(text)
      return text.hasPrefix("mutant · \(App.name) · \(scenarioName)")
    }
    #expect(
      seen.all.contains { $0.contains(message) },
      "expected a failure containing:\n\(message)\nreported:\n\(seen.all.joined(separator: "\n---\n"))",
      sourceLocation: sourceLocation)
  }

  @Test func nestedDispatchIsCaught() async throws {
    try await expectCaught(
      Implementation<CounterApp>.baseline(defects: .nestsMessages), reference: .baseline,
      "r2.observer-sends-are-queued",
      reporting: """
        Trace diverges from baseline at step 1 (send increment, then increment from the observer × 1000):
          calls differ at #1:
            expected [→ save(1), log("count: 1"), save(2), …1999 more] (2002)
            actual   [→ save(1001), log("count: 1001"), save(1000), …1999 more] (2002)
          views differ at #1:
            expected [→ Count: 1 [- reset], Count: 2 [- reset], Count: 3 [- reset], …998 more] (1001)
            actual   [→ Count: 1001 [- reset], Count: 1000 [- reset], Count: 999 [- reset], …998 more] (1001)
        """)
  }

  @Test func lostConcurrentUpdatesAreCaught() async throws {
    try await expectCaught(
      Implementation<CounterApp>.baseline(defects: .losesConcurrentUpdates), reference: .baseline,
      "r3.concurrent-sends",
      reporting: "view differs: count: expected 2000, actual ")
  }

  @Test func lostStartupEventIsCaught() async throws {
    try await expectCaught(
      Implementation<CounterApp>.baseline(defects: .losesStartupEvent), reference: .baseline,
      "c1.load-called-once",
      reporting: """
        Trace diverges from baseline at step 0 (start):
          views differ at #2:
            expected [Loading…, → Count: 4 [- reset]] (2)
            actual   [Loading…] (1)
        """)
  }

  @Test func resultAppliedAfterStopIsCaught() async throws {
    try await expectCaught(
      Implementation<WeatherApp>.baseline(defects: .appliesResultsAfterStop), reference: .baseline,
      "r6.result-after-stop-ignored",
      reporting: """
        Trace diverges from baseline at step 3 (stop):
          calls differ at #1:
            expected [→ cancelled search("ber")] (1)
            actual   [] (0)
        """)
  }

  @Test func secondTimerIsCaught() async throws {
    try await expectCaught(
      Implementation<StopwatchApp>.baseline(defects: .startsSecondTimer), reference: .baseline,
      "s2.second-start-changes-nothing",
      reporting: "expected 1 sleeper(s) on the clock, found 2")
    try await expectCaught(
      Implementation<StopwatchApp>.baseline(defects: .startsSecondTimer), reference: .baseline,
      "s2.second-start-changes-nothing",
      reporting: "Trace diverges from baseline at step 5 (advance 950 ms)")
  }

  @Test func tickAfterStopIsCaught() async throws {
    try await expectCaught(
      Implementation<StopwatchApp>.baseline(defects: .appliesTicksAfterStop), reference: .baseline,
      "s3.stop-cancels-the-timer",
      reporting: """
        Trace diverges from baseline at step 6 (advance 2000 ms):
          views differ at #1:
            expected [] (0)
            actual   [→ 0:00.4 stopped
        """)
  }

  @Test func staleSearchResultIsCaught() async throws {
    try await expectCaught(
      Implementation<WeatherApp>.baseline(defects: .appliesStaleSearchResults),
      reference: .baseline,
      "w4.late-result-of-superseded-search-ignored",
      reporting: """
        Trace diverges from baseline at step 4 (advance 300 ms):
          calls differ at #1:
            expected [→ cancelled search("ber"), search("bern")] (2)
            actual   [→ search("bern")] (1)
        """)
  }

  @Test func saveAndLogSwappedIsCaught() async throws {
    try await expectCaught(
      Implementation<CounterApp>.baseline(defects: .logsBeforeSaving), reference: .baseline,
      "c5.save-then-log",
      reporting: """
        Trace diverges from baseline at step 1 (send increment):
          calls differ at #1:
            expected [→ save(2), log("count: 2")] (2)
            actual   [→ log("count: 2"), save(2)] (2)
        """)
  }

  @Test func overlappingCounterSavesAreCaught() async throws {
    try await expectCaught(
      Implementation<CounterApp>.baseline(defects: .overlapsSaves), reference: .baseline,
      "c5.change-while-save-held-waits",
      reporting: """
        mutant · counter · c5.change-while-save-held-waits [C5]
        Trace diverges from baseline at step 5 (send increment):
          calls differ at #1:
            expected [] (0)
            actual   [→ save(3)] (1)
        """)
  }

  @Test func notificationForAnUnchangedViewIsCaught() async throws {
    try await expectCaught(
      Implementation<CounterApp>.baseline(defects: .notifiesUnchangedViews), reference: .baseline,
      "r10.no-notification-without-change",
      reporting: """
        Trace diverges from baseline at step 1 (send decrement):
          R10: the root observer was called 1 time(s), baseline 0: it is called exactly when \
        the view changed, never for a message that left it as it was
        """)
  }

  @Test func notificationsForUnchangedViewsAreCaughtInEveryApp() async {
    // Not only the scenario written for R10: every app's suite compares the count.
    let counter = await Conformance.report(
      Implementation<CounterApp>.baseline(defects: .notifiesUnchangedViews), reference: .baseline,
      options: .init(stressTries: 0))
    let todos = await Conformance.report(
      Implementation<TodosApp>.baseline(defects: .notifiesUnchangedViews), reference: .baseline,
      options: .init(stressTries: 0))
    for report in [counter, todos] {
      #expect(report.failures.count > 1, "\(report.app): \(report.failures.count) failure(s)")
      let others = report.failures.filter { !$0.message.contains("R10: ") }
      #expect(others.isEmpty, "\(others.map(\.description).joined(separator: "\n"))")
    }
  }

  /// Whether to measure the race probe's power: in a process of its own (CI's step after the
  /// whole suite; `ARCH_MEASURE_RACE_PROBE=1 swift test --filter …`). The probe is timing-based:
  /// beside the whole suite on two cores it catches this mutant in fewer runs, which says how
  /// loaded the machine is, not how sharp the probe is.
  static let measuresRaceProbe =
    ProcessInfo.processInfo.environment["ARCH_MEASURE_RACE_PROBE"] == "1"

  @Test(.enabled(if: measuresRaceProbe, "runs alone: ARCH_MEASURE_RACE_PROBE=1"))
  func workBegunAfterStopOutsideAGateIsCaughtByDefault() async {
    // The default race probe, run 20 times, catches a counter that checks "still running"
    // and then saves and logs outside its gate (the issue's bar: at least 19 of 20).
    let mutant = Implementation<CounterApp>.baseline(defects: .logsOutsideGate)
    var caught = 0
    var example = ""
    for run in 0..<20 {
      let report = await Conformance.report(
        mutant, reference: .baseline, scenarios: [],
        options: .init(seed: UInt64(run) + 1))
      if let failure = report.failures.first(where: { $0.scenario == Conformance.raceProbeName }) {
        caught += 1
        example = failure.description
      }
    }
    #expect(caught >= 19, "caught in \(caught) of 20 runs")
    #expect(example.hasPrefix("mutant · counter · r6.stop-and-release-race [R6]"), "\(example)")
    #expect(example.contains("began after"), "\(example)")
  }

  @Test func theRaceProbeNeverFailsTheBaseline() async {
    for run in 0..<5 {
      let counter = await Conformance.report(
        Implementation<CounterApp>.baseline, reference: .baseline, scenarios: [],
        options: .init(seed: UInt64(run) + 1))
      #expect(counter.failures.isEmpty, "\(counter.failures)")
      #expect(counter.raceProbe?.tries == Conformance.Options.defaultStressTries)
    }
  }

  @Test func contactsMutantsAreCaught() async throws {
    // Each a plausible wrong navigation: the scenario that shows it, and what it reports.
    let cases: [(BaselineDefects, String, String)] = [
      (
        .keepsDismissedCreate, "r13.cancelled-form-cancels-its-create",
        "expected [create(\"Dee\"), → cancelled create(\"Dee\")] (2)"
      ),
      (
        .matchesAnswersByContact, "r13.popped-screens-late-answer-never-lands-in-a-newer-screen",
        #"actual [[2] #1 loaded "old"]"#
      ),
      (
        .reusesScreenIDs, "n5.screen-ids-are-never-reused",
        #"actual [[1] #1 loaded "Details of #1", [2] #3 loaded "Details of #3"]"#
      ),
      (
        .closesOnlyThatScreen, "n5.close-removes-the-screen-and-those-above",
        "views differ"
      ),
      (
        .keepsScreensOfDeletedContact, "n4.confirm-removes-every-screen-of-the-contact",
        "views of child screen 1 differ"
      ),
      (.stackReachableUnderAlert, "n2.alert-covers-list-and-stack", "view differs"),
      (.forgetsRemovedScreens, "n5.screen-ids-are-never-reused", "views of child screen 2 differ"),
    ]
    for (defect, scenario, message) in cases {
      try await expectCaught(
        Implementation<ContactsApp>.baseline(defects: defect), reference: .baseline, scenario,
        reporting: message)
    }
  }

  @Test func randomProgramsFindAndShortenADivergence() async throws {
    let mutant = Implementation<CounterApp>.baseline(defects: .logsBeforeSaving)
    var found: ProgramFailure?
    for seed in UInt64(1)...50 where found == nil {
      found = await Conformance.checkProgram(
        seed: seed, implementation: mutant, reference: .baseline)
    }
    let failure = try #require(found)
    let steps = failure.program.split(separator: "\n").dropFirst().filter { !$0.contains("setup:") }
    #expect(steps.count == 1, "shortened to \(failure.program)")
    #expect(failure.message.contains("Trace diverges from mutant") == false)
    #expect(failure.message.hasPrefix("Trace diverges from baseline at step 1"))
    let again = await Conformance.checkProgram(
      seed: failure.seed, implementation: mutant, reference: .baseline)
    #expect(again == failure, "the seed reproduces the failure")
  }
}
