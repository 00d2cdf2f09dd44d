import ArchitectureSpec
import MUE

/// One todo row as a feature of its own: its state, its events and its update. The list runs
/// it on each row (``MUETodos``); nothing of the row is written again there.
public enum MUETodoRow {
  // side-by-side: todos state
  public struct State: Equatable, Sendable, SmartCopy {
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
  public typealias Event = TodoRowIntent

  // side-by-side: todos update
  public struct Update: MUE.Update {
    public typealias Effect = NoEffect

    public init() {}

    public func handle(event: Event, _ state: State) -> UpdateResult<State, NoEffect> {
      switch event {
      case .toggle: return .newState(state: state.copy { $0.done.toggle() })
      case .delete: return .newState(state: state.copy { $0.asksRemoval = true })
      case .beginEdit:
        guard !state.isEditing else { return .noChange }
        return .newState(
          state: state.copy {
            $0.isEditing = true
            $0.editText = $0.title
          })
      case .editChanged(let text):
        guard state.isEditing else { return .noChange }
        return .newState(state: state.copy { $0.editText = text })
      case .commitEdit:
        guard state.isEditing else { return .noChange }
        let title = TodosApp.title(from: state.editText)
        return .newState(
          state: state.copy {
            $0.isEditing = false
            $0.editText = ""
            if title.isEmpty { $0.asksRemoval = true } else { $0.title = title }
          })
      case .cancelEdit:
        guard state.isEditing else { return .noChange }
        return .newState(
          state: state.copy {
            $0.isEditing = false
            $0.editText = ""
          })
      }
    }

    public func handle(result: Never, _ state: State) -> UpdateResult<State, NoEffect> {}
  }

  // side-by-side: todos wiring
  public static func view(id: Int, _ state: State) -> TodoRowView {
    TodoRowView(
      id: id, title: state.title, done: state.done, isEditing: state.isEditing,
      editText: state.editText)
  }
  // side-by-side: end
}

/// The todos list in Model-Update-Effect style: the row's update run on each row, the list's
/// own update around it, and effects that load, save one list at a time and log.
public enum MUETodos {
  // side-by-side: todos state
  public struct State: Equatable, Sendable, SmartCopy {
    public var isLoaded = false
    public var rows = IdentifiedList<Int, MUETodoRow.State>()
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
  }

  // side-by-side: todos intents
  public typealias Event = TodosIntent

  // side-by-side: todos effects
  public enum Effect: MUE.Effect, Equatable {
    case load
    case save([TodoRecord])
    case log(String)

    // side-by-side: todos intents
    public enum Result: Sendable, Equatable {
      case loaded([TodoRecord]?)
      case loadFailed
      case saved(succeeded: Bool)
    }
    // side-by-side: todos effects

    public enum ID: Hashable, Sendable { case load, save }

    public var id: ID? {
      switch self {
      case .load: .load
      case .save: .save
      case .log: nil
      }
    }
  }

  // side-by-side: todos update
  // Written in place (`handle(event:changing:)`): the list is changed where the loop keeps it, so one row of a
  // long list changes without copying the nodes on its path.
  public struct Update: MUE.Update {
    public init() {}

    public func first(state: State) -> First<State, Effect> {
      First(initialState: state, initialEffect: .load)
    }

    public func handle(event: Event, changing state: inout State) -> InPlaceResult<Effect> {
      guard state.isLoaded, let changed = apply(event, to: &state) else { return .noChange }
      guard changed else { return .changedState }
      // The list changed: save it now, or after the save in flight (T7).
      guard state.saving == nil else {
        state.changedWhileSaving = true
        return .changedState
      }
      let list = state.records
      state.saving = list
      return .changedState(effect: .save(list))
    }

    public func handle(result: Effect.Result, changing state: inout State) -> InPlaceResult<Effect>
    {
      switch result {
      case .loaded(let records):
        guard !state.isLoaded else { return .noChange }
        state.isLoaded = true
        guard let records, !records.isEmpty else { return .changedState }
        guard TodosApp.isValid(records) else {
          return .changedState(effect: .log(TodosApp.unreadableTodosMessage))
        }
        state.rows.append(
          contentsOf: records.lazy.map {
            ($0.id, MUETodoRow.State(title: $0.title, done: $0.done))
          })
        state.doneCount = records.count { $0.done }
        state.largestID = records.map(\.id).max() ?? 0
        return .changedState
      case .loadFailed:
        guard !state.isLoaded else { return .noChange }
        state.isLoaded = true
        return .changedState(effect: .log(TodosApp.unreadableTodosMessage))
      case .saved(let succeeded):
        guard let held = state.saving else { return .noChange }
        state.saving = nil
        var effects: [Effect] = succeeded ? [] : [.log(TodosApp.saveFailedMessage)]
        if state.changedWhileSaving {
          state.changedWhileSaving = false
          let latest = state.records
          if latest != held {
            state.saving = latest
            effects.append(.save(latest))
          }
        }
        return .changedState(effects: effects)
      }
    }

