import ArchitectureSpec
import IOLoop

// side-by-side: todos intents
/// What a row's user does, as the one IO type of a row program: intents come in, nothing goes
/// out (a row makes no call of its own).
public enum TodoRowIO: IOType {
  public typealias Input = TodoRowIntent
}

// side-by-side: todos state
/// One todo row as a program of its own: its state, and a pure step for its intents. The list
/// embeds one per row (``IOTodos``); nothing of the row is written again there.
public struct IOTodoRow: PureApp, Equatable {
  // side-by-side: todos intents
  public typealias Input = IOInput<TodoRowIO>
  public typealias Outputs = IOOutputs<TodoRowIO>

  // side-by-side: todos state
  public var title: String
  public var done: Bool
  public var isEditing = false
  public var editText = ""
  /// Set by a commit whose text makes an empty title: the list removes the row (T4).
  public var asksRemoval = false

  public init(title: String, done: Bool) {
    self.title = title
    self.done = done
  }

  // side-by-side: todos wiring
  public func view(id: Int) -> TodoRowView {
    TodoRowView(id: id, title: title, done: done, isEditing: isEditing, editText: editText)
  }

  // side-by-side: todos update
  /// A row alone starts empty; the list makes its rows from records instead.
  public static func start() -> (IOTodoRow, Outputs) {
    (IOTodoRow(title: "", done: false), .none)
  }

  // Written in place, as the list's own step: the list runs it where it keeps the row.
  public mutating func run(inPlace input: Input) -> Outputs {
    guard let intent: TodoRowIntent = input.values else { return .none }
    switch intent {
    case .toggle:
      done.toggle()
    case .delete:
      asksRemoval = true
    case .beginEdit:
      guard !isEditing else { return .none }
      isEditing = true
      editText = title
    case .editChanged(let text):
      guard isEditing else { return .none }
      editText = text
    case .commitEdit:
      guard isEditing else { return .none }
      let title = TodosApp.title(from: editText)
      isEditing = false
      editText = ""
      if title.isEmpty { asksRemoval = true } else { self.title = title }
    case .cancelEdit:
      guard isEditing else { return .none }
      isEditing = false
      editText = ""
    }
    return .none
  }
  // side-by-side: end
}

// side-by-side: todos effects
/// Todo storage as an IO type: one load at start, one save at a time.
public enum TodoStorageIO: IOType {
  public enum Output: Sendable, Equatable {
    case load
    case save([TodoRecord])
  }
  // side-by-side: todos intents
  public enum Input: Sendable, Equatable {
    case loaded([TodoRecord]?)
    case loadFailed
    case saved(succeeded: Bool)
  }
  // side-by-side: end
}

// side-by-side: todos intents
/// The list's own intents, as an IO type that only brings inputs.
public enum TodosIntentIO: IOType {
  public typealias Input = TodosIntent
}

// side-by-side: todos state
/// The todos list as one pure function: the row programs embedded as a list (their inputs are
/// the list's `row` intents), storage and the log as outputs.
public struct IOTodos: PureApp, Equatable {
  // side-by-side: todos intents
  public typealias Rows = ProgramsIO<Int, IOTodoRow>
  public typealias Input = IOInput<TodosIntentIO, Rows, LogIO, TodoStorageIO>
  // side-by-side: todos effects
  public typealias Outputs = IOOutputs<TodosIntentIO, Rows, LogIO, TodoStorageIO>

  // side-by-side: todos state
  public var isLoaded = false
  public var rows = IdentifiedList<Int, IOTodoRow>()
  public var doneCount = 0
  public var draft = ""
  public var filter = TodoFilter.all
  public var editingID: Int?
  /// The largest id that has been in the list this run (T2).
  public var largestID = 0
  /// The list the save in flight holds (T7), and whether the list changed since it began.
  public var saving: [TodoRecord]?
  public var changedWhileSaving = false

  public init() {}

  /// The list as storage keeps it.
  public var records: [TodoRecord] {
    rows.map { TodoRecord(id: $0, title: $1.title, done: $1.done) }
  }

