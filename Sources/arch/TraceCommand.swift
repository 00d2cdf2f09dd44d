import ArchitectureSpec
import Samples
import Workloads

/// `arch trace APP --architecture X --scenario NAME`: one run's trace as JSON lines.
struct TraceCommand {
  var app: String
  var architecture: Architecture
  var scenario: String

  init(_ arguments: inout Arguments) throws {
    let names = Catalog.architectures.map(\.name)
    let name = try arguments.option("--architecture", oneOf: names)
    let scenario = try arguments.option("--scenario")
    app = try arguments.positional("APP")
    try arguments.finish()
    guard Catalog.apps.contains(app) else {
      throw UsageError("APP must be one of \(Catalog.apps.joined(separator: ", ")); got '\(app)'")
    }
    guard let name else { throw UsageError("trace needs --architecture") }
    architecture = Catalog.architecture(named: name) ?? Catalog.architectures[0]
    guard let scenario else { throw UsageError("trace needs --scenario") }
    self.scenario = scenario
  }

  func run() async throws -> Int32 {
    switch app {
    case CounterApp.name: try await print(architecture.counter)
    case StopwatchApp.name: try await print(architecture.stopwatch)
    default: try await print(architecture.weather)
    }
    return 0
  }

  private func print<App>(_ implementation: Implementation<App>) async throws {
    guard let found = App.scenarios.first(where: { $0.name == scenario }) else {
      throw UsageError("no \(App.name) scenario named '\(scenario)'; see `arch list`")
    }
    let result = await ScenarioRunner.run(found, on: implementation)
    Swift.print(result.trace.jsonLines())
  }
}

/// `arch list`: what can be run.
enum ListCommand {
  static func run() {
    print("architectures: \(Catalog.architectures.map(\.name).joined(separator: ", "))")
    print("apps: \(Catalog.apps.joined(separator: ", "))")
    print("contestants: \(Catalog.contestants.map(\.name).joined(separator: ", "))")
    print("workloads: \(Workload.all.map(\.name).joined(separator: ", "))")
    for (app, names) in [
      (CounterApp.name, CounterApp.scenarios.map(\.name)),
      (StopwatchApp.name, StopwatchApp.scenarios.map(\.name)),
      (WeatherApp.name, WeatherApp.scenarios.map(\.name)),
    ] {
      print("\n\(app) scenarios:")
      for name in names { print("  \(name)") }
    }
  }
}