    /// Applies an intent; returns whether the list (ids in order, titles, done) changed, or
    /// `nil` when nothing at all changed.
    private func apply(_ intent: TodosIntent, to state: inout State) -> Bool? {
      switch intent {
      case .draftChanged(let text):
        guard state.draft != text else { return nil }
        state.draft = text
        return false
      case .add:
        let title = TodosApp.title(from: state.draft)
        guard !title.isEmpty, state.largestID < Int.max else { return nil }
        state.largestID += 1
        state.rows.append(MUETodoRow.State(title: title, done: false), id: state.largestID)
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
          // One row at most is edited: the edited one is committed first, in this message (T4).
          var changed = false
          if let editing = state.editingID {
            changed = applyRow(.commitEdit, id: editing, to: &state) ?? false
          }
          _ = applyRow(.beginEdit, id: id, to: &state)
          state.editingID = id
          return changed
        case .editChanged:
          guard state.editingID == id, state.rows.contains(id: id) else { return nil }
          return applyRow(rowIntent, id: id, to: &state)
        case .commitEdit, .cancelEdit:
          guard state.editingID == id, state.rows.contains(id: id) else { return nil }
          state.editingID = nil
          return applyRow(rowIntent, id: id, to: &state) ?? false
        case .toggle, .delete:
          // A row that is not there: nothing changes (`applyRow` looks it up).
          return applyRow(rowIntent, id: id, to: &state)
        }
      }
    }

    /// Runs the row's own update on row `id`, then does what the row asked of the list (its
    /// removal); returns whether the list changed, or `nil` when the row did not change.
    private func applyRow(_ intent: TodoRowIntent, id: Int, to state: inout State) -> Bool? {
      guard let before = state.rows[id: id],
        let result: InPlaceResult<Effect> = MUETodoRow.Update().handle(
          event: intent, changing: &state, forEach: \.rows, id: id),
        result.stateChanged
      else { return nil }
      guard let after = state.rows[id: id] else { return nil }
      if after.asksRemoval {
        state.rows.remove(id: id)
        if after.done { state.doneCount -= 1 }
        if state.editingID == id { state.editingID = nil }
        return true
      }
      if after.done != before.done { state.doneCount += after.done ? 1 : -1 }
      return after.done != before.done || after.title != before.title
    }
  }

  // side-by-side: todos effects
  public struct EffectHandler: MUE.EffectHandler {
    let storage: any TodoStorage
    let log: any AppLog

    public init(environment: TodosEnvironment) {
      storage = environment.storage
      log = environment.log
    }

    public func handle(_ effect: Effect) async -> EffectResult<Effect.Result> {
      switch effect {
      case .load:
        do { return .single(.loaded(try await storage.loadTodos())) } catch {
          return .single(.loadFailed)
        }
      case .save(let list):
        // `WhileRunning`: once the loop stopped, no save or log begins (R6).
        do {
          try await WhileRunning.call { try await storage.saveTodos(list) }
          return .single(.saved(succeeded: true))
        } catch is CancellationError {
          return .empty
        } catch {
          return .single(.saved(succeeded: false))
        }
      case .log(let message):
        // Written by `handleNow(_:)`; here only under a handler that does not forward it.
        WhileRunning.perform { log.log(message) }
        return .empty
      }
    }

    /// A log line needs no task: it is written on the loop, in order with the update.
    public func handleNow(_ effect: Effect) -> Bool {
      guard case .log(let message) = effect else { return false }
      log.log(message)
      return true
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

  /// A todos loop for `environment`; call `start()` to load.
  public static func makeLoop(environment: TodosEnvironment) -> Loop<Update, EffectHandler> {
    Loop(
      update: Update(), effectHandler: EffectHandler(environment: environment), state: State(),
      executor: environment.executor)
  }
  // side-by-side: end
}
