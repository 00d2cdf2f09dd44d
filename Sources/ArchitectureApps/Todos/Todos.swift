/// The todos app (SPEC §5): a TodoMVC list whose rows are child features.
public enum TodosApp: Sendable {
  /// The longest title, in Characters (T2).
  public static let maximumTitleLength = 500

  /// Logged when storage returned nothing usable (T1).
  public static let unreadableTodosMessage = "storage: ignored unreadable todos"

  /// Logged when a save failed (T7).
  public static let saveFailedMessage = "storage: save failed"

  /// `text` without leading and trailing whitespace Characters (T2): a Character is whitespace
  /// when `Character.isWhitespace` says so, so a space carrying a combining mark is one, and
  /// U+200B and U+FEFF are not.
  public static func trimmed(_ text: String) -> Substring {
    guard let first = text.firstIndex(where: { !$0.isWhitespace }),
      let last = text.lastIndex(where: { !$0.isWhitespace })
    else { return "" }
    return text[first...last]
  }

  /// A title made from `text` (T2): trimmed, then its first 500 Characters (whitespace left at
  /// the cut stays). Empty when nothing but whitespace was typed.
  public static func title(from text: String) -> String {
    String(trimmed(text).prefix(maximumTitleLength))
  }

  /// `1 item left`, otherwise `N items left` in plain digits (T6).
  public static func itemsLeftText(_ count: Int) -> String {
    count == 1 ? "1 item left" : "\(count) items left"
  }

  /// Whether loaded records are a list the app accepts (T1): every id above 0, no two equal,
  /// no title empty after trimming.
  public static func isValid(_ records: [TodoRecord]) -> Bool {
    var seen = Set<Int>()
    seen.reserveCapacity(records.count)
    for record in records {
      guard record.id > 0, seen.insert(record.id).inserted, !trimmed(record.title).isEmpty else {
        return false
      }
    }
    return true
  }
}

/// One stored todo: what storage loads and saves.
public struct TodoRecord: Codable, Sendable, Hashable, CustomStringConvertible {
  public var id: Int
  public var title: String
  public var done: Bool

  public init(id: Int, title: String, done: Bool) {
    self.id = id
    self.title = title
    self.done = done
  }

  public var description: String { "\(id) \(quoted(title))\(done ? " ✓" : "")" }
}

/// Which rows the list shows (T6).
public enum TodoFilter: String, Codable, Sendable, CaseIterable, CustomStringConvertible {
  case all
  case active
  case completed

  public var description: String { rawValue }

  /// Whether a row that is `done` is shown.
  public func shows(done: Bool) -> Bool {
    switch self {
    case .all: true
    case .active: !done
    case .completed: done
    }
  }
}

/// What the user does to one row (T3, T4).
public enum TodoRowIntent: Codable, Sendable, Hashable, CustomStringConvertible {
  case toggle
  case delete
  case beginEdit
  case editChanged(String)
  case commitEdit
  case cancelEdit

  public var description: String {
    switch self {
    case .toggle: "toggle"
    case .delete: "delete"
    case .beginEdit: "beginEdit"
    case .editChanged(let text): "editChanged(\(quoted(text)))"
    case .commitEdit: "commitEdit"
    case .cancelEdit: "cancelEdit"
    }
  }
}

/// What the user does in the todos app.
public enum TodosIntent: Codable, Sendable, Hashable, CustomStringConvertible {
  case draftChanged(String)
  case add
  case toggleAll
  case clearCompleted
  case filter(TodoFilter)
  /// An intent of one row; sent through a row's scope, a row intent is this.
  case row(id: Int, TodoRowIntent)

  public var description: String {
    switch self {
    case .draftChanged(let text): "draftChanged(\(quoted(text)))"
    case .add: "add"
    case .toggleAll: "toggleAll"
    case .clearCompleted: "clearCompleted"
    case .filter(let filter): "filter(\(filter))"
    case .row(let id, let intent): "row(\(id), \(intent))"
    }
  }
}

