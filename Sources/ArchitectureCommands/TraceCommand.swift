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
    guard Catalog.appNames.contains(app) else {
      throw UsageError(
        "APP must be one of \(Catalog.appNames.joined(separator: ", ")); got '\(app)'")
    }
    guard let name else { throw UsageError("trace needs --architecture") }
    architecture = Catalog.architecture(named: name) ?? Catalog.architectures[0]
    guard let scenario else { throw UsageError("trace needs --scenario") }
    self.scenario = scenario
  }

  func run() async throws -> Int32 {
    guard let implementation = architecture.implementation(named: app) else {
      throw UsageError("\(architecture.name) does not implement \(app) yet")
    }
    guard let trace = await implementation.trace(scenario: scenario) else {
      throw UsageError("no \(app) scenario named '\(scenario)'; see `arch list`")
    }
    print(trace)
    return 0
  }
}

/// `arch list`: what can be run.
enum ListCommand {
  static func run() {
    print("architectures: \(Catalog.architectures.map(\.name).joined(separator: ", "))")
    print("apps: \(Catalog.appNames.joined(separator: ", "))")
    print("contestants: \(Catalog.contestants.map(\.name).joined(separator: ", "))")
    print("workloads: \(Workload.all.map(\.name).joined(separator: ", "))")
    for app in Catalog.apps {
      let implementing = Catalog.architectures.filter { $0.implementation(named: app.name) != nil }
      print("app \(app.name): \(implementing.map(\.name).joined(separator: ", "))")
    }
    for app in Catalog.apps {
      print("\n\(app.name) scenarios:")
      for name in app.scenarioNames { print("  \(name)") }
    }
  }
}
