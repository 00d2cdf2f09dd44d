import ArchitectureSpec
import Foundation
import Samples

/// `arch conformance`: every scenario and random program, as a matrix.
///
/// Each architecture runs in a child process of its own (`--in-process` runs them here), so a
/// crashing architecture is reported as failing and the others' results are still printed;
/// inside it, a scenario that does not finish within `--timeout` fails as hung.
struct ConformanceCommand {
  var apps: [String]
  var architectures: [Architecture]
  var options: Conformance.Options
  var json: Bool
  var inProcess: Bool

  init(_ arguments: inout Arguments) throws {
    let names = Catalog.architectures.map(\.name)
    apps =
      try arguments.option("--app", oneOf: Catalog.appNames).map { [$0] } ?? Catalog.appNames
    architectures =
      try arguments.option("--architecture", oneOf: names).map {
        [Catalog.architecture(named: $0)].compactMap { $0 }
      } ?? Catalog.architectures
    let seed: UInt64 = try arguments.number("--seed") ?? 1
    let programs: Int = try arguments.number("--programs") ?? 200
    let repeats = try arguments.number("--repeat", as: Int.self) ?? 1
    let timeout = try arguments.number("--timeout", as: Int.self) ?? 300
    let stressTries =
      try arguments.number("--stress-tries", as: Int.self)
      ?? Conformance.Options.defaultStressTries
    guard stressTries >= 0 else { throw UsageError("--stress-tries must be 0 or more") }
    guard repeats >= 1 else { throw UsageError("--repeat must be at least 1") }
    guard timeout >= 1 else { throw UsageError("--timeout must be at least 1 second") }
    options = Conformance.Options(
      programs: programs, seed: seed, repeats: repeats, timeLimit: .seconds(timeout),
      stressTries: stressTries)
    json = try arguments.option("--format", oneOf: ["text", "json"]) == "json"
    inProcess = arguments.flag("--in-process")
    try arguments.finish()
  }

  func run() async throws -> Int32 {
    var reports: [AppReport] = []
    for architecture in architectures {
      if inProcess {
        reports += await Gate.reports(architecture, apps: apps, options: options)
      } else {
        reports += runChild(architecture)
      }
    }
    let missing = architectures.compactMap { architecture -> NotImplemented? in
      let apps = architecture.missingApps.filter(self.apps.contains)
      return apps.isEmpty ? nil : NotImplemented(architecture: architecture.name, apps: apps)
    }
    if json {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
      let output = Output(results: reports, notImplemented: missing)
      print(String(decoding: try encoder.encode(output), as: UTF8.self))
    } else {
      print(matrix(reports, missing: missing))
    }
    return reports.allSatisfy(\.isPassing) ? 0 : 1
  }

  struct Output: Codable {
    var results: [AppReport]
    var notImplemented: [NotImplemented]
  }

  struct NotImplemented: Codable {
    var architecture: String
    var apps: [String]
  }

  /// Runs one architecture in a child process and reads its JSON; a child that crashes, hangs
  /// past the whole run's limit or prints no report fails each of its apps with the reason.
  private func runChild(_ architecture: Architecture) -> [AppReport] {
    let apps = self.apps.filter { architecture.implementation(named: $0) != nil }
    guard !apps.isEmpty else { return [] }
    let process = Process()
    process.executableURL = Bundle.main.executableURL
    var arguments = [
      "conformance", "--in-process", "--format", "json", "--architecture", architecture.name,
      "--seed", "\(options.seed)", "--programs", "\(options.programs)",
      "--repeat", "\(options.repeats)", "--timeout", "\(options.timeLimit.components.seconds)",
      "--stress-tries", "\(options.stressTries)",
    ]
    if apps.count == 1 { arguments += ["--app", apps[0]] }
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    let failure: String
    do {
      try process.run()
      let data = output.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      if let decoded = try? JSONDecoder().decode(Output.self, from: data) {
        return decoded.results.filter { apps.contains($0.app) }
      }
      failure =
        process.terminationReason == .uncaughtSignal
        ? "crashed with signal \(process.terminationStatus) before it reported"
        : "exited with status \(process.terminationStatus) without a report"
    } catch {
      failure = "could not be started: \(error)"
    }
    return apps.map { app in
      AppReport(
        architecture: architecture.name, app: app, scenarios: 0, passed: 0,
        failures: [
          ConformanceFailure(
            architecture: architecture.name, app: app, scenario: "(all)", rules: [],
            message: "the conformance run of \(architecture.name) \(failure)")
        ], knownDeviations: [], programs: options.programs, programFailures: [])
    }
  }

  private func matrix(_ reports: [AppReport], missing: [NotImplemented]) -> String {
    let width = 22
    func pad(_ text: String, _ count: Int) -> String {
      text + String(repeating: " ", count: max(1, count - text.count))
    }
    var lines = [pad("architecture", 14) + apps.map { pad($0, width) }.joined()]
    for architecture in architectures {
      var line = pad(architecture.name, 14)
      for app in apps {
        guard
          let report = reports.first(where: {
            $0.architecture == architecture.name && $0.app == app
          })
        else {
          line += pad("– not implemented", width)
          continue
        }
        let mark = report.isPassing ? "✓" : "✗"
        let known = report.knownDeviations.isEmpty ? "" : " (\(report.knownDeviations.count) known)"
        let programs = "\(report.programs - report.programFailures.count)/\(report.programs)p"
        line += pad("\(mark) \(report.passed)/\(report.scenarios) \(programs)\(known)", width)
      }
      lines.append(line)
    }
    if !missing.isEmpty {
      // One line: which apps, in which architectures (grouped when they miss the same apps).
      var groups: [(apps: [String], architectures: [String])] = []
      for entry in missing {
        if let index = groups.firstIndex(where: { $0.apps == entry.apps }) {
          groups[index].architectures.append(entry.architecture)
        } else {
          groups.append((entry.apps, [entry.architecture]))
        }
      }
      lines.append(
        "not implemented yet (not a failure): "
          + groups.map {
            "\($0.apps.joined(separator: ", ")) in \($0.architectures.joined(separator: ", "))"
          }.joined(separator: "; "))
    }
    if options.repeats > 1 {
      let runs = reports.reduce(0) { $0 + $1.scenarios } * options.repeats
      let diverging = reports.reduce(0) { $0 + $1.divergingRuns }
      lines.append("repeat \(options.repeats): \(diverging) of \(runs) scenario runs diverged")
    }
    for report in reports where !report.rulesMetByGlue.isEmpty {
      lines.append(
        "\(report.architecture) · \(report.app): rules met by the driver's glue, not the "
          + "library: \(report.rulesMetByGlue.joined(separator: ", "))")
    }
    let failures =
      reports.flatMap { $0.failures.map(\.description) }
      + reports.flatMap { report in
        report.programFailures.map { "\(report.architecture) · \(report.app) · \($0)" }
      }
    if !failures.isEmpty {
      lines.append("\nFailures:\n")
      lines += failures.map { $0 + "\n" }
    }
    return lines.joined(separator: "\n")
  }
}
