import ArchitectureSpec
import Comonadic

/// One todo row as a component of its own: its state, its inputs, a dispatcher turning each
/// input into a state action, and its render function. The list widens its actions onto its
/// rows (``ComonadicTodos``); nothing of the row is written again there.
public enum ComonadicTodoRow {
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
  public typealias Input = TodoRowIntent

  // side-by-side: todos update
  /// The action each input is.
  public static func action(_ input: Input) -> Comonadic.State<State, Void> {
    switch input {
    case .toggle: .mutate { $0.done.toggle() }
    case .delete: .mutate { $0.asksRemoval = true }
    case .beginEdit:
      .mutate {
        guard !$0.isEditing else { return }
        $0.isEditing = true
        $0.editText = $0.title
      }
    case .editChanged(let text):
      .mutate { if $0.isEditing { $0.editText = text } }
    case .commitEdit:
      .mutate {
        guard $0.isEditing else { return }
        let title = TodosApp.title(from: $0.editText)
        $0.isEditing = false
        $0.editText = ""
        if title.isEmpty { $0.asksRemoval = true } else { $0.title = title }
      }
    case .cancelEdit:
      .mutate {
        guard $0.isEditing else { return }
        $0.isEditing = false
        $0.editText = ""
      }
    }
  }

  /// The row's dispatcher: each input is one action.
  public static let dispatcher = StateDispatcher<Void, State, Input>.pure(action)

  // side-by-side: todos wiring
  public static func render(id: Int, _ state: State) -> TodoRowView {
    TodoRowView(
      id: id, title: state.title, done: state.done, isEditing: state.isEditing,
      editText: state.editText)
  }
  // side-by-side: end
}

/// The todos list as a Bow Arch component: the row's actions widened onto each row, the list's
/// own actions around them, and a workflow that loads, saves one list at a time and logs.
public enum ComonadicTodos {
  // side-by-side: todos state
  public struct State: Equatable, Sendable {
    public var isLoaded = false
    public var rows = IdentifiedList<Int, ComonadicTodoRow.State>()
    public var doneCount = 0
    public var draft = ""
    public var filter = TodoFilter.all
    public var editingID: Int?
    /// The largest id that has been in the list this run (T2).
    public var largestID = 0
    /// The list the save in flight holds (T7), and whether the list changed since it began.
    public var saving: [TodoRecord]?
    public var changedWhileSaving = false
    /// What the steps after this action do: a log line, then a save.
    public var logLine: String?
    public var listToSave: [TodoRecord]?

    public init() {}

    /// The list as storage keeps it.
    public var records: [TodoRecord] {
      rows.map { TodoRecord(id: $0, title: $1.title, done: $1.done) }
    }
  }

  // side-by-side: todos intents
  /// What the view sends: the user's intents, and `appear` when it is first shown.
  public enum Input: Sendable {
    case appear
    case intent(TodosIntent)
  }

  // side-by-side: todos effects
  public enum Work: Sendable { case load, save }

  public typealias Dispatcher = StateDispatcher<TodosEnvironment, State, Input>
  typealias Step = StateEffect<TodosEnvironment, State>

  // side-by-side: todos update+effects
  /// Loads on `appear`; applies intents, then logs and saves what the action asks.
  public static let dispatcher = Dispatcher.workflow { input in
    switch input {
    case .appear:
      [
        .task(id: Work.load) { environment in
          let records = try await environment.storage.loadTodos()
          return .mutate { $0.loaded(records) }
        } catch: { _ in
          .mutate { $0.loaded(nil, failed: true) }
        },
        .read(logAndSave),
      ]
    case .intent(let intent):
      switch intent {
      // Typing (the draft, a row's edit) and filtering never change the list: nothing to log
      // or save after them.
      case .draftChanged, .filter, .row(_, .editChanged): [.action(.mutate { $0.apply(intent) })]
      default: [.action(.mutate { $0.apply(intent) }), .read(logAndSave)]
      }
    }
  }

  /// Logs the line the last action asked for, then saves the list it handed over; when that
  /// save ends, its own action may hand over the latest list (T7).
  @Sendable static func logAndSave(_ state: State) -> [Step] {
    var steps: [Step] = []
    if let line = state.logLine {
      steps.append(.perform { environment in environment.log.log(line) })
    }
    guard let list = state.listToSave else { return steps }
    steps.append(
      .task(id: Work.save) { environment in
        // `WhileRunning`: once the component stopped, no save begins (R6).
        try await WhileRunning.call { try await environment.storage.saveTodos(list) }
        return .mutate { $0.saved(succeeded: true) }
      } catch: { _ in
        .mutate { $0.saved(succeeded: false) }  // a cancelled save's result is dropped
      })
    steps.append(.read(logAndSave))
    return steps
  }

