import ArchitectureApps

extension StopwatchApp: ConsoleApp {
  public static var initialInput: Void { () }

  /// Space (or `s`) starts and stops, `l` laps, `r` resets, `q` quits.
  public static func action(for key: Key, view: StopwatchView, input: inout Void) -> KeyAction<
    StopwatchIntent
  > {
    switch key {
    case .character(" "), .character("s"), .enter: .send(view.isRunning ? .stop : .start)
    case .character("l"): .send(.lap)
    case .character("r"): .send(.reset)
    case .character("q"): .quit
    default: .none
    }
  }

  /// `start` while stopped starts the ticks.
  public static func startsTimer(_ intent: StopwatchIntent, view: StopwatchView) -> Bool {
    intent == .start && !view.isRunning
  }

  public static func screen(_ view: StopwatchView, input: Void) -> [String] {
    var keys: [(key: String, meaning: String)] = [("space", view.startStopTitle.lowercased())]
    if view.canLap { keys.append(("l", "lap")) }
    keys += [("r", "reset"), ("q", "quit")]
    return ["\(view.elapsed)  \(view.isRunning ? "running" : "stopped")"] + view.laps
      + [keysLine(keys)]
  }
}
