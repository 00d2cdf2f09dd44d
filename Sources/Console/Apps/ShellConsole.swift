import ArchitectureApps

/// What the shell's screen tracks: each child screen's own input.
public struct ShellInput: Sendable {
  public var weather = WeatherApp.initialInput

  public init() {}
}

extension ShellApp: ConsoleApp {
  public static var initialInput: ShellInput { ShellInput() }

  /// Ctrl-N and Ctrl-P switch tabs, Ctrl-X resets all; every other key goes to the selected
  /// child's screen, whose intents become the shell's intents for that child.
  public static func action(for key: Key, view: ShellView, input: inout ShellInput)
    -> KeyAction<ShellIntent>
  {
    switch key {
    case .control("n"): return .send(.select(neighbour(of: view.tab, by: 1)))
    case .control("p"): return .send(.select(neighbour(of: view.tab, by: -1)))
    case .control("x"): return .send(.resetAll)
    default: break
    }
    switch view.tab {
    case .counter:
      var none: Void = ()
      return lift(
        CounterApp.action(for: key, view: view.counter, input: &none), ShellIntent.counter)
    case .stopwatch:
      var none: Void = ()
      return lift(
        StopwatchApp.action(for: key, view: view.stopwatch, input: &none), ShellIntent.stopwatch)
    case .weather:
      return lift(
        WeatherApp.action(for: key, view: view.weather, input: &input.weather),
        ShellIntent.weather)
    }
  }

  /// Starting the stopwatch or changing the weather's query starts a timer, as in the apps.
  public static func startsTimer(_ intent: ShellIntent, view: ShellView) -> Bool {
    switch intent {
    case .stopwatch(let intent): StopwatchApp.startsTimer(intent, view: view.stopwatch)
    case .weather(let intent): WeatherApp.startsTimer(intent, view: view.weather)
    default: false
    }
  }

  public static func screen(_ view: ShellView, input: ShellInput) -> [String] {
    let tabs = ShellTab.allCases.map { tab in
      let badge = [view.counterBadge, view.stopwatchBadge, view.weatherBadge][
        ShellTab.allCases.firstIndex(of: tab) ?? 0]
      let name = tab.rawValue.capitalized + (badge.isEmpty ? "" : " (\(badge))")
      return tab == view.tab ? "[\(name)]" : " \(name) "
    }
    let child: [String] =
      switch view.tab {
      case .counter: CounterApp.screen(view.counter, input: ())
      case .stopwatch: StopwatchApp.screen(view.stopwatch, input: ())
      case .weather: WeatherApp.screen(view.weather, input: input.weather)
      }
    // The shell's keys join the child's keys line.
    let shellKeys = "ctrl-n/ctrl-p switch tab   ctrl-x reset all"
    var lines = [tabs.joined(separator: " "), ""] + child
    if let last = lines.last, last.hasPrefix("keys: ") {
      lines[lines.count - 1] = last + "   " + shellKeys
    } else {
      lines.append("keys: " + shellKeys)
    }
    return lines
  }

  private static func neighbour(of tab: ShellTab, by offset: Int) -> ShellTab {
    let all = ShellTab.allCases
    let index = all.firstIndex(of: tab) ?? 0
    return all[(index + offset + all.count) % all.count]
  }

  private static func lift<Intent>(
    _ action: KeyAction<Intent>, _ embed: (Intent) -> ShellIntent
  ) -> KeyAction<ShellIntent> {
    switch action {
    case .send(let intent): .send(embed(intent))
    case .none: .none
    case .quit: .quit
    }
  }
}