  // side-by-side: todos wiring
  public var view: TodosView {
    guard isLoaded else { return .loading }
    let ids = rows.ids
    let filter = self.filter
    let visible = filter == .all ? ids : rows.ids { filter.shows(done: $0.done) }
    return TodosView(
      status: .ready, draft: draft, visibleIDs: visible,
      itemsLeftText: TodosApp.itemsLeftText(ids.count - doneCount), filter: filter,
      allDone: !ids.isEmpty && doneCount == ids.count, canToggleAll: !ids.isEmpty,
      canClearCompleted: doneCount > 0, editingID: editingID)
  }

  // side-by-side: todos update
  public static func start() -> (IOTodos, Outputs) {
    (IOTodos(), Outputs([], [], [], [.load]))
  }

  // Written in place (`run(inPlace:)`): the list is changed where the program keeps it, so
  // one row of a long list changes without copying the nodes on its path.
  public mutating func run(inPlace input: Input) -> Outputs {
    switch input.values {
    case (let intent?, _, _, _):
      return handle(intent)
    case (_, let row?, _, _):
      // An input sent through a row's scope is the list's `row` intent for it.
      guard let intent: TodoRowIntent = row.input.values else { return .none }
      return handle(.row(id: row.id, intent))
    case (_, _, _, let storage?):
      return handle(storage)
    default:
      return .none
    }
  }

  private mutating func handle(_ intent: TodosIntent) -> Outputs {
    guard isLoaded else { return .none }
    var rowOutputs: [Rows.Output] = []
    guard let changed = apply(intent, rowOutputs: &rowOutputs) else { return .none }
    // Only what the rows asked for, if anything (most edits ask for nothing: no outputs).
    let rowsOnly = rowOutputs.isEmpty ? Outputs.none : Outputs([], rowOutputs, [], [])
    guard changed else { return rowsOnly }
    // The list changed: save it now, or after the save in flight (T7).
    guard saving == nil else {
      changedWhileSaving = true
      return rowsOnly
    }
    let list = records
    saving = list
    return Outputs([], rowOutputs, [], [.save(list)])
  }

  private mutating func handle(_ storage: TodoStorageIO.Input) -> Outputs {
    switch storage {
    case .loaded(let records):
      guard !isLoaded else { return .none }
      isLoaded = true
      guard let records, !records.isEmpty else { return .none }
      guard TodosApp.isValid(records) else {
        return Outputs([], [], [.log(TodosApp.unreadableTodosMessage)], [])
      }
      rows.append(
        contentsOf: records.lazy.map { ($0.id, IOTodoRow(title: $0.title, done: $0.done)) })
      doneCount = records.count { $0.done }
      largestID = records.map(\.id).max() ?? 0
      return .none
    case .loadFailed:
      guard !isLoaded else { return .none }
      isLoaded = true
      return Outputs([], [], [.log(TodosApp.unreadableTodosMessage)], [])
    case .saved(let succeeded):
      guard let held = saving else { return .none }
      saving = nil
      let log: [LogIO.Output] = succeeded ? [] : [.log(TodosApp.saveFailedMessage)]
      var save: [TodoStorageIO.Output] = []
      if changedWhileSaving {
        changedWhileSaving = false
        let latest = records
        if latest != held {
          saving = latest
          save = [.save(latest)]
        }
      }
      return Outputs([], [], log, save)
    }
  }

