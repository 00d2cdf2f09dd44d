import ArchitectureSpec
import Foundation
import Samples
import Synchronization
import Workloads

/// `arch compare`: the conformance gate, then every workload for every architecture,
/// interleaved, with medians, intervals and ratios.
struct CompareCommand {
  var workloads: [Workload]
  var contestants: [Contestant]
  var samples: Int
  var isQuick: Bool
  var isScaling: Bool
  var format: String
  var output: String?

  init(_ arguments: inout Arguments) throws {
    isQuick = arguments.flag("--quick")
    isScaling = arguments.flag("--scaling")
    let defaultSamples = isScaling ? (isQuick ? 3 : 5) : (isQuick ? 5 : 15)
    samples = try arguments.number("--samples") ?? defaultSamples
    guard samples >= 1 else { throw UsageError("--samples must be at least 1") }
    let names = Workload.all.map(\.name)
    let chosen = try arguments.option("--workload").map { value in
      try value.split(separator: ",").map { name in
        guard let workload = Workload.named(String(name)) else {
          throw UsageError(
            "--workload must name workloads among \(names.joined(separator: ", ")); got '\(name)'")
        }
        return workload
      }
    }
    if isScaling, chosen != nil {
      throw UsageError("--scaling runs every list workload at every size; leave out --workload")
    }
    workloads = chosen ?? (isScaling ? Workload.scaling : Workload.all)
    let contestantNames = Catalog.contestants.map(\.name)
    if let only = try arguments.option("--architecture", oneOf: contestantNames) {
      // The references stay in, so ratios can be computed.
      contestants = Catalog.contestants.filter {
        [only, Comparison.baselineName, Comparison.bareName].contains($0.name)
      }
    } else {
      contestants = Catalog.contestants
    }
    format = try arguments.option("--format", oneOf: ["text", "markdown", "json"]) ?? "text"
    output = try arguments.option("--output")
    try arguments.finish()
  }

  func run() async throws -> Int32 {
    let excluded = await gate()
    let isQuick = isQuick
    let isScaling = isScaling
    let comparison = await Comparison.run(
      workloads: workloads, contestants: contestants, samples: samples,
      // A quick run does a twentieth of the operations per sample; a scaling run always does
      // them all, so a one-time cost of a large list is not spread over a few operations.
      operations: { isQuick && !isScaling ? max(1, $0.operations / 20) : $0.operations },
      excluded: excluded,
      setup: Comparison.Setup(
        samples: samples, isQuick: isQuick, machine: Machine.description,
        date: Machine.today),
      progress: { line in FileHandle.standardError.write(Data("  \(line)\n".utf8)) })
    if isScaling { return try await report(Scaling(comparison, memory: await memory())) }
    let rendered =
      switch format {
      case "json": try comparison.json()
      case "markdown": comparison.markdown()
      default: comparison.text()
      }
    print(rendered)
    if let output { try write(comparison, to: output) }
    let wrong = comparison.workloads.flatMap { workload in
      workload.results.compactMap(\.failure)
    }
    for failure in wrong {
      FileHandle.standardError.write(Data("error: \(failure)\n".utf8))
    }
    return wrong.isEmpty ? 0 : 1
  }

  /// Prints the curves, writes them with their charts, and fails when a list workload computed
  /// a wrong result.
  private func report(_ scaling: Scaling) async throws -> Int32 {
    print(format == "json" ? try scaling.json() : scaling.text())
    if let output {
      let url = URL(fileURLWithPath: output, isDirectory: true)
      try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
      try scaling.json().write(
        to: url.appendingPathComponent("scaling.json"), atomically: true, encoding: .utf8)
      for curves in scaling.operations {
        try scaling.svg(curves).write(
          to: url.appendingPathComponent("\(curves.name).svg"), atomically: true, encoding: .utf8)
      }
      try scaling.overviewSVG().write(
        to: url.appendingPathComponent("scaling-overview.svg"), atomically: true, encoding: .utf8)
      FileHandle.standardError.write(Data("wrote \(output)/scaling.json and charts\n".utf8))
    }
    let failures = scaling.operations.flatMap { $0.curves.compactMap(\.failure) }
    for failure in failures { FileHandle.standardError.write(Data("error: \(failure)\n".utf8)) }
    return failures.isEmpty ? 0 : 1
  }

