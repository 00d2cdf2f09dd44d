import ArchitectureSpec
import LayerCore

/// One todo row as a feature of its own: its state, its reducer and its view. The list runs this
/// reducer on each row and shows the rows through one ``RowsMachine`` (``LayerTodos``); nothing
/// of the row is written again there.
public enum LayerTodoRow {
  // side-by-side: todos state
  public struct State: Sendable, Equatable {
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

  // side-by-side: todos update
  /// Applies `intent` to the row where the list keeps it; `false` when nothing changes.
  public static func reduce(_ state: inout State, _ intent: TodoRowIntent) -> Bool {
    switch intent {
    case .toggle:
      state.done.toggle()
    case .delete:
      state.asksRemoval = true
    case .beginEdit:
      guard !state.isEditing else { return false }
      state.isEditing = true
      state.editText = state.title
    case .editChanged(let text):
      guard state.isEditing else { return false }
      state.editText = text
    case .commitEdit:
      guard state.isEditing else { return false }
      let title = TodosApp.title(from: state.editText)
      state.isEditing = false
      state.editText = ""
      if title.isEmpty { state.asksRemoval = true } else { state.title = title }
    case .cancelEdit:
      guard state.isEditing else { return false }
      state.isEditing = false
      state.editText = ""
    }
    return true
  }

  // side-by-side: todos wiring
  public static func view(id: Int, _ state: State) -> TodoRowView {
    TodoRowView(
      id: id, title: state.title, done: state.done, isEditing: state.isEditing,
      editText: state.editText)
  }
  // side-by-side: end
}

// side-by-side: todos wiring
/// The rows of the screen: one machine for the list, which the screen asks for single rows
/// (each row's state, then its changes, `nil` once it leaves) and which sends what the user
/// does to a row.
public typealias LayerTodoRows = RowsMachine<Int, LayerTodoRow.State, TodosIntent>
// side-by-side: end

/// The todos list as a simprokcore app: the core keeps the list and the requests for storage
/// and the log; the screen's machine and the rows' machine show it, the storage layer loads and saves, the log layer
/// writes.
public enum LayerTodos {
  // side-by-side: todos state
  public struct AppState: Sendable, Equatable {
    public var rows = IdentifiedList<Int, LayerTodoRow.State>()
    public var doneCount = 0
    public var draft = ""
    public var filter = TodoFilter.all
    public var editingID: Int?
    /// The largest id that has been in the list this run (T2).
    public var largestID = 0
    /// The save the storage layer is carrying out (T7), and whether the list changed since.
    public var save: Request<[TodoRecord]>?
    public var changedWhileSaving = false
    /// The latest line for the log layer.
    public var log: Request<String>?
    var lastID = 0

    public init() {}

    mutating func nextID() -> Int {
      lastID += 1
      return lastID
    }

    /// The list as storage keeps it.
    public var records: [TodoRecord] {
      rows.map { TodoRecord(id: $0, title: $1.title, done: $1.done) }
    }

    /// The end of the save `request`: a failure is logged, and the latest list is saved next
    /// when it changed meanwhile (T7).
    mutating func saved(_ request: Request<[TodoRecord]>, succeeded: Bool) {
      save = nil
      if !succeeded { log = Request(id: nextID(), TodosApp.saveFailedMessage) }
      guard changedWhileSaving else { return }
      changedWhileSaving = false
      let latest = records
      if latest != request.value { save = Request(id: nextID(), latest) }
    }
  }

  // side-by-side: todos intents
  public enum AppEvent: Sendable {
    case click(TodosIntent)
    case loaded([TodoRecord]?)
    case loadFailed
    case saved(Request<[TodoRecord]>, succeeded: Bool)
  }

  // side-by-side: todos wiring
  public struct App: Core {
    let screen: Screen<TodosView, TodosIntent>
    let rows: LayerTodoRows
    let environment: TodosEnvironment

