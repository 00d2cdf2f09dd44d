import ArchitectureSpec
import Foundation
import Kernel
import Samples
import Workloads

/// The project's command line — `arch conformance`, `stress`, `compare`, `measure`, `memory`,
/// `trace`, `list`, `run` — as a library, so that an architecture in another package runs the
/// same commands next to the five and the baseline.
///
/// The `arch` executable is `ArchitectureCommand.main()`. A package of your own makes an
/// executable whose `main.swift` adds its architecture:
///
/// ```swift
/// import ArchitectureCommands
///
/// ArchitectureCommand.main(adding: [
///   Architecture(name: "mine", apps: [.init(Implementation<CounterApp>.mine)])
/// ])
/// ```
///
/// `swift run my-arch conformance --architecture mine`, `stress`, `compare --quick`,
/// `measure counter.increments --architecture mine --operations 1000` (what
/// `Scripts/instructions.py --binary` runs under callgrind) and `memory` (for a todos app) then
/// treat `mine` like any architecture of the catalog: every app it implements is checked
/// against `baseline`, every workload it can run is measured beside the others. Child
/// processes the commands start are this same executable.
public enum ArchitectureCommand {
  static let usage = """
    USAGE: arch <command> [options]

    COMMANDS:
      conformance     Run every scenario and random program; print a matrix, architecture × app.
                      Exits 1 on any failure.
      trace APP       Print one run's trace as JSON lines.
      list            List the architectures, apps and scenarios.
      compare         Run the conformance gate, then every benchmark workload for every
                      architecture, the baseline and the bare reducer, interleaved; print the
                      median ns per operation, its 95% interval and the ratios.
      measure W       Run one workload once, untimed (for callgrind; see Scripts/instructions.py);
                      or --batch: many, each in counted phases.
      memory          Load a todos list (or start counters) in this process; print the heap
                      it retains and the resident peak during the load, as JSON (compare
                      --scaling runs it).
      stress          Stop each runtime, or drop its last reference, while two threads send;
                      print how many tries saw anything begin afterwards (SPEC R6). Exits 1 on
                      any late event.
      run APP         Run an app live in the terminal: real file storage, the real clock,
                      Open-Meteo over HTTP. Keys are shown on screen; Escape or Ctrl-C quits.

    OPTIONS (conformance):
      --app A             counter, stopwatch, weather, todos, shell or contacts (default: all)
      --architecture X    \(Catalog.architectures.map(\.name).joined(separator: ", ")) (default: all)
      --seed N            seed of the first random program (default: 1)
      --programs N        random programs per app and architecture (default: 200)
      --repeat N          run every scenario N times; count the runs that diverge (default: 1)
      --timeout SECONDS   a scenario that runs longer fails as hung (default: 300)
      --stress-tries N    tries of the stop-and-release race probe per app (R6), half stopped,
                          half released; 0 skips it (default: \(Conformance.Options.defaultStressTries))
      --format F          text or json (default: text)
      --in-process        run here, not one child process per architecture

    OPTIONS (compare):
      --quick             a twentieth of the operations per sample, 5 samples, 20 random
                          programs per gate
      --scaling           every list operation at 100, 1,000, 10,000 and 100,000 rows: the
                          cost curves, their growth exponents, notifications per observer kind
                          and the memory of a loaded 100,000-row list (default samples: 5;
                          with --quick 3, and every operation of each sample still runs)
      --samples N         samples per workload and contestant (default: 15; --quick 5)
      --workload W,…      only these workloads (default: all)
      --architecture X    only X, plus baseline and bare for the ratios
      --format F          text, markdown or json (default: text)
      --output DIR        also write comparison.md, comparison.json and one SVG chart per workload
                          (with --scaling: scaling.json, one log-log chart per operation and
                          scaling-overview.svg)

    OPTIONS (measure):
      --architecture X    the contestant, or bare (required)
      --operations N      how many operations (required)
      --prepare-only      prepare the operations, run none (what preparing costs alone)
      --batch W=N,...     instead of W and --operations: count every workload in this process,
                          each in a base phase (no operation) and a full one (N), marked for
                          callgrind by countingBegins/countingEnds; prints a line per phase
      --prepared-base W,...  in a batch, these workloads' base phases prepare N and run none
      --runs-only         in a batch, a phase is the operations' run alone (synchronous
                          workloads), not their preparation, run, finish and release

    OPTIONS (memory):
      --architecture X    the architecture, or baseline (required)
      --app A             todos or counter (default: todos)
      --rows N            todos: rows in the stored list (default: 100000)
      --runtimes N        counter: counters started and kept running (default: 1000)

    OPTIONS (run):
      --architecture X    the architecture to run (required)
      --keys SCRIPT       no terminal: press these keys, print each distinct screen. Every
                          character is a key; <enter> <tab> <bs> <up> <down> <esc> <space>
                          <ctrl-r> name keys; {300ms} or {1.5s} waits on the real clock,
                          measured from the previous wait or the last start or query change
      --storage PATH      counter, shell: the count's file (default: DATA/swift-unidirectional-
                          architectures/counter.txt, DATA being $XDG_DATA_HOME or ~/.local/share)
      --file PATH         todos: the list's JSON file (default: DATA/swift-unidirectional-
                          architectures/todos.json)
      --weather W         weather, shell: live (Open-Meteo) or fixtures (recorded, offline)
      --geocoding-url U   weather, shell: the geocoding server
                          (default: https://geocoding-api.open-meteo.com)
      --forecast-url U    weather, shell: the forecast server (default: https://api.open-meteo.com)
      --timeout SECONDS   weather, shell: the limit per request (default: 10)

    OPTIONS (stress):
      --app A             counter, stopwatch, weather, todos, shell or contacts (default: all)
      --architecture X    only this architecture (default: all)
      --tries N           tries per architecture and app, half stopped, half released
                          (default: 1000)
      --seed N            seed of the random intents and moments (default: 1)
      --format F          text or json (default: text)

    OPTIONS (trace):
      --architecture X    the architecture to run (required)
      --scenario NAME     the scenario to run (required; see `arch list`)

    """

