import ArchitectureSpec
import ElmStore

/// The counter as an ElmStore app: state, actions, a pure update, and effects that load, save
/// and log.
public enum ElmCounter {
  // side-by-side: counter state
  public struct State: Equatable, Sendable {
    public var isLoaded = false
    public var count = 0
    /// The count the update decided to save; the effect carries it out.
    public var countToSave: Int?
    /// Whether the last save failed; the next change saves again (C6).
    public var lastSaveFailed = false

    public init() {}
  }

  // side-by-side: counter intents
  public enum Action: Equatable, Sendable {
    case load
    case loaded(Int?)
    case loadFailed
    case intent(CounterIntent)
    case saved(Int)
    case saveFailed
  }

  // side-by-side: counter update
  public static func update(_ state: inout State, _ action: Action) {
    state.countToSave = nil
    switch action {
    case .load:
      break
    case .saved:
      state.lastSaveFailed = false
    case .saveFailed:
      state.lastSaveFailed = true
    case .loaded(let stored):
      guard !state.isLoaded else { return }
      state.isLoaded = true
      if let stored, CounterApp.validCounts.contains(stored) { state.count = stored }
    case .loadFailed:
      state.isLoaded = true
    case .intent(let intent):
      guard state.isLoaded else { return }
      let old = state.count
      switch intent {
      case .increment: state.count = min(state.count + 1, CounterApp.maximumCount)
      case .decrement: state.count = max(state.count - 1, 0)
      case .reset: state.count = 0
      }
      if state.count != old { state.countToSave = state.count }
    }
  }

  // side-by-side: counter effects
  /// Loads once, saves each changed count in order, and logs what happened.
  public static func effect(_ environment: CounterEnvironment) -> Effect<State, Action> {
    let (saves, pending) = AsyncStream.makeStream(of: Int.self)
    let storage = environment.storage
    let log = environment.log
    return Effect {
      Effect.take(.load) { _, dispatch in
        dispatch.run(id: Work.load) { send in
          send(.loaded(try await storage.load()))
        } catch: { _, send in
          send(.loadFailed)
        }
        // One writer, so saves reach the storage in the order the counts changed, each
        // logged as soon as it is done.
        dispatch.run(id: Work.saves, lifetime: .untilCancelled) { send in
          for await count in saves {
            // `ifActive`: once the store stopped, no save or log begins (R6).
            do {
              try await send.ifActive { try await storage.save(count) }
              guard send.performIfActive({ log.log(CounterApp.savedMessage(count)) }) != nil else {
                return
              }
              send(.saved(count))
            } catch {
              guard send.performIfActive({ log.log(CounterApp.saveFailedMessage) }) != nil else {
                return
              }
              send(.saveFailed)
            }
          }
        }
      }
      Effect { state, _, _ in
        if let count = state.countToSave { pending.yield(count) }
      }
      Effect { _, action, _ in
        switch action {
        case .loaded(let stored?) where !CounterApp.validCounts.contains(stored):
          log.log(CounterApp.unreadableCountMessage)
        case .loadFailed:
          log.log(CounterApp.unreadableCountMessage)
        default: break
        }
      }
    }
  }

  // side-by-side: counter wiring
  public static func view(_ state: State) -> CounterView {
    state.isLoaded ? .ready(count: state.count) : .loading
  }

  // side-by-side: counter effects
  enum Work { case load, saves }

  // side-by-side: counter wiring
  /// A counter store for `environment`; dispatch `.load` to start it.
  public static func makeStore(environment: CounterEnvironment) -> Store<State, Action> {
    Store(
      state: State(), update: update, effect: effect(environment), executor: environment.executor)
  }
  // side-by-side: end
}
