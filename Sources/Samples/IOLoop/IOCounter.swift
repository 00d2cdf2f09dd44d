import ArchitectureSpec
import IOLoop

// side-by-side: counter effects
/// Counter storage as an IO type.
public enum StorageIO: IOType {
  public enum Output: Sendable, Equatable {
    case load
    case save(Int)
  }
  // side-by-side: counter intents
  public enum Input: Sendable, Equatable {
    case loaded(Int?)
    case loadFailed
    case saved(Int)
    case saveFailed
  }
  // side-by-side: end
}

// side-by-side: counter effects
/// The log as an IO type: nothing comes back.
public enum LogIO: IOType {
  public enum Output: Sendable, Equatable {
    case log(String)
  }
}

// side-by-side: counter state
/// The counter as one pure function: every load, save, log and render is an output. The log
/// comes before storage in the IO list, so a step's log line is written before the next save
/// it asks for starts.
public struct IOCounter: PureApp, Equatable {
  // side-by-side: counter intents
  public typealias Screen = ScreenIO<CounterView, CounterIntent>
  public typealias Input = IOInput<Screen, LogIO, StorageIO>
  // side-by-side: counter effects
  public typealias Outputs = IOOutputs<Screen, LogIO, StorageIO>

  // side-by-side: counter state
  public var isLoaded = false
  public var count = 0
  /// Whether a save is out: saves go one at a time, in the order counts changed.
  public var isSaving = false
  /// Counts waiting for the save that is out, oldest first.
  public var unsaved: [Int] = []

  public init() {}

  // side-by-side: counter wiring
  public var view: CounterView { isLoaded ? .ready(count: count) : .loading }

  // side-by-side: counter update+effects
  public static func start() -> (IOCounter, Outputs) {
    let app = IOCounter()
    return (app, Outputs([app.view], [], [.load]))
  }

  public func run(input: Input) -> (IOCounter, Outputs) {
    switch input.values {
    case (let intent?, _, _): return handle(intent)
    case (_, _, let storage?): return handle(storage)
    default: return (self, .none)
    }
  }

  private func handle(_ intent: CounterIntent) -> (IOCounter, Outputs) {
    guard isLoaded else { return (self, .none) }
    let new =
      switch intent {
      case .increment: min(count + 1, CounterApp.maximumCount)
      case .decrement: max(count - 1, 0)
      case .reset: 0
      }
    guard new != count else { return (self, .none) }
    var next = self
    next.count = new
    guard !isSaving else {
      next.unsaved.append(new)
      return (next, Outputs([next.view], [], []))
    }
    next.isSaving = true
    return (next, Outputs([next.view], [], [.save(new)]))
  }

  private func handle(_ storage: StorageIO.Input) -> (IOCounter, Outputs) {
    var next = self
    switch storage {
    case .loaded(let stored):
      next.isLoaded = true
      if let stored {
        guard CounterApp.validCounts.contains(stored) else {
          return (next, Outputs([next.view], [.log(CounterApp.unreadableCountMessage)], []))
        }
        next.count = stored
      }
      return (next, Outputs([next.view], [], []))
    case .loadFailed:
      next.isLoaded = true
      return (next, Outputs([next.view], [.log(CounterApp.unreadableCountMessage)], []))
    case .saved(let count):
      return next.saveNext(after: .log(CounterApp.savedMessage(count)))
    case .saveFailed:
      return next.saveNext(after: .log(CounterApp.saveFailedMessage))
    }
  }

  /// Logs how the save that was out ended, and sends the next waiting one.
  private func saveNext(after log: LogIO.Output) -> (IOCounter, Outputs) {
    var next = self
    guard !next.unsaved.isEmpty else {
      next.isSaving = false
      return (next, Outputs([], [log], []))
    }
    let count = next.unsaved.removeFirst()
    return (next, Outputs([], [log], [.save(count)]))
  }
  // side-by-side: end
}

// side-by-side: counter effects
/// Loads and saves through the storage; each result comes back as an input.
public struct StorageHandler: IOHandler {
  public typealias IO = StorageIO
  let storage: any CounterStorage

  public init(_ storage: any CounterStorage) { self.storage = storage }

  public func handle(_ output: StorageIO.Output, context: IOContext<StorageIO>) {
    let storage = self.storage
    switch output {
    case .load:
      context.run { send in
        do { send(.loaded(try await storage.load())) } catch { send(.loadFailed) }
      }
    case .save(let count):
      context.run { send in
        // `WhileRunning`: once the program stopped, no save begins (R6).
        do {
          try await WhileRunning.call { try await storage.save(count) }
          send(.saved(count))
        } catch {
          send(.saveFailed)
        }
      }
    }
  }
}

/// Writes log lines.
public struct LogHandler: IOHandler {
  public typealias IO = LogIO
  let log: any AppLog

  public init(_ log: any AppLog) { self.log = log }

  public func handle(_ output: LogIO.Output, context: IOContext<LogIO>) {
    guard case .log(let message) = output else { return }
    log.log(message)
  }
}
// side-by-side: end
