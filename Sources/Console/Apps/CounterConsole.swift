import ArchitectureApps

extension CounterApp: ConsoleApp {
  public static var initialInput: Void { () }

  /// `+` (or `=`, up) increments, `-` (or down) decrements, `r` or `0` resets, `q` quits.
  public static func action(for key: Key, view: CounterView, input: inout Void) -> KeyAction<
    CounterIntent
  > {
    switch key {
    case .character("+"), .character("="), .up: .send(.increment)
    case .character("-"), .character("_"), .down: .send(.decrement)
    case .character("r"), .character("0"): .send(.reset)
    case .character("q"): .quit
    default: .none
    }
  }

  public static func screen(_ view: CounterView, input: Void) -> [String] {
    var keys: [(key: String, meaning: String)] = []
    if view.status == .ready { keys.append(("+", "increment")) }
    if view.canDecrement { keys.append(("-", "decrement")) }
    if view.canReset { keys.append(("r", "reset")) }
    keys.append(("q", "quit"))
    return [view.text, keysLine(keys)]
  }
}