  /// Each contestant's memory for the largest list, measured by `arch memory` in a process of
  /// its own, so one contestant's peak is not another's leftovers.
  private func memory() async -> [MemoryUse] {
    guard let rows = ListWorkloads.sizes.last else { return [] }
    var uses: [MemoryUse] = []
    for contestant in contestants where contestant.todos != nil {
      let process = Process()
      process.executableURL =
        Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
      process.arguments = ["memory", "--architecture", contestant.name, "--rows", "\(rows)"]
      let pipe = Pipe()
      process.standardOutput = pipe
      do {
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        if process.terminationStatus == 0,
          let use = try? JSONDecoder().decode(MemoryUse.self, from: data)
        {
          uses.append(use)
          continue
        }
      } catch {}
      FileHandle.standardError.write(
        Data("memory: \(contestant.name) could not be measured\n".utf8))
    }
    return uses
  }

  /// Runs the conformance suite for every architecture and app that a chosen workload needs;
  /// a failing pair is not timed.
  private func gate() async -> [String: [String: String]] {
    let apps = Set(workloads.map(\.app))
    let programs = isQuick ? 20 : 200
    var excluded: [String: [String: String]] = [:]
    for architecture in Catalog.architectures
    where contestants.contains(where: { $0.name == architecture.name }) {
      for app in Catalog.appNames where apps.contains(app) {
        guard
          let report = await Gate.reports(
            architecture, apps: [app], options: Conformance.Options(programs: programs)
          ).first
        else { continue }
        let line = report.isPassing ? "passes" : "fails conformance: not timed"
        FileHandle.standardError.write(
          Data("gate \(architecture.name) · \(app): \(line)\n".utf8))
        if !report.isPassing {
          let failed = report.failures.count + report.programFailures.count
          excluded[architecture.name, default: [:]][app] =
            "fails the \(app) conformance suite (\(failed) failure(s))"
        }
      }
    }
    return excluded
  }

  private func write(_ comparison: Comparison, to directory: String) throws {
    let url = URL(fileURLWithPath: directory, isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    try comparison.json().write(
      to: url.appendingPathComponent("comparison.json"), atomically: true, encoding: .utf8)
    try comparison.markdown(chartDirectory: ".").write(
      to: url.appendingPathComponent("comparison.md"), atomically: true, encoding: .utf8)
    for workload in comparison.workloads {
      try comparison.svg(workload).write(
        to: url.appendingPathComponent("\(workload.name).svg"), atomically: true, encoding: .utf8)
    }
    FileHandle.standardError.write(
      Data("wrote \(directory)/comparison.{md,json} and charts\n".utf8))
  }
}

/// One architecture's conformance report for one app: what `arch conformance` prints, and the
/// gate `arch compare` runs before timing.
enum Gate {
  /// The reports of every app in `apps` that `architecture` implements.
  static func reports(
    _ architecture: Architecture, apps: [String], options: Conformance.Options
  ) async -> [AppReport] {
    var reports: [AppReport] = []
    for app in apps {
      guard let implementation = architecture.implementation(named: app),
        let reference = Catalog.reference.implementation(named: app),
        let report = await implementation.report(
          reference: reference, options: options, knownDeviations: Catalog.knownDeviations)
      else { continue }
      reports.append(report)
    }
    return reports
  }
}

/// What the numbers were measured on.
enum Machine {
  static var description: String {
    let cpu =
      (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
      .split(separator: "\n").first { $0.hasPrefix("model name") }?
      .split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "unknown CPU"
    return "\(cpu), \(ProcessInfo.processInfo.activeProcessorCount) cores"
  }

  static var today: String {
    let formatter = DateFormatter()
    formatter.dateFormat = "yyyy-MM-dd"
    formatter.timeZone = TimeZone(identifier: "UTC")
    return formatter.string(from: Date())
  }
}

/// `arch measure`: one workload, one contestant, a given number of operations, no timing. For
/// counting instructions and allocations under callgrind (a run of N minus a run of 0).
///
/// One operation runs first, in a trial of its own, in both runs: what a process pays once, the
/// first time it runs the code (type metadata and conformances the Swift runtime builds on first
/// use, caches the runtime fills), then cancels out instead of being spread over the counted
/// operations. Loading 100 rows 20 times, it was up to half of what io-loop's load counted.
///
/// `--batch W=N,…` counts many workloads in one process, each in two phases (its base, then its
/// N operations), so that callgrind starts once for all of them rather than twice for each: its
/// start-up, about two seconds, was most of what counting cost. A phase runs between
/// ``countingBegins()`` and ``countingEnds()``, where callgrind zeroes its counters
/// (`--zero-before`) and writes them (`--dump-before`); the process prints one line per phase, in
/// the order of callgrind's dumps.
struct MeasureCommand {
  /// The workloads to count, with their operations, in order.
  var batch: [(workload: Workload, operations: Int)]
  var contestant: Contestant
  /// Prepare the trial and stop there: what preparing N operations costs alone, for the
  /// workloads whose preparation grows with N (`contacts.pop-to-root.1000`).
  var prepareOnly: Bool
  /// Whether this is a `--batch` run, counted in phases.
  var isBatch: Bool
  /// In a batch, the workloads whose base phase prepares their N operations and runs none (the
  /// prepared trials are held to the end of the process, as `--prepare-only` holds its own).
  var preparedBase: Set<String>
  /// In a batch, whether a phase is the operations' run alone (synchronous workloads, whose work
  /// all happens in ``measuredRegion(_:)``) rather than their preparation, run, finish and
  /// release (asynchronous ones, whose work ends on other threads).
  var countsRunsOnly: Bool

