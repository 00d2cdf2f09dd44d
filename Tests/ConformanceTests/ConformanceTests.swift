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

  /// Every scenario of `App` for every architecture that implements it.
  static func all() -> [Case] {
    guard let reference = Catalog.reference.implementation(of: App.self) else { return [] }
    return Catalog.architectures.compactMap { $0.implementation(of: App.self) }.flatMap {
      implementation in
      App.scenarios.map {
        Case(implementation: implementation, reference: reference, scenario: $0)
      }
    }
  }

  /// Without the race probe: CI's `arch conformance` runs it for every architecture and app
  /// (release build, one process each), and `arch stress` a thousand tries more. Here, under
  /// ThreadSanitizer and beside every other suite, its held calls would only slow the run.
  func check() async {
    await expectConformance(
      implementation, scenario: scenario, reference: reference,
      knownDeviations: Catalog.knownDeviations, stressTries: 0)
  }
}

/// How many random programs each architecture runs per app: 200, or `CONFORMANCE_PROGRAMS`.
let programCount =
  ProcessInfo.processInfo.environment["CONFORMANCE_PROGRAMS"].flatMap(Int.init) ?? 200
let programSeed =
  ProcessInfo.processInfo.environment["CONFORMANCE_SEED"].flatMap(UInt64.init) ?? 20_261_121

@Suite("Scenarios")
struct ScenarioTests {
  @Test(arguments: Case<CounterApp>.all())
  func counter(_ test: Case<CounterApp>) async { await test.check() }

  @Test(arguments: Case<StopwatchApp>.all())
  func stopwatch(_ test: Case<StopwatchApp>) async { await test.check() }

  @Test(arguments: Case<WeatherApp>.all())
  func weather(_ test: Case<WeatherApp>) async { await test.check() }

  @Test(arguments: Case<TodosApp>.all())
  func todos(_ test: Case<TodosApp>) async { await test.check() }

  @Test(arguments: Case<ShellApp>.all())
  func shell(_ test: Case<ShellApp>) async { await test.check() }

  @Test(arguments: Case<ContactsApp>.all())
  func contacts(_ test: Case<ContactsApp>) async { await test.check() }
}

@Suite("Random programs match baseline")
struct PropertyTests {
  static let names = Catalog.architectures.map(\.name)

  static func names<App: SpecApp>(implementing app: App.Type) -> [String] {
    Catalog.architectures.filter { $0.implementation(of: app) != nil }.map(\.name)
  }

  @Test(arguments: names)
  func counter(_ name: String) async throws {
    let architecture = try #require(Catalog.architecture(named: name))
    await expectSameTraces(
      architecture.counter, reference: .baseline, programs: programCount, seed: programSeed,
      stressTries: 0)
  }

  @Test(arguments: names)
  func stopwatch(_ name: String) async throws {
    let architecture = try #require(Catalog.architecture(named: name))
    await expectSameTraces(
      architecture.stopwatch, reference: .baseline, programs: programCount, seed: programSeed,
      stressTries: 0)
  }

  @Test(arguments: names)
  func weather(_ name: String) async throws {
    let architecture = try #require(Catalog.architecture(named: name))
    await expectSameTraces(
      architecture.weather, reference: .baseline, programs: programCount, seed: programSeed,
      stressTries: 0)
  }
}

extension PropertyTests {
  @Test(arguments: names(implementing: TodosApp.self))
  func todos(_ name: String) async throws {
    let implementation = try #require(
      Catalog.architecture(named: name)?.implementation(of: TodosApp.self))
    await expectSameTraces(
      implementation, reference: .baseline, programs: programCount / 4, seed: programSeed,
      stressTries: 0)
  }

  @Test(arguments: names(implementing: ContactsApp.self))
  func contacts(_ name: String) async throws {
    let implementation = try #require(
      Catalog.architecture(named: name)?.implementation(of: ContactsApp.self))
    await expectSameTraces(
      implementation, reference: .baseline, programs: programCount / 4, seed: programSeed,
      stressTries: 0)
  }

  @Test(arguments: names(implementing: ShellApp.self))
  func shell(_ name: String) async throws {
    let implementation = try #require(
      Catalog.architecture(named: name)?.implementation(of: ShellApp.self))
    await expectSameTraces(
      implementation, reference: .baseline, programs: programCount, seed: programSeed,
      stressTries: 0)
  }
}
