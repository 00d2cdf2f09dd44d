/// A scenario that an architecture failed, with the rules it covers and why.
public struct ConformanceFailure: Sendable, Hashable, Codable, CustomStringConvertible {
  public var architecture: String
  public var app: String
  public var scenario: String
  public var rules: [Rule]
  public var message: String

  public init(architecture: String, app: String, scenario: String, rules: [Rule], message: String) {
    self.architecture = architecture
    self.app = app
    self.scenario = scenario
    self.rules = rules
    self.message = message
  }

  public var description: String {
    "\(architecture) · \(app) · \(scenario) [\(rules.map(\.rawValue).joined(separator: ", "))]\n\(message)"
  }
}

/// A random program whose trace differed from the reference's.
public struct ProgramFailure: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The seed that regenerates the program: `arch conformance --seed N --programs 1`.
  public var seed: UInt64
  /// The shortest failing program found, one step per line.
  public var program: String
  /// The first divergence of the shortened program.
  public var message: String

  public init(seed: UInt64, program: String, message: String) {
    self.seed = seed
    self.program = program
    self.message = message
  }

  public var description: String {
    "program with seed \(seed), shortened to:\n\(program)\n\(message)"
  }
}

/// A failure the project knows about and accepts for now (like TodoMVC's `knownIssues`).
/// The goal is an empty list: an entry whose scenario passes is itself reported as an error.
public struct KnownDeviation: Sendable, Hashable, Codable {
  public var architecture: String
  public var app: String
  public var scenario: String
  public var reason: String

  public init(architecture: String, app: String, scenario: String, reason: String) {
    self.architecture = architecture
    self.app = app
    self.scenario = scenario
    self.reason = reason
  }
}

/// The result of checking one architecture against one app.
public struct AppReport: Sendable, Hashable, Codable {
  public var architecture: String
  public var app: String
  public var scenarios: Int
  public var passed: Int
  public var failures: [ConformanceFailure]
  /// Scenarios that failed as a known deviation says they would.
  public var knownDeviations: [KnownDeviation]
  public var programs: Int
  public var programFailures: [ProgramFailure]
  /// How many times each scenario ran (`arch conformance --repeat N`).
  public var repeats: Int = 1
  /// Scenario runs whose trace or expectations failed, over all repeats.
  public var divergingRuns: Int = 0
  /// Rules the architecture's driver, rather than the library, takes care of.
  public var rulesMetByGlue: [String] = []
  /// The stop-and-release race probe (R6), unless it was skipped (`Options.stressTries` 0) or
  /// the app has no stress environment. Its late events are also in ``failures``.
  public var raceProbe: Stress.Report?

  public init(
    architecture: String, app: String, scenarios: Int, passed: Int,
    failures: [ConformanceFailure], knownDeviations: [KnownDeviation], programs: Int,
    programFailures: [ProgramFailure], repeats: Int = 1, divergingRuns: Int = 0,
    rulesMetByGlue: [String] = []
  ) {
    self.architecture = architecture
    self.app = app
    self.scenarios = scenarios
    self.passed = passed
    self.failures = failures
    self.knownDeviations = knownDeviations
    self.programs = programs
    self.programFailures = programFailures
    self.repeats = repeats
    self.divergingRuns = divergingRuns
    self.rulesMetByGlue = rulesMetByGlue
  }

  /// Whether everything passed (known deviations aside).
  public var isPassing: Bool { failures.isEmpty && programFailures.isEmpty }
}