  init(_ arguments: inout Arguments) throws {
    let names = Catalog.contestants.map(\.name)
    guard let chosen = try arguments.option("--architecture", oneOf: names),
      let contestant = Catalog.contestants.first(where: { $0.name == chosen })
    else { throw UsageError("--architecture is required") }
    self.contestant = contestant
    if let batch = try arguments.option("--batch") {
      isBatch = true
      self.batch = try batch.split(separator: ",").map { entry in
        let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, let operations = Int(parts[1]), operations >= 1 else {
          throw UsageError("--batch takes WORKLOAD=OPERATIONS,…; got '\(entry)'")
        }
        return (try Self.workload(named: parts[0]), operations)
      }
      preparedBase = Set(
        try arguments.option("--prepared-base")?.split(separator: ",").map(String.init) ?? [])
      countsRunsOnly = arguments.flag("--runs-only")
      prepareOnly = false
    } else {
      isBatch = false
      let workload = try Self.workload(named: try arguments.positional("WORKLOAD"))
      guard let operations = try arguments.number("--operations", as: Int.self) else {
        throw UsageError("--operations is required")
      }
      batch = [(workload, operations)]
      preparedBase = []
      countsRunsOnly = false
      prepareOnly = arguments.flag("--prepare-only")
    }
    try arguments.finish()
  }

  private static func workload(named name: String) throws -> Workload {
    guard let workload = Workload.named(name) else {
      throw UsageError(
        "unknown workload '\(name)'; one of \(Workload.all.map(\.name).joined(separator: ", "))")
    }
    return workload
  }

  func run() async throws -> Int32 {
    if isBatch { return try await runBatch() }
    let (workload, operations) = batch[0]
    try await warmUp(workload)
    guard let trial = await workload.prepare(contestant, operations) else {
      FileHandle.standardError.write(
        Data("\(contestant.name) has nothing \(workload.name) can run\n".utf8))
      return 1
    }
    if prepareOnly {
      print("\(workload.name) \(contestant.name) prepared operations=\(operations)")
      // Ends the process with the prepared work still held: released here, the runtimes
      // would tear down on other threads, as much of it as the scheduler allowed before the
      // exit, and a count of the preparation would change from run to run.
      withExtendedLifetime(trial) { exit(0) }
    }
    await measuredRegion(trial)
    let outcome = try await trial.finish()
    let notifications = outcome.notifications.map { " notifications=\($0)" } ?? ""
    print("\(workload.name) \(contestant.name) operations=\(outcome.operations)\(notifications)")
    return 0
  }

  /// Each workload's base phase, then its full one. A phase prepares, runs, finishes and
  /// releases its trial, as a process of its own did before it exited.
  private func runBatch() async throws -> Int32 {
    var held: [Trial] = []
    for (workload, operations) in batch {
      guard workload.isApplicable(to: contestant) else {
        print("\(workload.name) skipped")
        continue
      }
      try await warmUp(workload)
      if preparedBase.contains(workload.name) {
        countingBegins()
        let prepared = await workload.prepare(contestant, operations)
        countingEnds()
        if let prepared { held.append(prepared) }
      } else {
        try await count(workload, 0)
      }
      print("\(workload.name) base")
      let outcome = try await count(workload, operations)
      print("\(workload.name) full operations=\(outcome.operations)")
    }
    // As `--prepare-only` does: the held trials end with the process, never torn down.
    withExtendedLifetime(held) { exit(0) }
  }

