import ArchitectureSpec
import ElmStore

/// One todo row as a feature of its own: its state, its actions and its update. The list
/// lifts it over its rows (``ElmTodos``); nothing of the row is written again there.
public enum ElmTodoRow {
  // side-by-side: todos state
  public struct State: Equatable, Sendable {
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
  }

  // side-by-side: todos intents
  public typealias Action = TodoRowIntent

  // side-by-side: todos update
  public static func update(_ state: inout State, _ action: Action) {
    switch action {
    case .toggle: state.done.toggle()
    case .delete: state.asksRemoval = true
    case .beginEdit:
      guard !state.isEditing else { return }
      state.isEditing = true
      state.editText = state.title
    case .editChanged(let text):
      if state.isEditing { state.editText = text }
    case .commitEdit:
      guard state.isEditing else { return }
      let title = TodosApp.title(from: state.editText)
      state.isEditing = false
      state.editText = ""
      if title.isEmpty { state.asksRemoval = true } else { state.title = title }
    case .cancelEdit:
      guard state.isEditing else { return }
      state.isEditing = false
      state.editText = ""
    }
  }

  // side-by-side: todos wiring
  public static func view(id: Int, _ state: State) -> TodoRowView {
    TodoRowView(
      id: id, title: state.title, done: state.done, isEditing: state.isEditing,
      editText: state.editText)
  }
  // side-by-side: end
}

/// The todos list as an ElmStore app: rows lifted with `lift(_:forEach:action:)`, the list's
/// own update around them, and effects that load, save one list at a time and log.
public enum ElmTodos {
  // side-by-side: todos state
  public struct State: Equatable, Sendable {
    public var isLoaded = false
    public var rows = IdentifiedList<Int, ElmTodoRow.State>()
    public var doneCount = 0
    public var draft = ""
    public var filter = TodoFilter.all
    public var editingID: Int?
    /// The largest id that has been in the list this run (T2).
    public var largestID = 0
    /// The list the save in flight holds (T7), and whether the list changed since it began.
    public var saving: [TodoRecord]?
    public var changedWhileSaving = false
    /// What the effects are asked to do after this action: a log line, then a save.
    public var logLine: String?
    public var listToSave: [TodoRecord]?

    public init() {}

    /// The list as storage keeps it.
    public var records: [TodoRecord] {
      rows.map { TodoRecord(id: $0, title: $1.title, done: $1.done) }
    }
  }

  // side-by-side: todos intents
  public enum Action: Equatable, Sendable {
    case load
    case loaded([TodoRecord]?)
    case loadFailed
    case intent(TodosIntent)
    case saved(succeeded: Bool)
  }

  // side-by-side: todos update
  /// How a list action carries a row's: `.intent(.row(id, intent))`.
  static let row = ActionPath<Action, (id: Int, action: TodoRowIntent)>(
    embed: { .intent(.row(id: $0.id, $0.action)) },
    extract: { if case .intent(.row(let id, let intent)) = $0 { (id, intent) } else { nil } })

  /// The row's own update, for every row.
  static let rowUpdate: Update<State, Action> = lift(
    ElmTodoRow.update, forEach: \.rows, action: row)

  public static func update(_ state: inout State, _ action: Action) {
    state.logLine = nil
    state.listToSave = nil
    switch action {
    case .load:
      break
    case .loaded(let records):
      guard !state.isLoaded else { return }
      state.isLoaded = true
      guard let records, !records.isEmpty else { return }
      guard TodosApp.isValid(records) else {
        state.logLine = TodosApp.unreadableTodosMessage
        return
      }
      state.rows.append(
        contentsOf: records.lazy.map { ($0.id, ElmTodoRow.State(title: $0.title, done: $0.done)) })
      state.doneCount = records.count { $0.done }
      state.largestID = records.map(\.id).max() ?? 0
    case .loadFailed:
      guard !state.isLoaded else { return }
      state.isLoaded = true
      state.logLine = TodosApp.unreadableTodosMessage
    case .saved(let succeeded):
      guard let held = state.saving else { return }
      state.saving = nil
      if !succeeded { state.logLine = TodosApp.saveFailedMessage }
      if state.changedWhileSaving {
        state.changedWhileSaving = false
        let latest = state.records
        if latest != held {
          state.saving = latest
          state.listToSave = latest
        }
      }
    case .intent(let intent):
      guard state.isLoaded, apply(intent, to: &state) else { return }
      // The list changed: save it now, or after the save in flight (T7).
      guard state.saving == nil else {
        state.changedWhileSaving = true
        return
      }
      let list = state.records
      state.saving = list
      state.listToSave = list
    }
  }

