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
    guard tenths >= 0 else { return "\(minutes):\(seconds < 10 ? "0" : "")\(seconds).\(tenth)" }
    // Written digit by digit: a running stopwatch formats its time every tick, and
    // interpolation costs about ten times as much. Up to 15 bytes, the string is stored inline.
    var width = 1
    var rest = minutes / 10
    while rest > 0 {
      width += 1
      rest /= 10
    }
    return String(unsafeUninitializedCapacity: width + 5) { text in
      var minutes = minutes
      for index in stride(from: width - 1, through: 0, by: -1) {
        text[index] = UInt8(ascii: "0") + UInt8(minutes % 10)
        minutes /= 10
      }
      text[width] = UInt8(ascii: ":")
      text[width + 1] = UInt8(ascii: "0") + UInt8(seconds / 10)
      text[width + 2] = UInt8(ascii: "0") + UInt8(seconds % 10)
      text[width + 3] = UInt8(ascii: ".")
      text[width + 4] = UInt8(ascii: "0") + UInt8(tenth)
      return width + 5
    }
  }

  /// The text of lap `number` (from 1) taken at `tenths` (S5).
  public static func lapText(number: Int, tenths: Int) -> String {
    "Lap \(number)  \(format(tenths: tenths))"
  }
}

/// The laps taken so far: their times and their texts, each text formatted once, when its lap
/// is taken. A view shares the texts rather than formatting them again, so a tick costs the
/// same with ten laps or ten thousand (SPEC R6, progress).
///
/// ```swift
/// var laps = Laps()
/// laps.append(12)           // texts == ["Lap 1  0:01.2"]
/// ```
public struct Laps: Sendable, Hashable, CustomStringConvertible, ExpressibleByArrayLiteral {
  /// Each lap's time, in tenths of a second, in the order taken.
  public private(set) var tenths: [Int] = []
  /// Each lap's text, as the view shows it.
  public private(set) var texts: [String] = []

  /// No laps.
  public init() {}

  /// Laps taken at `tenths`, in order.
  public init(_ tenths: [Int]) {
    for lap in tenths { append(lap) }
  }

  /// Laps taken at these tenths, in order: `[12, 30]`.
  public init(arrayLiteral tenths: Int...) {
    self.init(tenths)
  }

  /// Takes a lap at `tenths`.
  public mutating func append(_ tenths: Int) {
    self.tenths.append(tenths)
    texts.append(StopwatchApp.lapText(number: texts.count + 1, tenths: tenths))
  }

  public var isEmpty: Bool { tenths.isEmpty }
  public var count: Int { tenths.count }

  public static func == (lhs: Laps, rhs: Laps) -> Bool { lhs.tenths == rhs.tenths }
  public func hash(into hasher: inout Hasher) { hasher.combine(tenths) }
  public var description: String { tenths.description }
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

  /// Builds the view from elapsed tenths of a second, the running flag and the laps, whose
  /// texts it shares: nothing is formatted again for a tick.
  public init(elapsedTenths: Int, isRunning: Bool, laps: Laps) {
    self.elapsed = StopwatchApp.format(tenths: elapsedTenths)
    self.isRunning = isRunning
    self.startStopTitle = isRunning ? "Stop" : "Start"
    self.canLap = isRunning
    self.laps = laps.texts
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
