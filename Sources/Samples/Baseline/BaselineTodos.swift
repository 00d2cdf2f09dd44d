import ArchitectureSpec
import Kernel

// side-by-side: todos wiring
/// The todos list in plain Swift: a value model whose rows are addressed by id, a serial
/// message loop that tells each row's observers about that row only, and one save in flight
/// at a time.
public final class BaselineTodos: Sendable {
  // side-by-side: todos state
  struct Model: LoopModel {
    // side-by-side: todos intents
    enum Message {
      case intent(TodosIntent)
      case loaded([TodoRecord]?)
      case loadFailed
      case saved(succeeded: Bool)
    }

    // side-by-side: todos effects
    /// What one message asks of the environment: a log line, then a save.
    struct Effect {
      var log: String?
      var save: [TodoRecord]?
    }

    // side-by-side: todos state
    struct Row: Equatable {
      var title: String
      var done: Bool
    }

    var isLoaded = false
    /// The rows in order, by id: the kernel's list, which the architectures share, so a
    /// change to one row costs the same at any length.
    var rows = IdentifiedList<Int, Row>()
    var doneCount = 0
    var draft = ""
    var filter = TodoFilter.all
    var editing: (id: Int, text: String)?
    /// The largest id that has been in the list this run (T2).
    var largestID = 0
    /// The list the save in flight holds, if one is (T7).
    var saving: [TodoRecord]?
    /// Whether the list changed since the save in flight began.
    var changedWhileSaving = false
    var touched = TouchedChildren<Int>()
    let defects: BaselineDefects

    init(defects: BaselineDefects) { self.defects = defects }

    var records: [TodoRecord] {
      rows.map { id, row in TodoRecord(id: id, title: row.title, done: row.done) }
    }

    // side-by-side: todos update+effects
    mutating func handle(_ message: Message) -> Effect? {
      switch message {
      case .loaded(let records):
        guard !isLoaded else { return nil }
        isLoaded = true
        guard let records, !records.isEmpty else { return nil }
        guard TodosApp.isValid(records) else {
          return Effect(log: TodosApp.unreadableTodosMessage)
        }
        rows.append(contentsOf: records.lazy.map { ($0.id, Row(title: $0.title, done: $0.done)) })
        doneCount = records.count { $0.done }
        largestID = records.lazy.map(\.id).max() ?? 0
        return nil
      case .loadFailed:
        guard !isLoaded else { return nil }
        isLoaded = true
        return Effect(log: TodosApp.unreadableTodosMessage)
      case .saved(let succeeded):
        guard let held = saving else { return nil }
        var effect = Effect(log: succeeded ? nil : TodosApp.saveFailedMessage)
        saving = nil
        // Mutation point (tests only): the change made while saving is never saved.
        if changedWhileSaving, !defects.contains(.dropsCoalescedSave) {
          changedWhileSaving = false
          let latest = records
          if latest != held {
            saving = latest
            effect.save = latest
          }
        }
        return effect.log == nil && effect.save == nil ? nil : effect
      case .intent(let intent):
        guard isLoaded else { return nil }
        guard apply(intent) else { return nil }
        // The list changed: save it, or after the save in flight.
        // Mutation point (tests only): every change saves at once, overlapping the save in flight.
        guard saving == nil || defects.contains(.overlapsSaves) else {
          changedWhileSaving = true
          return nil
        }
        let list = records
        saving = list
        return Effect(save: list)
      }
    }