  /// One counted phase of `operations`: the run alone (``countsRunsOnly``), or the trial
  /// prepared, run, finished and released.
  @discardableResult
  private func count(_ workload: Workload, _ operations: Int) async throws -> Outcome {
    if countsRunsOnly {
      guard let trial = await workload.prepare(contestant, operations) else {
        throw UsageError("\(contestant.name) has nothing \(workload.name) can run")
      }
      countingBegins()
      await measuredRegion(trial)
      countingEnds()
      return try await trial.finish()
    }
    countingBegins()
    // The trial is released when `runTrial` returns, inside the phase.
    let outcome = try await runTrial(workload, operations)
    countingEnds()
    return outcome
  }

  private func runTrial(_ workload: Workload, _ operations: Int) async throws -> Outcome {
    guard let trial = await workload.prepare(contestant, operations) else {
      throw UsageError("\(contestant.name) has nothing \(workload.name) can run")
    }
    await measuredRegion(trial)
    return try await trial.finish()
  }

  private func warmUp(_ workload: Workload) async throws {
    if let warmUp = await workload.prepare(contestant, 1) {
      await warmUp.run()
      _ = try await warmUp.finish()
    }
  }
}

/// Phases begun and not yet ended: at most one. Keeping count is what ``countingBegins()`` and
/// ``countingEnds()`` do, so that neither call is optimized away (callgrind acts when they are
/// entered), and what makes them differ: two alike functions would be merged into one, and
/// callgrind would see both entered at every phase's beginning.
private let openPhases = Atomic<Int>(0)

/// Where a counted phase begins: callgrind zeroes its counters on entering it
/// (`--zero-before=*countingBegins*`).
@inline(never)
func countingBegins() {
  openPhases.add(1, ordering: .relaxed)
}

/// Where a counted phase ends: callgrind writes its counters on entering it
/// (`--dump-before=*countingEnds*`).
@inline(never)
func countingEnds() {
  let (_, open) = openPhases.subtract(1, ordering: .relaxed)
  precondition(open == 0, "counted phases do not nest")
}

/// `arch memory`: one contestant's todos app loads a list in this process; prints the heap it
/// retains and the resident peak during the load as JSON (`arch compare --scaling` runs it).
struct MemoryCommand {
  var contestant: Contestant
  var app: String
  var count: Int

  init(_ arguments: inout Arguments) throws {
    let app =
      try arguments.option("--app", oneOf: [TodosApp.name, CounterApp.name]) ?? TodosApp.name
    self.app = app
    let names = Catalog.contestants.filter {
      app == TodosApp.name ? $0.todos != nil : $0.counter != nil
    }.map(\.name)
    guard let chosen = try arguments.option("--architecture", oneOf: names),
      let contestant = Catalog.contestants.first(where: { $0.name == chosen })
    else { throw UsageError("--architecture is required") }
    self.contestant = contestant
    let rows = try arguments.number("--rows", as: Int.self)
    let runtimes = try arguments.number("--runtimes", as: Int.self)
    count =
      app == TodosApp.name
      ? rows ?? ListWorkloads.sizes.last ?? 100_000 : runtimes ?? 1_000
    guard count >= 1 else { throw UsageError("--rows and --runtimes must be at least 1") }
    try arguments.finish()
  }

  func run() async throws -> Int32 {
    let measured =
      app == TodosApp.name
      ? await ListWorkloads.memory(of: contestant, rows: count)
      : await AppWorkloads.counterMemory(of: contestant, count: count)
    guard let use = measured else {
      let what = app == TodosApp.name ? "load \(count) rows" : "start \(count) counters"
      FileHandle.standardError.write(Data("\(contestant.name) did not \(what)\n".utf8))
      return 1
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    print(String(decoding: try encoder.encode(use), as: UTF8.self))
    return 0
  }
}

/// The only code callgrind counts (`--toggle-collect`): a trial's operations.
@inline(never)
func measuredRegion(_ trial: Trial) async {
  await trial.run()
}
