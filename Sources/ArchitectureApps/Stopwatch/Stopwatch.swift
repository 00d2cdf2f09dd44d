/// The stopwatch app (SPEC §3): start, stop, reset and laps on an injected clock.
public enum StopwatchApp: Sendable {
  /// The time between ticks; each tick adds this much (S2).
  public static let tickInterval = Duration.milliseconds(100)

  /// Formats tenths of a second as `M:SS.t`, minutes unpadded and never split into hours (S7).
  ///
  /// ```swift
  /// StopwatchApp.format(tenths: 36_615)  // "61:01.5"
  /// ```
  public static func format(tenths: Int) -> String {
    let minutes = tenths / 600
    let seconds = (tenths % 600) / 10
    let tenth = tenths % 10
    return "\(minutes):\(seconds < 10 ? "0" : "")\(seconds).\(tenth)"
  }

  /// The text of lap `number` (from 1) taken at `tenths` (S5).
  public static func lapText(number: Int, tenths: Int) -> String {
    "Lap \(number)  \(format(tenths: tenths))"
  }
}

/// What the user does in the stopwatch app.
public enum StopwatchIntent: String, Codable, Sendable, CaseIterable, CustomStringConvertible {
  case start
  case stop
  case reset
  case lap

  public var description: String { rawValue }
}

/// Everything the stopwatch shows.
public struct StopwatchView: Codable, Sendable, Hashable, CustomStringConvertible {
  public var elapsed: String
  public var isRunning: Bool
  public var startStopTitle: String
  public var canLap: Bool
  public var laps: [String]

  public init(
    elapsed: String, isRunning: Bool, startStopTitle: String, canLap: Bool, laps: [String]
  ) {
    self.elapsed = elapsed
    self.isRunning = isRunning
    self.startStopTitle = startStopTitle
    self.canLap = canLap
    self.laps = laps
  }

  /// Builds the view from elapsed tenths of a second, the running flag and the lap times.
  public init(elapsedTenths: Int, isRunning: Bool, lapTenths: [Int]) {
    self.elapsed = StopwatchApp.format(tenths: elapsedTenths)
    self.isRunning = isRunning
    self.startStopTitle = isRunning ? "Stop" : "Start"
    self.canLap = isRunning
    self.laps = lapTenths.enumerated().map {
      StopwatchApp.lapText(number: $0.offset + 1, tenths: $0.element)
    }
  }

  /// The view before anything happened (S1).
  public static let initial = StopwatchView(elapsedTenths: 0, isRunning: false, lapTenths: [])

  public var description: String {
    "\(elapsed) \(isRunning ? "running" : "stopped")"
      + (laps.isEmpty ? "" : " laps: \(laps.joined(separator: ", "))")
  }
}

/// The stopwatch's side effects: only time.
public struct StopwatchEnvironment: Sendable {
  public var clock: any Clock<Duration>
  /// The executor every task the runtime creates should prefer (`nil`: the default executor).
  public var executor: (any TaskExecutor)?

  public init(clock: any Clock<Duration>, executor: (any TaskExecutor)? = nil) {
    self.clock = clock
    self.executor = executor
  }
}

extension StopwatchApp: SpecApp {
  public typealias Intent = StopwatchIntent
  public typealias View = StopwatchView
  public typealias Environment = StopwatchEnvironment

  public static let name = "stopwatch"
}