    /// Applies an intent and returns whether the list (ids in order, titles, done) changed.
    private mutating func apply(_ intent: TodosIntent) -> Bool {
      switch intent {
      case .draftChanged(let text):
        draft = text
        return false
      case .add:
        let title = TodosApp.title(from: draft)
        guard !title.isEmpty, largestID < Int.max else { return false }
        largestID += 1
        rows.append(Row(title: title, done: false), id: largestID)
        touched.append(largestID)
        draft = ""
        return true
      case .toggleAll:
        guard !rows.isEmpty else { return false }
        let done = doneCount != rows.count
        // Mutation point (tests only): only the rows the filter shows are toggled.
        if defects.contains(.togglesVisibleRowsOnly) {
          for id in view.visibleIDs where rows[id: id]?.done != done {
            rows[id: id]?.done = done
            touched.append(id)
          }
          doneCount = rows.ids { $0.done }.count
          return true
        }
        touched.touchAll()
        rows.updateAll { $0.done = done }
        doneCount = done ? rows.count : 0
        return true
      case .clearCompleted:
        guard doneCount > 0 else { return false }
        rows.removeAll(where: \.done)
        doneCount = 0
        if let id = editing?.id, !rows.contains(id: id) { editing = nil }
        // Mutation point (tests only): a removed row's observers are never told.
        if !defects.contains(.forgetsRemovedRows) { touched.touchAll() }
        return true
      case .filter(let filter):
        self.filter = filter
        return false
      case .row(let id, let rowIntent):
        return apply(rowIntent, to: id)
      }
    }

    private mutating func apply(_ intent: TodoRowIntent, to id: Int) -> Bool {
      if case .toggle = intent {
        // One lookup: the row changed where it is.
        guard
          let done = rows.update(
            id: id,
            { row in
              row.done.toggle()
              return row.done
            })
        else { return false }
        doneCount += done ? 1 : -1
        touched.append(id)
        return true
      }
      guard let row = rows[id: id] else { return false }
      switch intent {
      case .toggle:
        return false  // Handled above.
      case .delete:
        remove(id)
        return true
      case .beginEdit:
        guard editing?.id != id else { return false }
        let changed = commitEdit()
        editing = (id, row.title)
        touched.append(id)
        return changed
      case .editChanged(let text):
        guard editing?.id == id else { return false }
        editing?.text = text
        touched.append(id)
        return false
      case .commitEdit:
        guard editing?.id == id else { return false }
        return commitEdit()
      case .cancelEdit:
        guard editing?.id == id else { return false }
        editing = nil
        touched.append(id)
        return false
      }
    }

    /// Ends the edit in progress as `commitEdit` does (T4); returns whether the list changed.
    private mutating func commitEdit() -> Bool {
      guard let (id, text) = editing, let row = rows[id: id] else { return false }
      editing = nil
      touched.append(id)
      let title = TodosApp.title(from: text)
      if title.isEmpty {
        remove(id)
        return true
      }
      rows.update(id: id) { $0.title = title }
      return title != row.title
    }

    /// Removes a row; ends its edit.
    private mutating func remove(_ id: Int) {
      guard let row = rows.remove(id: id) else { return }
      if row.done { doneCount -= 1 }
      forget(id)
    }

    /// Ends the edit of a row that goes, and tells its observers.
    private mutating func forget(_ id: Int) {
      if editing?.id == id { editing = nil }
      // Mutation point (tests only): a removed row's observers are never told.
      if !defects.contains(.forgetsRemovedRows) { touched.append(id) }
    }

    // side-by-side: todos wiring
    var view: TodosView {
      guard isLoaded else { return .loading }
      // A local, so the closure captures the filter, not the whole model.
      let filter = filter
      let visible = filter == .all ? rows.ids : rows.ids { filter.shows(done: $0.done) }
      return TodosView(
        status: .ready, draft: draft, visibleIDs: visible,
        itemsLeftText: TodosApp.itemsLeftText(rows.count - doneCount), filter: filter,
        allDone: !rows.isEmpty && doneCount == rows.count, canToggleAll: !rows.isEmpty,
        canClearCompleted: doneCount > 0, editingID: editing?.id)
    }

    mutating func takeTouchedChildren() -> [Int]? { touched.take() }
    mutating func reuseTouchedChildren(_ children: consuming [Int]) {
      touched.reuse(consume children)
    }

    func childView(_ id: Int) -> TodoRowView? {
      guard isLoaded, let row = rows[id: id] else { return nil }
      let edited = editing?.id == id
      return TodoRowView(
        id: id, title: row.title, done: row.done, isEditing: edited,
        editText: edited ? editing?.text ?? "" : "")
    }

