import ArchitectureSpec
import LayerCore

/// The counter as a simprokcore app: a core that reduces events into the count, and three
/// layers — the screen, the storage and the log — that each map the state into what their
/// machine needs and their machine's outputs back into events.
public enum LayerCounter {
  // side-by-side: counter state
  /// The global state; the core has none (the screen shows `Loading…`) until storage answers.
  public struct AppState: Sendable, Equatable {
    public var count = 0
    /// The save the storage layer is carrying out; saves go out one at a time, in order.
    public var save: Request<Int>?
    /// Counts waiting for that save, oldest first.
    public var unsaved: [Int] = []
    /// The latest line for the log layer.
    public var log: Request<String>?
    var lastID = 0

    public init(count: Int = 0) { self.count = count }

    /// A new id for a request.
    mutating func nextID() -> Int {
      lastID += 1
      return lastID
    }
  }

  // side-by-side: counter intents
  /// The global events.
  public enum AppEvent: Sendable, Equatable {
    /// What the user did on the screen.
    case click(CounterIntent)
    /// The stored count, `nil` if none was stored.
    case loaded(Int?)
    case loadFailed
    case saved(Int)
    case saveFailed(Int)
  }

  // side-by-side: counter wiring
  /// The reducer, and the layers that run around it.
  public struct App: Core {
    let screen: Screen<CounterView, CounterIntent>
    let environment: CounterEnvironment

    public init(screen: Screen<CounterView, CounterIntent>, environment: CounterEnvironment) {
      self.screen = screen
      self.environment = environment
    }

    /// Layers get each state in this order: the log line for a finished save is written before
    /// the storage starts the next save.
    public var layers: [Layer<AppState, AppEvent>] {
      [
        ~UILayer(screen: screen),
        LoggerLayer(log: environment.log).layer(),
        ~StorageLayer(storage: environment.storage),
      ]
    }

    // side-by-side: counter update
    // Written in place (`inout`): the flow's state changes where it is kept, not in a copy
    // that then replaces it. (`state == nil` would compare a copy: the state is `Equatable`.)
    public func reduce(state: inout AppState?, event: AppEvent) -> InPlaceReducerResult {
      switch event {
      case .loaded(let stored):
        guard case .none = state else { return .skip }
        if let stored {
          state = CounterApp.validCounts.contains(stored) ? AppState(count: stored) : unreadable()
        } else {
          state = AppState()
        }
        return .set
      case .loadFailed:
        guard case .none = state else { return .skip }
        state = unreadable()
        return .set
      case .click(let intent):
        guard case .some = state else { return .skip }
        return Self.click(intent, &state!)
      case .saved(let count):
        guard case .some = state else { return .skip }
        Self.saveNext(&state!, log: CounterApp.savedMessage(count))
        return .set
      case .saveFailed:
        guard case .some = state else { return .skip }
        Self.saveNext(&state!, log: CounterApp.saveFailedMessage)
        return .set
      }
    }

    private static func click(_ intent: CounterIntent, _ state: inout AppState)
      -> InPlaceReducerResult
    {
      let count =
        switch intent {
        case .increment: min(state.count + 1, CounterApp.maximumCount)
        case .decrement: max(state.count - 1, 0)
        case .reset: 0
        }
      guard count != state.count else { return .skip }
      state.count = count
      if case .none = state.save {
        state.save = Request(id: state.nextID(), count)
      } else {
        state.unsaved.append(count)
      }
      return .set
    }

    /// A loaded state at 0 that logs the unreadable count.
    private func unreadable() -> AppState {
      var state = AppState()
      state.log = Request(id: state.nextID(), CounterApp.unreadableCountMessage)
      return state
    }

    /// Logs how the save in flight ended and starts the next waiting one.
    private static func saveNext(_ state: inout AppState, log: String) {
      state.log = Request(id: state.nextID(), log)
      state.save =
        state.unsaved.isEmpty ? nil : Request(id: state.nextID(), state.unsaved.removeFirst())
    }
    // side-by-side: end
  }

  // side-by-side: counter wiring
  /// The screen: shows the count, sends clicks.
  struct UILayer: LayerType {
    let screen: Screen<CounterView, CounterIntent>

    var machine: Machine<CounterView, CounterIntent> { screen.machine }
    func map(state: AppState) -> CounterView { LayerCounter.view(state) }
    func map(event: CounterIntent) -> AppEvent { .click(event) }
  }

  /// The screen for `state`; `nil` while loading.
  public static func view(_ state: AppState?) -> CounterView {
    state.map { .ready(count: $0.count) } ?? .loading
  }

  // side-by-side: counter effects
  /// The storage: loads the count when the flow starts, then carries out each save.
  struct StorageLayer: LayerType {
    let storage: any CounterStorage

    var machine: Machine<Request<Int>?, StorageEvent> { ~StorageMachine(storage: storage) }
    func map(state: AppState) -> Request<Int>? { state.save }
    func map(event: StorageEvent) -> AppEvent {
      switch event {
      case .loaded(let count): .loaded(count)
      case .loadFailed: .loadFailed
      case .saved(let count): .saved(count)
      case .saveFailed(let count): .saveFailed(count)
      }
    }
  }

  /// What the storage machine reports.
  enum StorageEvent: Sendable {
    case loaded(Int?)
    case loadFailed
    case saved(Int)
    case saveFailed(Int)
  }

  /// Reads the stored count on the first (`nil`) input, and writes each new save request.
  final class StorageMachine: ChildMachine {
    let storage: any CounterStorage
    private let lastSave = Lock(0)

    init(storage: any CounterStorage) { self.storage = storage }

    func process(input: Request<Int>??, callback: Handler<StorageEvent>) {
      let storage = storage
      guard let input else {
        return callback.run { send in
          do { send(.loaded(try await storage.load())) } catch { send(.loadFailed) }
        }
      }
      guard let save = input, lastSave.exchange(save.id) != save.id else { return }
      callback.run { send in
        // `WhileRunning`: once the flow stopped, no save begins (R6).
        do {
          try await WhileRunning.call { try await storage.save(save.value) }
          send(.saved(save.value))
        } catch {
          send(.saveFailed(save.value))
        }
      }
    }
  }

  /// The log: writes each new line.
  struct LoggerLayer: ConsumerLayer {
    let log: any AppLog

    var machine: Machine<Request<String>?, Never> { ~LogMachine(log: log) }
    func map(state: AppState) -> Request<String>? { state.log }
  }
  // side-by-side: end
}

// side-by-side: counter effects
extension Lock {
  /// Stores `value`; returns what was stored before.
  func exchange(_ value: Value) -> Value {
    withLock { stored in
      defer { stored = value }
      return stored
    }
  }
}
// side-by-side: end
