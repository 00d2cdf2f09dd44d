import ArchitectureSpec
import Foundation
import Samples

/// `arch conformance`: every scenario and random program, as a matrix.
struct ConformanceCommand {
  var apps: [String]
  var architectures: [Architecture]
  var seed: UInt64
  var programs: Int
  var json: Bool

  init(_ arguments: inout Arguments) throws {
    let names = Catalog.architectures.map(\.name)
    apps = try arguments.option("--app", oneOf: Catalog.apps).map { [$0] } ?? Catalog.apps
    architectures =
      try arguments.option("--architecture", oneOf: names).map {
        [Catalog.architecture(named: $0)].compactMap { $0 }
      } ?? Catalog.architectures
    seed = try arguments.number("--seed") ?? 1
    programs = try arguments.number("--programs") ?? 200
    json = try arguments.option("--format", oneOf: ["text", "json"]) == "json"
    try arguments.finish()
  }

  func run() async throws -> Int32 {
    var reports: [AppReport] = []
    for architecture in architectures {
      for app in apps {
        reports.append(
          await Gate.report(architecture, app: app, programs: programs, seed: seed))
      }
    }
    if json {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
      print(String(decoding: try encoder.encode(Output(results: reports)), as: UTF8.self))
    } else {
      print(matrix(reports))
    }
    return reports.allSatisfy(\.isPassing) ? 0 : 1
  }

  private struct Output: Encodable { var results: [AppReport] }

  private func matrix(_ reports: [AppReport]) -> String {
    let width = 26
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
        else { continue }
        let mark = report.isPassing ? "✓" : "✗"
        let known = report.knownDeviations.isEmpty ? "" : " (\(report.knownDeviations.count) known)"
        let programs = "\(report.programs - report.programFailures.count)/\(report.programs)p"
        line += pad("\(mark) \(report.passed)/\(report.scenarios) \(programs)\(known)", width)
      }
      lines.append(line)
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