    public init(
      screen: Screen<TodosView, TodosIntent>, rows: LayerTodoRows, environment: TodosEnvironment
    ) {
      self.screen = screen
      self.rows = rows
      self.environment = environment
    }

    /// The screen, its rows, the log, then storage.
    public var layers: [Layer<AppState, AppEvent>] {
      [
        ~UILayer(screen: screen),
        .layer(~rows, stateMapper: \.rows, eventMapper: AppEvent.click),
        .consumer(~LogMachine(log: environment.log), mapper: \.log),
        ~StorageLayer(storage: environment.storage),
      ]
    }

    // side-by-side: todos update
    // Written in place (`reduce(state: inout …)`): the list is changed where the flow keeps
    // it, so one row of a long list changes without copying the nodes on its path.
    public func reduce(state: inout AppState?, event: AppEvent) -> InPlaceReducerResult {
      switch event {
      case .loaded(let records):
        guard state == nil else { return .skip }
        var loaded = AppState()
        defer { state = loaded }
        guard let records, !records.isEmpty else { return .set }
        guard TodosApp.isValid(records) else {
          loaded.log = Request(id: loaded.nextID(), TodosApp.unreadableTodosMessage)
          return .set
        }
        loaded.rows.append(
          contentsOf: records.lazy.map {
            ($0.id, LayerTodoRow.State(title: $0.title, done: $0.done))
          })
        loaded.doneCount = records.count { $0.done }
        loaded.largestID = records.map(\.id).max() ?? 0
        return .set
      case .loadFailed:
        guard state == nil else { return .skip }
        var failed = AppState()
        failed.log = Request(id: failed.nextID(), TodosApp.unreadableTodosMessage)
        state = failed
        return .set
      case .saved(let request, let succeeded):
        guard state?.save == request else { return .skip }
        state!.saved(request, succeeded: succeeded)
        return .set
      case .click(let intent):
        // Changed where it is (`&state!`): moving it out and back in copies it on the way back.
        guard case .some = state else { return .skip }
        return click(intent, on: &state!)
      }
    }

    /// What the user did, on the loaded list.
    private func click(_ intent: TodosIntent, on state: inout AppState) -> InPlaceReducerResult {
      guard let changed = apply(intent, to: &state) else { return .skip }
      guard changed else { return .set }
      // The list changed: save it now, or after the save in flight (T7).
      if state.save != nil {
        state.changedWhileSaving = true
      } else {
        state.save = Request(id: state.nextID(), state.records)
      }
      return .set
    }

    /// Applies an intent; returns whether the list (ids in order, titles, done) changed, or
    /// `nil` when nothing at all changed.
    private func apply(_ intent: TodosIntent, to state: inout AppState) -> Bool? {
      switch intent {
      case .draftChanged(let text):
        guard state.draft != text else { return nil }
        state.draft = text
        return false
      case .add:
        let title = TodosApp.title(from: state.draft)
        guard !title.isEmpty, state.largestID < Int.max else { return nil }
        state.largestID += 1
        state.rows.append(LayerTodoRow.State(title: title, done: false), id: state.largestID)
        state.draft = ""
        return true
      case .toggleAll:
        guard !state.rows.isEmpty else { return nil }
        let done = state.doneCount != state.rows.count
        state.rows.updateAll { $0.done = done }
        state.doneCount = done ? state.rows.count : 0
        return true
      case .clearCompleted:
        guard state.doneCount > 0 else { return nil }
        if let editing = state.editingID, state.rows[id: editing]?.done == true {
          state.editingID = nil
        }
        state.rows.removeAll { $0.done }
        state.doneCount = 0
        return true
      case .filter(let filter):
        guard state.filter != filter else { return nil }
        state.filter = filter
        return false
      case .row(let id, let rowIntent):
        switch rowIntent {
        case .beginEdit:
          guard state.editingID != id, state.rows.contains(id: id) else { return nil }
          // One row at most is edited: the edited one is committed first, in this event (T4).
          var changed = false
          if let editing = state.editingID {
            changed = applyRow(.commitEdit, id: editing, to: &state) ?? false
          }
          _ = applyRow(.beginEdit, id: id, to: &state)
          state.editingID = id
          return changed
        case .editChanged:
          guard state.editingID == id else { return nil }
          return applyRow(rowIntent, id: id, to: &state)
        case .commitEdit, .cancelEdit:
          guard state.editingID == id, state.rows.contains(id: id) else { return nil }
          state.editingID = nil
          return applyRow(rowIntent, id: id, to: &state)
        case .toggle, .delete:
          // A row that is not there: nothing changes (`applyRow` looks it up).
          return applyRow(rowIntent, id: id, to: &state)
        }
      }
    }