  /// Runs the command the process's arguments name, with the catalog's architectures and
  /// `architectures`, and exits with its status (0 passed, 1 failed, 2 a usage error).
  ///
  /// Call it from a synchronous `main.swift` (no top-level `await`): it runs the command on a
  /// task while the main thread runs its run loop, which serves the main actor. Not an `async`
  /// main: that parks the main thread in `dispatchMain()`, whose `sigsuspend` crashes valgrind
  /// 3.19, and `measure` exists to run under callgrind.
  ///
  /// - Parameter architectures: Architectures of your own, each with the apps it implements
  ///   (any of them; a counter alone is enough) and, optionally, a ``TallySubject`` for the
  ///   synchronous workloads. Their names must differ from the catalog's.
  public static func main(adding architectures: [Architecture] = []) -> Never {
    let clashes = architectures.map(\.name).filter { name in
      Catalog.builtIn.contains { $0.name == name } || name == Contestant.bare.name
    }
    guard clashes.isEmpty, Set(architectures.map(\.name)).count == architectures.count else {
      FileHandle.standardError.write(
        Data("error: architecture names must be new and distinct: \(clashes)\n".utf8))
      exit(2)
    }
    Catalog.add(architectures)
    // Detached: `main` runs on the main actor, which the main thread serves below.
    Task.detached {
      let code = await run()
      exit(code)
    }
    // The main thread serves the main actor (the Observation adapters deliver there) by running
    // its run loop, which waits in `epoll` while nothing is queued.
    while true { _ = RunLoop.main.run(mode: .default, before: .distantFuture) }
  }

  /// The usage of one command: its line under COMMANDS and its OPTIONS section; `nil` for a
  /// command that does not exist.
  static func usage(of command: String) -> String? {
    let lines = usage.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    // The command's entry: its line and the indented lines that continue it.
    guard
      let start = lines.firstIndex(where: { $0.hasPrefix("  \(command) ") || $0 == "  \(command)" })
    else { return nil }
    var entry = [lines[start]]
    for line in lines[(start + 1)...] {
      guard line.hasPrefix("                ") else { break }
      entry.append(line)
    }
    let words = entry[0].split(separator: " ")
    var text = "USAGE: arch \(command)"
    // `trace APP` and `measure W`: the positional argument belongs to the usage line.
    if words.count > 1, words[1].allSatisfy(\.isUppercase) { text += " \(words[1])" }
    text += " [options]\n\n" + entry.joined(separator: "\n") + "\n"
    if let options = lines.firstIndex(of: "OPTIONS (\(command)):") {
      text += "\n" + lines[options...].prefix { !$0.isEmpty }.joined(separator: "\n") + "\n"
    }
    return text
  }

