import ArchitectureApps

/// What the contacts screen tracks beyond the view.
public struct ContactsInput: Sendable, Hashable {
  /// The highlighted contact, by id; the first contact when it is not in the list.
  public var highlighted: Int?
  /// The name as typed so far in the add form; every key that changes it sends `nameChanged`.
  public var name = ""

  public init() {}

  /// The index of the highlighted contact in the list.
  func highlightIndex(in view: ContactsView) -> Int? {
    guard !view.contacts.isEmpty else { return nil }
    if let highlighted, let index = view.contacts.firstIndex(where: { $0.id == highlighted }) {
      return index
    }
    return 0
  }
}

extension ContactsApp: ConsoleApp {
  /// How many contacts the list shows at once, around the highlight.
  public static let shownContacts = 10

  public static var initialInput: ContactsInput { ContactsInput() }

  /// Escape goes back: it closes the destination first, then pops the top screen.
  public static var escapeQuits: Bool { false }

  /// In the add form: typing writes the name, Enter saves, Escape cancels. Under the alert:
  /// Enter (or `y`) confirms, Escape (or `n`) cancels. Otherwise: up and down choose a contact,
  /// Enter opens it (from the top screen, above it), `a` adds, `d` deletes (the top screen's
  /// contact when one is shown, else the highlighted one), Escape goes back, Home pops to the
  /// list, `r` retries a failed load, `q` quits.
  public static func action(for key: Key, view: ContactsView, input: inout ContactsInput)
    -> KeyAction<ContactsIntent>
  {
    switch view.destination {
    case .addForm:
      switch key {
      case .character(let character):
        input.name.append(character)
        return .send(.form(.nameChanged(input.name)))
      case .paste(let text):
        input.name += text
        return .send(.form(.nameChanged(input.name)))
      case .backspace:
        guard !input.name.isEmpty else { return .none }
        input.name.removeLast()
        return .send(.form(.nameChanged(input.name)))
      case .enter: return .send(.form(.save))
      case .escape: return .send(.form(.cancel))
      default: return .none
      }
    case .alert:
      switch key {
      case .enter, .character("y"): return .send(.alert(.confirm))
      case .escape, .character("n"): return .send(.alert(.cancel))
      default: return .none
      }
    case .none:
      break
    }
    let index = input.highlightIndex(in: view)
    let highlighted = index.map { view.contacts[$0].id }
    input.highlighted = highlighted
    let top = view.stack.last
    switch key {
    case .up:
      if let index, index > 0 { input.highlighted = view.contacts[index - 1].id }
      return .none
    case .down:
      if let index, index + 1 < view.contacts.count {
        input.highlighted = view.contacts[index + 1].id
      }
      return .none
    case .enter:
      guard let highlighted else { return .none }
      if let top { return .send(.screen(id: top.screenID, .open(contactID: highlighted))) }
      return .send(.open(contactID: highlighted))
    case .character("a"):
      input.name = ""
      return .send(.addTapped)
    case .character("d"):
      if let top { return .send(.screen(id: top.screenID, .delete)) }
      return highlighted.map { .send(.deleteTapped(contactID: $0)) } ?? .none
    case .character("r"):
      return top.map { .send(.screen(id: $0.screenID, .retry)) } ?? .none
    case .escape: return top == nil ? .none : .send(.back)
    case .home: return .send(.popToRoot)
    case .character("q"): return .quit
    default: return .none
    }
  }

  /// The top screen, or the list when the stack is empty; the destination over it; the keys.
  public static func screen(_ view: ContactsView, input: ContactsInput) -> [String] {
    var lines: [String] = []
    let highlight = input.highlightIndex(in: view)
    if let top = view.stack.last {
      let depth = view.stack.count > 1 ? "   (\(view.stack.count) screens deep)" : ""
      lines.append("\(top.contactName)\(depth)")
      lines.append(top.text)
      if let highlight {
        lines.append("open next: \(view.contacts[highlight].name)")
      }
    } else if view.contacts.isEmpty {
      lines.append("No contacts")
    } else {
      let index = highlight ?? 0
      let start = max(0, min(index - shownContacts / 2, view.contacts.count - shownContacts))
      let end = min(view.contacts.count, start + shownContacts)
      if start > 0 { lines.append("  … \(start) more above") }
      for position in start..<end {
        lines.append((position == index ? "> " : "  ") + view.contacts[position].name)
      }
      if end < view.contacts.count { lines.append("  … \(view.contacts.count - end) more below") }
    }
    switch view.destination {
    case .addForm(let form):
      lines.append("── Add contact ──")
      lines.append("Name: \(form.name)▏" + (form.isSaving ? "  saving…" : ""))
      if !form.error.isEmpty { lines.append(form.error) }
      var keys: [(key: String, meaning: String)] = [("type", "the name")]
      if form.canSave { keys.append(("enter", "save")) }
      keys.append(("esc", "cancel"))
      lines.append(keysLine(keys))
    case .alert(let title):
      lines.append("── \(title) ──")
      lines.append(keysLine([("enter", "delete"), ("esc", "cancel")]))
    case .none:
      var keys: [(key: String, meaning: String)] = []
      if !view.contacts.isEmpty {
        keys += [("up/down", "choose"), ("enter", "open")]
      }
      keys.append(("a", "add"))
      if view.stack.last != nil || !view.contacts.isEmpty { keys.append(("d", "delete")) }
      if view.stack.last?.status == .failed { keys.append(("r", "retry")) }
      if !view.stack.isEmpty { keys += [("esc", "back"), ("home", "list")] }
      keys.append(("q", "quit"))
      lines.append(keysLine(keys))
    }
    return lines
  }
}
