import ArchitectureSpec

/// Runs `scenario` against `implementation`, compares the trace with `reference`'s, and records
/// every failure at the caller's line: a Swift Testing issue in a `@Test`, an XCTest failure in
/// an XCTest case.
///
/// ```swift
/// @Test(arguments: CounterApp.scenarios)
/// func counter(_ scenario: Scenario<CounterApp>) async {
///   await expectConformance(myCounter, scenario: scenario, reference: .baseline)
/// }
/// ```
public func expectConformance<App: ConformanceApp>(
  _ implementation: Implementation<App>, scenario: Scenario<App>, reference: Implementation<App>,
  knownDeviations: [KnownDeviation] = [], fileID: StaticString = #fileID,
  filePath: StaticString = #filePath, line: UInt = #line,
  column: UInt = #column
) async {
  let report = await Conformance.report(
    implementation, reference: reference, scenarios: [scenario], knownDeviations: knownDeviations)
  record(report, fileID: fileID, filePath: filePath, line: line, column: column)
}

/// Runs `count` random programs (seeds `seed`, `seed + 1`, …) on `implementation` and
/// `reference` and records every divergence, with its seed and shortened program, as an issue.
public func expectSameTraces<App: ConformanceApp>(
  _ implementation: Implementation<App>, reference: Implementation<App>, programs count: Int,
  seed: UInt64 = 1, fileID: StaticString = #fileID, filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) async {
  let report = await Conformance.report(
    implementation, reference: reference, scenarios: [], programs: count, seed: seed)
  record(report, fileID: fileID, filePath: filePath, line: line, column: column)
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