  /// Applies an intent; returns whether the list (ids in order, titles, done) changed.
  private static func apply(_ intent: TodosIntent, to state: inout State) -> Bool {
    switch intent {
    case .draftChanged(let text):
      state.draft = text
      return false
    case .add:
      let title = TodosApp.title(from: state.draft)
      guard !title.isEmpty, state.largestID < Int.max else { return false }
      state.largestID += 1
      state.rows.append(ElmTodoRow.State(title: title, done: false), id: state.largestID)
      state.draft = ""
      return true
    case .toggleAll:
      guard !state.rows.isEmpty else { return false }
      let done = state.doneCount != state.rows.count
      state.rows.updateAll { $0.done = done }
      state.doneCount = done ? state.rows.count : 0
      return true
    case .clearCompleted:
      guard state.doneCount > 0 else { return false }
      if let editing = state.editingID, state.rows[id: editing]?.done == true {
        state.editingID = nil
      }
      state.rows.removeAll { $0.done }
      state.doneCount = 0
      return true
    case .filter(let filter):
      state.filter = filter
      return false
    case .row(let id, let rowIntent):
      switch rowIntent {
      case .beginEdit:
        guard state.editingID != id, state.rows.contains(id: id) else { return false }
        // One row at most is edited: the edited one is committed first, in this message (T4).
        var changed = false
        if let editing = state.editingID {
          changed = applyRow(.commitEdit, id: editing, to: &state)
        }
        _ = applyRow(.beginEdit, id: id, to: &state)
        state.editingID = id
        return changed
      case .editChanged:
        guard state.editingID == id, state.rows.contains(id: id) else { return false }
        return applyRow(rowIntent, id: id, to: &state)
      case .commitEdit, .cancelEdit:
        guard state.editingID == id, state.rows.contains(id: id) else { return false }
        state.editingID = nil
        return applyRow(rowIntent, id: id, to: &state)
      case .toggle, .delete:
        // A row that is not there: nothing changes (`applyRow` looks it up).
        return applyRow(rowIntent, id: id, to: &state)
      }
    }
  }

  /// Runs the row's own update through the lifted one, then does what the row asked of the
  /// list (its removal); returns whether the list changed.
  private static func applyRow(_ intent: TodoRowIntent, id: Int, to state: inout State) -> Bool {
    guard let before = state.rows[id: id] else { return false }
    rowUpdate(&state, .intent(.row(id: id, intent)))
    guard let after = state.rows[id: id] else { return false }
    if after.asksRemoval {
      state.rows.remove(id: id)
      if after.done { state.doneCount -= 1 }
      if state.editingID == id { state.editingID = nil }
      return true
    }
    if after.done != before.done { state.doneCount += after.done ? 1 : -1 }
    return after.done != before.done || after.title != before.title
  }

  // side-by-side: todos effects
  /// Loads once, logs what the update asks, and saves the list the update hands over, one save
  /// at a time (the update decides when).
  public static func effect(_ environment: TodosEnvironment) -> Effect<State, Action> {
    let storage = environment.storage
    let log = environment.log
    return Effect {
      Effect.take(.load) { _, dispatch in
        dispatch.run(id: Work.load) { send in
          send(.loaded(try await storage.loadTodos()))
        } catch: { _, send in
          send(.loadFailed)
        }
      }
      Effect { state, _, dispatch in
        if let line = state.logLine { log.log(line) }
        if let list = state.listToSave {
          dispatch.run(id: Work.save) { send in
            do {
              // `ifActive`: once the store stopped, no save begins (R6).
              try await send.ifActive { try await storage.saveTodos(list) }
              send(.saved(succeeded: true))
            } catch is CancellationError {
              throw CancellationError()
            } catch {
              send(.saved(succeeded: false))
            }
          }
        }
      }
    }
  }

  // side-by-side: todos wiring
  public static func view(_ state: State) -> TodosView {
    guard state.isLoaded else { return .loading }
    let ids = state.rows.ids
    let filter = state.filter
    let visible = filter == .all ? ids : state.rows.ids { filter.shows(done: $0.done) }
    return TodosView(
      status: .ready, draft: state.draft, visibleIDs: visible,
      itemsLeftText: TodosApp.itemsLeftText(ids.count - state.doneCount), filter: state.filter,
      allDone: !ids.isEmpty && state.doneCount == ids.count, canToggleAll: !ids.isEmpty,
      canClearCompleted: state.doneCount > 0, editingID: state.editingID)
  }

  // side-by-side: todos effects
  enum Work { case load, save }

  // side-by-side: todos wiring
  /// A todos store for `environment`; dispatch `.load` to start it.
  public static func makeStore(environment: TodosEnvironment) -> Store<State, Action> {
    Store(
      state: State(), update: update, effect: effect(environment), executor: environment.executor)
  }
  // side-by-side: end
}
