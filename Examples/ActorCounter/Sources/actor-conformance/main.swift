import ActorCounter
import ArchitectureSpec
import Baseline
import Foundation

// A plain executable: top-level code that awaits runs as an async main, which the kit needs
// (it waits on executors of its own; a main thread blocked on a semaphore would wait forever).
let report = await Conformance.report(
  Implementation<CounterApp>.actor, reference: .baseline,
  options: Conformance.Options(programs: 100, seed: 1))
print(
  "\(report.architecture) · \(report.app): \(report.passed)/\(report.scenarios) scenarios, "
    + "\(report.programs - report.programFailures.count)/\(report.programs) random programs")
if let probe = report.raceProbe {
  print(
    "stop-and-release race probe (R6): \(probe.tries) tries, "
      + (probe.isClean ? "nothing began late" : "late events: \(probe.events)"))
}
for rule in report.rulesMetByGlue { print("met by the driver's glue: \(rule)") }
for failure in report.failures { print("\n\(failure)") }
for failure in report.programFailures { print("\n\(failure)") }
exit(report.isPassing ? 0 : 1)
