import ArchitectureSpec
import Foundation
import Samples

/// `arch stress`: stops each runtime — or drops its last reference — while two threads send,
/// and counts what began afterwards (SPEC R6). Exits 1 on any late event.
struct StressCommand {
  var apps: [String]
  var architectures: [Architecture]
  var tries: Int
  var seed: UInt64
  var json: Bool

  init(_ arguments: inout Arguments) throws {
    let names = Catalog.architectures.map(\.name)
    apps = try arguments.option("--app", oneOf: Catalog.appNames).map { [$0] } ?? Catalog.appNames
    architectures =
      try arguments.option("--architecture", oneOf: names).map {
        [Catalog.architecture(named: $0)].compactMap { $0 }
      } ?? Catalog.architectures
    tries = try arguments.number("--tries") ?? 1000
    seed = try arguments.number("--seed") ?? 1
    guard tries >= 1 else { throw UsageError("--tries must be at least 1") }
    json = try arguments.option("--format", oneOf: ["text", "json"]) == "json"
    try arguments.finish()
  }

  func run() async throws -> Int32 {
    var reports: [Stress.Report] = []
    if !json { print(header) }
    for architecture in architectures {
      for app in apps {
        guard let report = await stress(architecture, app: app) else { continue }
        reports.append(report)
        if !json { print(row(report)) }
      }
    }
    if json {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
      print(String(decoding: try encoder.encode(reports), as: UTF8.self))
    } else {
      let examples = reports.filter { !$0.isClean }.flatMap { report in
        report.examples.map { "  \(report.architecture) \(report.app): \($0)" }
      }
      if !examples.isEmpty { print("\nexamples:\n" + examples.joined(separator: "\n")) }
      let total = reports.reduce(0) { $0 + $1.events.values.reduce(0, +) }
      print(
        "\n\(total) late events in \(reports.count) runs of \(tries) tries "
          + "(half stopped, half released)")
    }
    return reports.allSatisfy(\.isClean) ? 0 : 1
  }

  private func stress(_ architecture: Architecture, app: String) async -> Stress.Report? {
    await architecture.implementation(named: app)?.stress(tries: tries, seed: seed)
  }

  private static let columns = Stress.Late.allCases.map(\.rawValue)

  private var header: String {
    (["architecture".padded(13), "app".padded(10)] + Self.columns.map { $0.padded(20) })
      .joined()
  }

  /// One line: in how many tries each kind of late event happened.
  private func row(_ report: Stress.Report) -> String {
    ([report.architecture.padded(13), report.app.padded(10)]
      + Self.columns.map { "\(report.triesWith[$0] ?? 0)".padded(20) }).joined()
  }
}

extension String {
  fileprivate func padded(_ width: Int) -> String {
    self + String(repeating: " ", count: max(1, width - count))
  }
}