  // side-by-side: todos wiring
  public static func render(
    _ state: State, _ handle: @escaping @Sendable (Input) -> Void
  ) -> TodosView {
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

  public typealias Component = StoreComponent<TodosEnvironment, State, Input, TodosView>

  /// A todos component for `environment`; send `.appear` to load.
  public static func component(environment: TodosEnvironment) -> Component {
    Component(
      initialState: State(), environment: environment, dispatcher: dispatcher,
      executor: environment.executor, render: render)
  }
  // side-by-side: end
}

// side-by-side: todos update
extension ComonadicTodos.State {
  /// Applies what storage returned, once.
  mutating func loaded(_ records: [TodoRecord]?, failed: Bool = false) {
    logLine = nil
    listToSave = nil
    guard !isLoaded else { return }
    isLoaded = true
    guard !failed else {
      logLine = TodosApp.unreadableTodosMessage
      return
    }
    guard let records, !records.isEmpty else { return }
    guard TodosApp.isValid(records) else {
      logLine = TodosApp.unreadableTodosMessage
      return
    }
    rows.append(
      contentsOf: records.lazy.map {
        ($0.id, ComonadicTodoRow.State(title: $0.title, done: $0.done))
      })
    doneCount = records.count { $0.done }
    largestID = records.map(\.id).max() ?? 0
  }

  /// The end of the save in flight: a failure is logged, and the latest list is handed over
  /// when it changed meanwhile.
  mutating func saved(succeeded: Bool) {
    logLine = nil
    listToSave = nil
    guard let held = saving else { return }
    saving = nil
    if !succeeded { logLine = TodosApp.saveFailedMessage }
    guard changedWhileSaving else { return }
    changedWhileSaving = false
    let latest = records
    if latest != held {
      saving = latest
      listToSave = latest
    }
  }

  /// Applies an intent; hands the list over to save when it changed (T7).
  mutating func apply(_ intent: TodosIntent) {
    logLine = nil
    listToSave = nil
    guard isLoaded, change(intent) else { return }
    // Matched, not compared (`saving == nil` compares a copy: the list is `Equatable`).
    guard case .none = saving else {
      changedWhileSaving = true
      return
    }
    let list = records
    saving = list
    listToSave = list
  }

  /// Applies an intent; returns whether the list (ids in order, titles, done) changed.
  private mutating func change(_ intent: TodosIntent) -> Bool {
    switch intent {
    case .draftChanged(let text):
      draft = text
      return false
    case .add:
      let title = TodosApp.title(from: draft)
      guard !title.isEmpty, largestID < Int.max else { return false }
      largestID += 1
      rows.append(ComonadicTodoRow.State(title: title, done: false), id: largestID)
      draft = ""
      return true
    case .toggleAll:
      guard !rows.isEmpty else { return false }
      let done = doneCount != rows.count
      rows.updateAll { $0.done = done }
      doneCount = done ? rows.count : 0
      return true
    case .clearCompleted:
      guard doneCount > 0 else { return false }
      if let editing = editingID, rows[id: editing]?.done == true { editingID = nil }
      rows.removeAll { $0.done }
      doneCount = 0
      return true
    case .filter(let filter):
      self.filter = filter
      return false
    case .row(let id, let input):
      switch input {
      case .beginEdit:
        guard editingID != id, rows.contains(id: id) else { return false }
        // One row at most is edited: the edited one is committed first, in this message (T4).
        var changed = false
        if let editing = editingID { changed = row(editing, .commitEdit) }
        _ = row(id, .beginEdit)
        editingID = id
        return changed
      case .editChanged:
        guard editingID == id, rows.contains(id: id) else { return false }
        return row(id, input)
      case .commitEdit, .cancelEdit:
        guard editingID == id, rows.contains(id: id) else { return false }
        editingID = nil
        return row(id, input)
      case .toggle, .delete:
        // A row that is not there: nothing changes (`row` looks it up).
        return row(id, input)
      }
    }
  }

  /// Runs the row's own action on row `id`, in place, then does what the row asked of the
  /// list (its removal); returns whether the list changed.
  private mutating func row(_ id: Int, _ input: TodoRowIntent) -> Bool {
    // One lookup: the row as it was and as the action left it, from the one update.
    guard
      let (before, after) = rows.update(
        id: id,
        { row in
          let before = row
          ComonadicTodoRow.action(input).apply(to: &row)
          return (before, row)
        })
    else { return false }
    if after.asksRemoval {
      rows.remove(id: id)
      if after.done { doneCount -= 1 }
      if editingID == id { editingID = nil }
      return true
    }
    if after.done != before.done { doneCount += after.done ? 1 : -1 }
    return after.done != before.done || after.title != before.title
  }
}
// side-by-side: end