  /// Applies an intent; returns whether the list (ids in order, titles, done) changed, or
  /// `nil` when nothing at all changed. The rows' outputs, and the removal of the rows it
  /// removes, are added to `rowOutputs`.
  private mutating func apply(_ intent: TodosIntent, rowOutputs: inout [Rows.Output]) -> Bool? {
    switch intent {
    case .draftChanged(let text):
      guard draft != text else { return nil }
      draft = text
      return false
    case .add:
      let title = TodosApp.title(from: draft)
      guard !title.isEmpty, largestID < Int.max else { return nil }
      largestID += 1
      rows.append(IOTodoRow(title: title, done: false), id: largestID)
      draft = ""
      return true
    case .toggleAll:
      guard !rows.isEmpty else { return nil }
      let done = doneCount != rows.count
      rows.updateAll { $0.done = done }
      doneCount = done ? rows.count : 0
      return true
    case .clearCompleted:
      guard doneCount > 0 else { return nil }
      if let editing = editingID, rows[id: editing]?.done == true { editingID = nil }
      for id in rows.ids(where: \.done) { rowOutputs.append(.removed(id)) }
      rows.removeAll { $0.done }
      doneCount = 0
      return true
    case .filter(let filter):
      guard self.filter != filter else { return nil }
      self.filter = filter
      return false
    case .row(let id, let rowIntent):
      switch rowIntent {
      case .beginEdit:
        guard editingID != id, rows.contains(id: id) else { return nil }
        // One row at most is edited: the edited one is committed first, in this message (T4).
        var changed = false
        if let editing = editingID {
          changed = runRow(.commitEdit, id: editing, rowOutputs: &rowOutputs) ?? false
        }
        _ = runRow(.beginEdit, id: id, rowOutputs: &rowOutputs)
        editingID = id
        return changed
      case .editChanged:
        guard editingID == id else { return nil }
        return runRow(rowIntent, id: id, rowOutputs: &rowOutputs)
      case .commitEdit, .cancelEdit:
        guard editingID == id, rows.contains(id: id) else { return nil }
        editingID = nil
        return runRow(rowIntent, id: id, rowOutputs: &rowOutputs)
      case .toggle, .delete:
        // A row that is not there: nothing changes (`runRow` looks it up).
        return runRow(rowIntent, id: id, rowOutputs: &rowOutputs)
      }
    }
  }

  /// Runs row `id`'s own program on `intent`, where the list keeps the row, then does what
  /// the row asked of the list (its removal); returns whether the list changed, or `nil` when
  /// there is no such row.
  private mutating func runRow(
    _ intent: TodoRowIntent, id: Int, rowOutputs: inout [Rows.Output]
  ) -> Bool? {
    let ran = rows.update(id: id) { row in
      let (wasDone, title) = (row.done, row.title)
      let outputs = row.run(inPlace: IOInput(TodoRowIO.self, intent))
      return (
        outputs: outputs, asksRemoval: row.asksRemoval, isDone: row.done,
        doneChanged: row.done != wasDone, titleChanged: row.title != title
      )
    }
    guard let ran else { return nil }
    if !ran.outputs.isEmpty { rowOutputs.append(.outputs(id, ran.outputs)) }
    if ran.asksRemoval {
      rows.remove(id: id)
      rowOutputs.append(.removed(id))
      if ran.isDone { doneCount -= 1 }
      if editingID == id { editingID = nil }
      return true
    }
    if ran.doneChanged { doneCount += ran.isDone ? 1 : -1 }
    return ran.doneChanged || ran.titleChanged
  }
  // side-by-side: end
}

// side-by-side: todos effects
/// Loads and saves the list; each answer comes back as an input.
public struct TodoStorageHandler: IOHandler {
  public typealias IO = TodoStorageIO
  let storage: any TodoStorage

  public init(_ storage: any TodoStorage) { self.storage = storage }

  public func handle(_ output: TodoStorageIO.Output, context: IOContext<TodoStorageIO>) {
    let storage = self.storage
    switch output {
    case .load:
      context.run { send in
        do { send(.loaded(try await storage.loadTodos())) } catch { send(.loadFailed) }
      }
    case .save(let list):
      context.run { send in
        // `WhileRunning`: once the program stopped, no save begins (R6).
        do {
          try await WhileRunning.call { try await storage.saveTodos(list) }
          send(.saved(succeeded: true))
        } catch is CancellationError {
          // Stopped: nothing to report.
        } catch {
          send(.saved(succeeded: false))
        }
      }
    }
  }
}
// side-by-side: end
