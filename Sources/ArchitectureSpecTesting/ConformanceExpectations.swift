import ArchitectureSpec
import Foundation

/// Runs `scenario` against `implementation`, compares the trace with `reference`'s, and records
/// every failure at the caller's line: a Swift Testing issue in a `@Test`, an XCTest failure in
/// an XCTest case.
///
/// The first call for an implementation of an app in a test process also runs the
/// stop-and-release race probe (R6, ``Conformance/Options/stressTries``) and records what began
/// after stop or release as a failure of R6 at that call's line; `stressTries: 0` skips it.
///
/// ```swift
/// @Test(arguments: CounterApp.scenarios)
/// func counter(_ scenario: Scenario<CounterApp>) async {
///   await expectConformance(myCounter, scenario: scenario, reference: .baseline)
/// }
/// ```
public func expectConformance<App: ConformanceApp>(
  _ implementation: Implementation<App>, scenario: Scenario<App>, reference: Implementation<App>,
  knownDeviations: [KnownDeviation] = [],
  stressTries: Int = Conformance.Options.defaultStressTries, fileID: StaticString = #fileID,
  filePath: StaticString = #filePath, line: UInt = #line,
  column: UInt = #column
) async {
  let tries = RaceProbes.firstTime(implementation) ? stressTries : 0
  let report = await Conformance.report(
    implementation, reference: reference, scenarios: [scenario],
    options: Conformance.Options(stressTries: tries), knownDeviations: knownDeviations)
  record(report, fileID: fileID, filePath: filePath, line: line, column: column)
}

/// Runs `count` random programs (seeds `seed`, `seed + 1`, …) on `implementation` and
/// `reference` and records every divergence, with its seed and shortened program, as an issue;
/// then runs the stop-and-release race probe (R6) with `stressTries` tries (0 skips it).
public func expectSameTraces<App: ConformanceApp>(
  _ implementation: Implementation<App>, reference: Implementation<App>, programs count: Int,
  seed: UInt64 = 1, stressTries: Int = Conformance.Options.defaultStressTries,
  fileID: StaticString = #fileID, filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) async {
  let report = await Conformance.report(
    implementation, reference: reference, scenarios: [],
    options: Conformance.Options(programs: count, seed: seed, stressTries: stressTries))
  record(report, fileID: fileID, filePath: filePath, line: line, column: column)
}

/// The implementations whose race probe ran in this process: ``expectConformance`` runs it once
/// per implementation of an app, not once per scenario.
private final class RaceProbes: @unchecked Sendable {
  // @unchecked: `probed` is only touched under `lock`.
  private static let shared = RaceProbes()
  private let lock = NSLock()
  private var probed: Set<String> = []

  static func firstTime<App: ConformanceApp>(_ implementation: Implementation<App>) -> Bool {
    let key = "\(App.name)\u{0}\(implementation.architecture)"
    return shared.lock.withLock { shared.probed.insert(key).inserted }
  }
}
/// Records every failure of `report` at the caller's line (see ``expectConformance``).
public func record(
  _ report: AppReport, fileID: StaticString = #fileID, filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) {
  let sourceLocation = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
  for failure in report.failures {
    reportFailure(failure.description, at: sourceLocation)
  }
  for failure in report.programFailures {
    reportFailure("\(report.architecture) · \(report.app) · \(failure)", at: sourceLocation)
  }
}
