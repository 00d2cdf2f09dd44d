import ArchitectureSpec
import ArchitectureSpecTesting
import Baseline
import Foundation
import Samples
import Testing

/// One architecture and one scenario, named readably in test output.
struct Case<App: ConformanceApp>: Sendable, CustomTestStringConvertible {
  let implementation: Implementation<App>
  let reference: Implementation<App>
  let scenario: Scenario<App>
  var testDescription: String { "\(implementation.architecture) · \(scenario.name)" }

  static func all(_ implementation: (Architecture) -> Implementation<App>) -> [Case] {
    let reference = implementation(Catalog.reference)
    return Catalog.architectures.flatMap { architecture in
      App.scenarios.map {
        Case(implementation: implementation(architecture), reference: reference, scenario: $0)
      }
    }
  }

  func check() async {
    await expectConformance(
      implementation, scenario: scenario, reference: reference,
      knownDeviations: Catalog.knownDeviations)
  }
}

/// How many random programs each architecture runs per app: 200, or `CONFORMANCE_PROGRAMS`.
let programCount =
  ProcessInfo.processInfo.environment["CONFORMANCE_PROGRAMS"].flatMap(Int.init) ?? 200
let programSeed =
  ProcessInfo.processInfo.environment["CONFORMANCE_SEED"].flatMap(UInt64.init) ?? 20_261_121

@Suite("Scenarios")
struct ScenarioTests {
  @Test(arguments: Case<CounterApp>.all(\.counter))
  func counter(_ test: Case<CounterApp>) async { await test.check() }

  @Test(arguments: Case<StopwatchApp>.all(\.stopwatch))
  func stopwatch(_ test: Case<StopwatchApp>) async { await test.check() }

  @Test(arguments: Case<WeatherApp>.all(\.weather))
  func weather(_ test: Case<WeatherApp>) async { await test.check() }
}

@Suite("Random programs match baseline")
struct PropertyTests {
  static let names = Catalog.architectures.map(\.name)

  @Test(arguments: names)
  func counter(_ name: String) async throws {
    let architecture = try #require(Catalog.architecture(named: name))
    await expectSameTraces(
      architecture.counter, reference: .baseline, programs: programCount, seed: programSeed)
  }

  @Test(arguments: names)
  func stopwatch(_ name: String) async throws {
    let architecture = try #require(Catalog.architecture(named: name))
    await expectSameTraces(
      architecture.stopwatch, reference: .baseline, programs: programCount, seed: programSeed)
  }

  @Test(arguments: names)
  func weather(_ name: String) async throws {
    let architecture = try #require(Catalog.architecture(named: name))
    await expectSameTraces(
      architecture.weather, reference: .baseline, programs: programCount, seed: programSeed)
  }
}
