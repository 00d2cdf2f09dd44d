import ArchitectureApps

/// What the todos screen tracks beyond the view.
public struct TodosInput: Sendable, Hashable {
  /// The draft as typed so far; every key that changes it sends `draftChanged`.
  public var draft = ""
  /// The edit text as typed so far, while a row is edited.
  public var editText = ""
  /// The highlighted row, by id; the first visible row when it is not shown.
  public var highlighted: Int?

  public init() {}

  /// The index of the highlighted row among the visible ones.
  func highlightIndex(in view: TodosView) -> Int? {
    guard !view.visibleIDs.isEmpty else { return nil }
    if let highlighted, let index = view.visibleIDs.firstIndex(of: highlighted) { return index }
    return 0
  }
}

extension TodosApp: ConsoleApp {
  /// How many rows the screen shows at once, around the highlight.
  public static let shownRows = 12

  public static var initialInput: TodosInput { TodosInput() }

  public static func action(for key: Key, view: TodosView, input: inout TodosInput)
    -> KeyAction<TodosIntent>
  {
    action(for: key, view: view, children: [:], input: &input)
  }

  /// Typing writes the draft (or the edited title), Enter adds (or commits the edit), up and
  /// down move the highlight, Ctrl-T toggles, Ctrl-E edits, Ctrl-D deletes the highlighted
  /// row, Ctrl-U cancels an edit, Tab cycles the filter, Ctrl-A toggles all, Ctrl-X clears
  /// the completed rows.
  public static func action(
    for key: Key, view: TodosView, children: [Int: TodoRowView?], input: inout TodosInput
  ) -> KeyAction<TodosIntent> {
    guard view.status == .ready else { return .none }
    let index = input.highlightIndex(in: view)
    let highlighted = index.map { view.visibleIDs[$0] }
    input.highlighted = highlighted
    if let editing = view.editingID {
      switch key {
      case .character(let character):
        input.editText.append(character)
        return .send(.row(id: editing, .editChanged(input.editText)))
      case .paste(let text):
        input.editText += text
        return .send(.row(id: editing, .editChanged(input.editText)))
      case .backspace:
        guard !input.editText.isEmpty else { return .none }
        input.editText.removeLast()
        return .send(.row(id: editing, .editChanged(input.editText)))
      case .enter: return .send(.row(id: editing, .commitEdit))
      case .control("u"): return .send(.row(id: editing, .cancelEdit))
      default: break
      }
    }
    switch key {
    case .character(let character):
      input.draft.append(character)
      return .send(.draftChanged(input.draft))
    case .paste(let text):
      // Pasted text is typed at once, its line breaks included: it never adds a todo.
      input.draft += text
      return .send(.draftChanged(input.draft))
    case .backspace:
      guard !input.draft.isEmpty else { return .none }
      input.draft.removeLast()
      return .send(.draftChanged(input.draft))
    case .enter:
      guard !TodosApp.title(from: input.draft).isEmpty else { return .none }
      input.draft = ""
      return .send(.add)
    case .up:
      if let index, index > 0 { input.highlighted = view.visibleIDs[index - 1] }
      return .none
    case .down:
      if let index, index + 1 < view.visibleIDs.count {
        input.highlighted = view.visibleIDs[index + 1]
      }
      return .none
    case .control("t"):
      return highlighted.map { .send(.row(id: $0, .toggle)) } ?? .none
    case .control("d"):
      return highlighted.map { .send(.row(id: $0, .delete)) } ?? .none
    case .control("e"):
      guard let highlighted else { return .none }
      input.editText = (children[highlighted] ?? nil)?.title ?? ""
      return .send(.row(id: highlighted, .beginEdit))
    case .tab:
      let next: TodoFilter =
        switch view.filter {
        case .all: .active
        case .active: .completed
        case .completed: .all
        }
      return .send(.filter(next))
    case .control("a"): return .send(.toggleAll)
    case .control("x"): return .send(.clearCompleted)
    default: return .none
    }
  }

  /// The visible rows around the highlight, at most ``shownRows``.
  public static func shownChildren(_ view: TodosView, input: TodosInput) -> [Int] {
    guard let index = input.highlightIndex(in: view) else { return [] }
    let start = max(0, min(index - shownRows / 2, view.visibleIDs.count - shownRows))
    return Array(view.visibleIDs[start..<min(view.visibleIDs.count, start + shownRows)])
  }

  public static func screen(_ view: TodosView, input: TodosInput) -> [String] {
    screen(view, children: [:], input: input)
  }

  public static func screen(
    _ view: TodosView, children: [Int: TodoRowView?], input: TodosInput
  ) -> [String] {
    guard view.status == .ready else { return ["Loading…", keysLine([("esc", "quit")])] }
    let filters = TodoFilter.allCases.map { $0 == view.filter ? "[\($0)]" : $0.rawValue }
    var lines = [
      "\(view.itemsLeftText)   \(filters.joined(separator: " "))", "New: \(view.draft)",
    ]
    let shown = shownChildren(view, input: input)
    let highlighted = input.highlightIndex(in: view).map { view.visibleIDs[$0] }
    if let first = shown.first, let index = view.visibleIDs.firstIndex(of: first), index > 0 {
      lines.append("  … \(index) more above")
    }
    for id in shown {
      let mark = id == highlighted ? "> " : "  "
      guard let row = children[id] ?? nil else {
        lines.append(mark + "…")
        continue
      }
      let title =
        row.isEditing ? "\(row.editText)▏ (editing: enter saves, ctrl-u cancels)" : row.title
      lines.append(mark + (row.done ? "[x] " : "[ ] ") + title)
    }
    if let last = shown.last, let index = view.visibleIDs.firstIndex(of: last),
      index + 1 < view.visibleIDs.count
    {
      lines.append("  … \(view.visibleIDs.count - index - 1) more below")
    }
    var keys: [(key: String, meaning: String)] = [("type", "to write"), ("enter", "add")]
    if !view.visibleIDs.isEmpty {
      keys += [
        ("up/down", "choose"), ("ctrl-t", "toggle"), ("ctrl-e", "edit"), ("ctrl-d", "delete"),
      ]
    }
    keys.append(("tab", "filter"))
    if view.canToggleAll { keys.append(("ctrl-a", "toggle all")) }
    if view.canClearCompleted { keys.append(("ctrl-x", "clear completed")) }
    keys.append(("esc", "quit"))
    return lines + [keysLine(keys)]
  }
}
