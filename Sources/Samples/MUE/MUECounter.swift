import ArchitectureSpec
import MUE

/// The counter in Model-Update-Effect style: the update decides what to load, save and log;
/// the effect handler only talks to storage and the log.
public enum MUECounter {
  // side-by-side: counter state
  public struct State: Equatable, Sendable, SmartCopy {
    public var isLoaded = false
    public var count = 0
    /// Whether a save is in flight: saves go out one at a time, in the order counts changed.
    public var isSaving = false
    /// Counts waiting for the save in flight, oldest first.
    public var unsaved: [Int] = []

    public init() {}
  }

  // side-by-side: counter intents
  public typealias Event = CounterIntent

  // side-by-side: counter effects
  public enum Effect: MUE.Effect, Equatable {
    case load
    case save(Int)
    case log(String)

    // side-by-side: counter intents
    public enum Result: Sendable, Equatable {
      case loaded(Int?)
      case loadFailed
      case saved(Int)
      case saveFailed(Int)
    }
    // side-by-side: end
  }

  // side-by-side: counter update+effects
  public struct Update: MUE.Update {
    public init() {}

    public func first(state: State) -> First<State, Effect> {
      First(initialState: state, initialEffect: .load)
    }

    public func handle(event: Event, _ state: State) -> UpdateResult<State, Effect> {
      guard state.isLoaded else { return .noChange }
      let count =
        switch event {
        case .increment: min(state.count + 1, CounterApp.maximumCount)
        case .decrement: max(state.count - 1, 0)
        case .reset: 0
        }
      guard count != state.count else { return .noChange }
      return save(state.copy { $0.count = count }, count)
    }

    public func handle(result: Effect.Result, _ state: State) -> UpdateResult<State, Effect> {
      switch result {
      case .loaded(let stored?) where CounterApp.validCounts.contains(stored):
        return .newState(
          state: state.copy {
            $0.isLoaded = true
            $0.count = stored
          })
      case .loaded(nil):
        return .newState(state: state.copy { $0.isLoaded = true })
      case .loaded, .loadFailed:
        return .dispatchEffect(
          state: state.copy { $0.isLoaded = true }, effect: .log(CounterApp.unreadableCountMessage))
      case .saved(let count):
        return saveNext(state, after: .log(CounterApp.savedMessage(count)))
      case .saveFailed:
        return saveNext(state, after: .log(CounterApp.saveFailedMessage))
      }
    }

    /// Saves `count` now, or after the save in flight.
    private func save(_ state: State, _ count: Int) -> UpdateResult<State, Effect> {
      guard !state.isSaving else {
        return .newState(state: state.copy { $0.unsaved.append(count) })
      }
      return .dispatchEffect(state: state.copy { $0.isSaving = true }, effect: .save(count))
    }

    /// Logs how the save in flight ended, then starts the next waiting one.
    private func saveNext(_ state: State, after log: Effect) -> UpdateResult<State, Effect> {
      guard let next = state.unsaved.first else {
        return .dispatchEffect(state: state.copy { $0.isSaving = false }, effect: log)
      }
      return .dispatchEffects(
        state: state.copy { $0.unsaved.removeFirst() }, effects: [log, .save(next)])
    }
  }

  // side-by-side: counter effects
  public struct EffectHandler: MUE.EffectHandler {
    let storage: any CounterStorage
    let log: any AppLog

    public init(environment: CounterEnvironment) {
      storage = environment.storage
      log = environment.log
    }

    public func handle(_ effect: Effect) async -> EffectResult<Effect.Result> {
      switch effect {
      case .load:
        do { return .single(.loaded(try await storage.load())) } catch {
          return .single(.loadFailed)
        }
      case .save(let count):
        // `WhileRunning`: once the loop stopped, no save or log begins (R6).
        do {
          try await WhileRunning.call { try await storage.save(count) }
          return .single(.saved(count))
        } catch {
          return .single(.saveFailed(count))
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

  // side-by-side: counter wiring
  public static func view(_ state: State) -> CounterView {
    state.isLoaded ? .ready(count: state.count) : .loading
  }

  /// A counter loop for `environment`; call `start()` to load.
  public static func makeLoop(environment: CounterEnvironment) -> Loop<Update, EffectHandler> {
    Loop(
      update: Update(), effectHandler: EffectHandler(environment: environment), state: State(),
      executor: environment.executor)
  }
  // side-by-side: end
}