    static func isFinal(_ view: TodoRowView?) -> Bool { view == nil }
    // side-by-side: end
  }

  // side-by-side: todos wiring
  private let loop: MessageLoop<Model>
  private let effects: TodosEffects

  /// Creates a list that does nothing until started.
  public convenience init(environment: TodosEnvironment) {
    self.init(environment: environment, defects: [])
  }

  package init(environment: TodosEnvironment, defects: BaselineDefects) {
    loop = MessageLoop(
      Model(defects: defects), defects: defects, executor: environment.executor)
    effects = TodosEffects(environment: environment, gate: loop.gate, defects: defects)
    // Results reach the loop, not this object: an effect never keeps the app alive, so
    // releasing it stops it even while a result is being handled (R6).
    loop.performEffects(with: effects.perform)
    effects.connect { [weak loop, weak effects] message in
      guard let loop, let effects else { return }
      loop.send(message, isIntent: false, perform: effects.perform)
    }
  }

  /// Released, the list behaves as stopped: queued intents are dropped, the save cancelled.
  deinit { stop() }

  /// The current view.
  public var view: TodosView { loop.view }

  /// Starts: shows the list as loading and reads it.
  public func start(observer: @escaping @Sendable (TodosView) -> Void) {
    guard loop.start(observer: observer) else { return }
    effects.start()
    loop.drain(perform: effects.perform)
  }

  /// Sends an intent; safe from any thread.
  public func send(_ intent: TodosIntent) {
    loop.send(.intent(intent), isIntent: true, perform: effects.perform)
  }

  /// Observes one row: its view now, then its changes, then `nil` once when it goes (R11).
  public func observe(row id: Int, _ observer: @escaping @Sendable (TodoRowView?) -> Void) {
    loop.observe(id, observer)
  }

  /// Stops: the save in flight is cancelled, and later intents and results are ignored.
  public func stop() {
    loop.stop()
    effects.stop()
  }

  // side-by-side: end
}

// side-by-side: todos effects
/// The todos list's effects: the load at start, log lines, and saves (one at a time; the
/// model decides when).
final class TodosEffects: Sendable {
  private enum Slot { case load, save }

  private let environment: TodosEnvironment
  /// The owner's gate: a save begins only while it is open (R6).
  private let gate: StopGate
  private let defects: BaselineDefects
  private let tasks = TaskSlots<Slot>()
  private let relay = Relay<BaselineTodos.Model.Message>()

  init(environment: TodosEnvironment, gate: StopGate, defects: BaselineDefects) {
    self.environment = environment
    self.gate = gate
    self.defects = defects
  }

  /// Where results go; the closure must not hold its owner strongly.
  func connect(_ deliver: @escaping @Sendable (BaselineTodos.Model.Message) -> Void) {
    relay.connect(deliver)
  }

  func start() {
    let storage = environment.storage
    tasks.replace(
      .load,
      with: startEffectTask(on: environment.executor) { [weak relay] in
        let message: BaselineTodos.Model.Message
        do { message = .loaded(try await storage.loadTodos()) } catch { message = .loadFailed }
        guard !Task.isCancelled else { return }
        relay?.send(message)
      })
  }

  func perform(_ effect: BaselineTodos.Model.Effect) {
    if let line = effect.log { environment.log.log(line) }
    guard let list = effect.save else { return }
    let storage = environment.storage
    let executor = environment.executor
    // Each save has a task of its own: the model never asks for a second while one is in flight
    // (mutants that do show up as overlapping saves in the trace).
    tasks.replace(
      .save,
      with: startEffectTask(on: environment.executor) { [weak relay, gate] in
        let succeeded: Bool
        do {
          try await gate.call(on: executor) { try await storage.saveTodos(list) }
          succeeded = true
        } catch {
          succeeded = false
        }
        guard !Task.isCancelled else { return }
        relay?.send(.saved(succeeded: succeeded))
      }, keepingOthers: true)
  }

  func stop() { tasks.cancelAll() }
}
// side-by-side: end
