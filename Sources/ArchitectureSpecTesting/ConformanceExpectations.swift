import ArchitectureSpec

/// Runs `scenario` against `implementation`, compares the trace with `reference`'s, and records
/// every failure as a Swift Testing issue at the caller's source location.
///
/// ```swift
/// @Test(arguments: CounterApp.scenarios)
/// func counter(_ scenario: Scenario<CounterApp>) async {
///   await expectConformance(myCounter, scenario: scenario, reference: .baseline)
/// }
/// ```
public func expectConformance<App: ConformanceApp>(
  _ implementation: Implementation<App>, scenario: Scenario<App>, reference: Implementation<App>,
  knownDeviations: [KnownDeviation] = [], fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
) async {
  let sourceLocation = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
  let report = await Conformance.report(
    implementation, reference: reference, scenarios: [scenario], knownDeviations: knownDeviations)
  record(report, sourceLocation: sourceLocation)
}

/// Runs `count` random programs (seeds `seed`, `seed + 1`, …) on `implementation` and
/// `reference` and records every divergence, with its seed and shortened program, as an issue.
public func expectSameTraces<App: ConformanceApp>(
  _ implementation: Implementation<App>, reference: Implementation<App>, programs count: Int,
  seed: UInt64 = 1, fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
) async {
  let sourceLocation = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
  let report = await Conformance.report(
    implementation, reference: reference, scenarios: [], programs: count, seed: seed)
  record(report, sourceLocation: sourceLocation)
}

/// Records every failure of `report` as an issue at `sourceLocation`.
public func record(_ report: AppReport, fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column) {
  let sourceLocation = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
  for failure in report.failures {
    reportFailure(failure.description, at: sourceLocation)
  }
  for failure in report.programFailures {
    reportFailure("\(report.architecture) · \(report.app) · \(failure)", at: sourceLocation)
  }
}