  nonisolated static func run() async -> Int32 {
    var arguments = Arguments(CommandLine.arguments.dropFirst())
    // `arch COMMAND --help` (or -h): that command's usage.
    if let command = arguments.command, arguments.flag("--help") || arguments.flag("-h"),
      let text = usage(of: command)
    {
      print(text, terminator: "")
      return 0
    }
    do {
      switch arguments.command {
      case "conformance": return try await ConformanceCommand(&arguments).run()
      case "trace": return try await TraceCommand(&arguments).run()
      case "compare": return try await CompareCommand(&arguments).run()
      case "measure": return try await MeasureCommand(&arguments).run()
      case "memory": return try await MemoryCommand(&arguments).run()
      case "run": return try await RunCommand(&arguments).run()
      case "stress": return try await StressCommand(&arguments).run()
      case "list":
        try arguments.finish()
        ListCommand.run()
      case "help", "--help", "-h": print(usage, terminator: "")
      case nil: throw UsageError("missing command")
      case let other?: throw UsageError("unknown command '\(other)'")
      }
    } catch let error as UsageError {
      FileHandle.standardError.write(Data("error: \(error.message)\n\n\(usage)".utf8))
      return 2
    } catch {
      FileHandle.standardError.write(Data("error: \(error)\n".utf8))
      return 1
    }
    return 0
  }
}

/// A mistake in the command line; reported with the usage text and exit status 2.
struct UsageError: Error {
  var message: String
  init(_ message: String) { self.message = message }
}

/// The command line, consumed option by option.
struct Arguments {
  private var rest: [String]
  let command: String?

  init(_ arguments: some Sequence<String>) {
    rest = Array(arguments)
    command = rest.isEmpty ? nil : rest.removeFirst()
  }

  /// Removes and returns the value of `--name`, if present.
  mutating func option(_ name: String, allowingDashes: Bool = false) throws -> String? {
    guard let index = rest.firstIndex(of: name) else { return nil }
    guard index + 1 < rest.count, allowingDashes || !rest[index + 1].hasPrefix("--") else {
      throw UsageError("\(name) needs a value")
    }
    defer { rest.removeSubrange(index...index + 1) }
    return rest[index + 1]
  }

  /// Removes and returns the value of `--name`, which must be one of `allowed`.
  mutating func option(_ name: String, oneOf allowed: [String]) throws -> String? {
    guard let value = try option(name) else { return nil }
    guard allowed.contains(value) else {
      throw UsageError("\(name) must be one of \(allowed.joined(separator: ", ")); got '\(value)'")
    }
    return value
  }

  /// Removes `--name` and returns whether it was present.
  mutating func flag(_ name: String) -> Bool {
    guard let index = rest.firstIndex(of: name) else { return false }
    rest.remove(at: index)
    return true
  }

  /// Removes and returns the value of `--name` as a number.
  mutating func number<N: FixedWidthInteger>(_ name: String, as type: N.Type = N.self) throws -> N?
  {
    guard let value = try option(name) else { return nil }
    guard let number = N(value), number >= 0 else {
      throw UsageError("\(name) must be a non-negative whole number; got '\(value)'")
    }
    return number
  }

  /// Removes and returns the next positional argument.
  mutating func positional(_ name: String) throws -> String {
    guard let index = rest.firstIndex(where: { !$0.hasPrefix("--") }) else {
      throw UsageError("missing \(name)")
    }
    return rest.remove(at: index)
  }

  /// Fails on anything left over.
  func finish() throws {
    if let extra = rest.first { throw UsageError("unexpected argument '\(extra)'") }
  }
}