    /// Runs the row's own reducer on row `id`, where the list keeps it, then does what the
    /// row asked of the list (its removal); returns whether the list changed, or `nil` when
    /// there is no such row.
    private func applyRow(_ intent: TodoRowIntent, id: Int, to state: inout AppState) -> Bool? {
      let outcome = state.rows.update(id: id) { row -> RowOutcome? in
        let (wasDone, title) = (row.done, row.title)
        guard LayerTodoRow.reduce(&row, intent) else { return nil }
        return RowOutcome(
          asksRemoval: row.asksRemoval, isDone: row.done, doneChanged: row.done != wasDone,
          titleChanged: row.title != title)
      }
      guard let outcome else { return nil }
      guard let outcome else { return false }
      if outcome.asksRemoval {
        state.rows.remove(id: id)
        if outcome.isDone { state.doneCount -= 1 }
        if state.editingID == id { state.editingID = nil }
        return true
      }
      if outcome.doneChanged { state.doneCount += outcome.isDone ? 1 : -1 }
      return outcome.doneChanged || outcome.titleChanged
    }

    /// What the row's reducer did to the row, as the list sees it.
    private struct RowOutcome {
      let asksRemoval: Bool
      let isDone: Bool
      let doneChanged: Bool
      let titleChanged: Bool
    }
    // side-by-side: end
  }

  // side-by-side: todos wiring
  /// The list's screen: the draft, the visible rows, the counts; sends the list's intents.
  struct UILayer: LayerType {
    let screen: Screen<TodosView, TodosIntent>

    var machine: Machine<TodosView, TodosIntent> { screen.machine }
    func map(state: AppState) -> TodosView { LayerTodos.view(state) }
    func map(event: TodosIntent) -> AppEvent { .click(event) }
  }

  /// The screen for `state`.
  public static func view(_ state: AppState) -> TodosView {
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
  /// Loads the list when the flow starts, then carries out each save.
  struct StorageLayer: LayerType {
    let storage: any TodoStorage

    var machine: Machine<Request<[TodoRecord]>?, AppEvent> { ~StorageMachine(storage: storage) }
    func map(state: AppState) -> Request<[TodoRecord]>? { state.save }
    func map(event: AppEvent) -> AppEvent { event }
  }

  final class StorageMachine: ChildMachine {
    let storage: any TodoStorage
    private let lastSave = Lock(0)

    init(storage: any TodoStorage) { self.storage = storage }

    func process(input: Request<[TodoRecord]>??, callback: Handler<AppEvent>) {
      let storage = storage
      guard let input else {
        return callback.run { send in
          do { send(.loaded(try await storage.loadTodos())) } catch { send(.loadFailed) }
        }
      }
      guard let save = input, lastSave.exchange(save.id) != save.id else { return }
      callback.run { send in
        // `WhileRunning`: once the flow stopped, no save begins (R6).
        do {
          try await WhileRunning.call { try await storage.saveTodos(save.value) }
          send(.saved(save, succeeded: true))
        } catch is CancellationError {
          // Stopped: nothing to report.
        } catch {
          send(.saved(save, succeeded: false))
        }
      }
    }
  }

  // side-by-side: end
}