/// What one row shows (T4).
public struct TodoRowView: Codable, Sendable, Hashable, CustomStringConvertible {
  public var id: Int
  public var title: String
  public var done: Bool
  public var isEditing: Bool
  /// The text being edited; `""` unless the row is edited.
  public var editText: String

  public init(id: Int, title: String, done: Bool, isEditing: Bool = false, editText: String = "") {
    self.id = id
    self.title = title
    self.done = done
    self.isEditing = isEditing
    self.editText = editText
  }

  public var description: String {
    "#\(id) \(quoted(title))\(done ? " ✓" : "")\(isEditing ? " editing" : "")"
      + (editText.isEmpty ? "" : " text \(quoted(editText))")
  }
}

/// Everything the todos list shows (T1, T6).
public struct TodosView: Codable, Sendable, Hashable, CustomStringConvertible {
  /// Whether the stored list has been read yet.
  public enum Status: String, Codable, Sendable {
    case loading
    case ready
  }

  public var status: Status
  public var draft: String
  /// The ids of the rows shown, in list order.
  public var visibleIDs: [Int]
  public var itemsLeftText: String
  public var filter: TodoFilter
  public var allDone: Bool
  public var canToggleAll: Bool
  public var canClearCompleted: Bool
  /// The id of the row being edited.
  public var editingID: Int?

  public init(
    status: Status = .ready, draft: String = "", visibleIDs: [Int] = [],
    itemsLeftText: String = TodosApp.itemsLeftText(0), filter: TodoFilter = .all,
    allDone: Bool = false, canToggleAll: Bool = false, canClearCompleted: Bool = false,
    editingID: Int? = nil
  ) {
    self.status = status
    self.draft = draft
    self.visibleIDs = visibleIDs
    self.itemsLeftText = itemsLeftText
    self.filter = filter
    self.allDone = allDone
    self.canToggleAll = canToggleAll
    self.canClearCompleted = canClearCompleted
    self.editingID = editingID
  }

  /// The view while the stored list is being read (T1).
  public static let loading = TodosView(status: .loading)

  public var description: String {
    guard status == .ready else { return "Loading…" }
    var parts = ["\(visibleIDs.count <= 8 ? "\(visibleIDs)" : "\(visibleIDs.count) rows")"]
    parts.append(itemsLeftText)
    if filter != .all { parts.append("filter \(filter)") }
    if !draft.isEmpty { parts.append("draft \(quoted(draft))") }
    let flags = [
      allDone ? "allDone" : "", canToggleAll ? "toggleAll" : "",
      canClearCompleted ? "clear" : "",
    ].filter { !$0.isEmpty }
    if !flags.isEmpty { parts.append("[\(flags.joined(separator: " "))]") }
    if let editingID { parts.append("editing #\(editingID)") }
    return parts.joined(separator: ", ")
  }
}

/// Where the todos are kept between runs.
public protocol TodoStorage: Sendable {
  /// Reads the stored list; `nil` when nothing was stored yet.
  func loadTodos() async throws -> [TodoRecord]?
  /// Replaces the stored list.
  func saveTodos(_ todos: [TodoRecord]) async throws
}

/// The todos app's side effects.
public struct TodosEnvironment: Sendable {
  public var storage: any TodoStorage
  public var log: any AppLog
  /// The executor every task the runtime creates should prefer (`nil`: the default executor).
  public var executor: (any TaskExecutor)?

  public init(storage: any TodoStorage, log: any AppLog, executor: (any TaskExecutor)? = nil) {
    self.storage = storage
    self.log = log
    self.executor = executor
  }
}

extension TodosApp: SpecApp {
  public typealias Intent = TodosIntent
  public typealias View = TodosView
  public typealias Environment = TodosEnvironment
  /// A row, by id.
  public typealias Child = Int
  /// A row's view, or `nil` once (the row is gone, or was never there).
  public typealias ChildView = TodoRowView?
  public typealias ChildIntent = TodoRowIntent

  public static let name = "todos"
}
