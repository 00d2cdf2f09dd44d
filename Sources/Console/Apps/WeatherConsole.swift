import ArchitectureApps

/// What the weather screen tracks beyond the view.
public struct WeatherInput: Sendable, Hashable {
  /// The query as typed so far; every key that changes it sends `queryChanged`.
  public var query = ""
  /// The highlighted row, which Enter selects.
  public var highlighted = 0
  /// The rows the highlight belongs to; new results start at the first row again.
  public var rowIDs: [Int] = []

  /// The highlighted row of `view`: the first one when the rows changed.
  func highlight(in view: WeatherView) -> Int {
    view.rows.map(\.id) == rowIDs ? min(highlighted, view.rows.count - 1) : 0
  }

  public init() {}
}

extension WeatherApp: ConsoleApp {
  public static var initialInput: WeatherInput { WeatherInput() }

  /// Typing edits the query, up and down move the highlight, Enter selects the highlighted row,
  /// Tab toggles °C/°F, Ctrl-R retries a failed forecast.
  public static func action(for key: Key, view: WeatherView, input: inout WeatherInput)
    -> KeyAction<WeatherIntent>
  {
    input.highlighted = input.highlight(in: view)
    input.rowIDs = view.rows.map(\.id)
    switch key {
    case .character(let character):
      input.query.append(character)
      return .send(.queryChanged(input.query))
    case .paste(let text):
      // Pasted text is typed at once: one change of the query (SPEC L1, L3).
      input.query += text
      return .send(.queryChanged(input.query))
    case .backspace:
      guard !input.query.isEmpty else { return .none }
      input.query.removeLast()
      return .send(.queryChanged(input.query))
    case .up:
      input.highlighted = max(0, min(input.highlighted, view.rows.count - 1) - 1)
      return .none
    case .down:
      input.highlighted = min(input.highlighted + 1, max(0, view.rows.count - 1))
      return .none
    case .enter:
      guard !view.rows.isEmpty else { return .none }
      return .send(.select(placeID: view.rows[min(input.highlighted, view.rows.count - 1)].id))
    case .tab:
      return .send(.toggleUnit)
    case .control("r"):
      return .send(.retry)
    default:
      return .none
    }
  }

  /// Every query change restarts the debounce.
  public static func startsTimer(_ intent: WeatherIntent, view: WeatherView) -> Bool {
    if case .queryChanged = intent { true } else { false }
  }

  public static func screen(_ view: WeatherView, input: WeatherInput) -> [String] {
    var lines = ["Search: \(view.query)"]
    if !view.status.text.isEmpty { lines.append(view.status.text) }
    let highlighted = input.highlight(in: view)
    for (index, row) in view.rows.enumerated() {
      let mark = index == highlighted ? "> " : "  "
      lines.append(mark + row.text + (row.id == view.selectedPlaceID ? "  (selected)" : ""))
    }
    if view.weather.kind != .none { lines.append(view.weather.text) }
    var keys: [(key: String, meaning: String)] = [("type", "to search")]
    if !view.rows.isEmpty { keys += [("up/down", "choose"), ("enter", "select")] }
    keys.append(("tab", view.unit == .celsius ? "°F" : "°C"))
    if view.weather.kind == .failed { keys.append(("ctrl-r", "retry")) }
    keys.append(("esc", "quit"))
    return lines + [keysLine(keys)]
  }
}
