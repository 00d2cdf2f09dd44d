/// How a counter run's fakes behave before any step.
public struct CounterSetup: ScenarioSetup {
  /// What the counter's `load()` does.
  public var load: FakeStorage.LoadScript
  public var honorsCancellation: Bool

  public init() { self.init(load: .value(nil)) }

  public init(load: FakeStorage.LoadScript = .value(nil), honorsCancellation: Bool = true) {
    self.load = load
    self.honorsCancellation = honorsCancellation
  }

  public var description: String {
    guard self != CounterSetup() else { return "" }
    return "load \(load)\(honorsCancellation ? "" : ", cancellation ignored")"
  }
}

/// The counter's fakes: storage and log.
public struct CounterFakes: AppFakes {
  public let storage: FakeStorage
  public let log: LogRecorder

  public init(_ setup: CounterSetup, context: FakeContext) {
    storage = FakeStorage(
      load: setup.load, recorder: context.recorder, honorsCancellation: setup.honorsCancellation)
    log = LogRecorder(recorder: context.recorder)
  }

  public func abandonPendingCalls() { storage.abandonPendingCalls() }
}

/// What a scenario does to the counter's fakes.
public enum CounterFakeAction: Sendable, Hashable, CustomStringConvertible {
  /// Completes the pending storage load.
  case completeLoad(FakeStorage.LoadScript)
  /// Makes the next save fail.
  case failNextSave

  public var description: String {
    switch self {
    case .completeLoad(let result): "load returns \(result)"
    case .failNextSave: "next save fails"
    }
  }

  func perform(on fakes: CounterFakes) {
    switch self {
    case .completeLoad(let result): fakes.storage.completeLoad(result)
    case .failNextSave: fakes.storage.failNextSave()
    }
  }
}

extension CounterApp: ConformanceApp {
  public typealias Setup = CounterSetup

  public static func makeFakes(_ setup: CounterSetup, context: FakeContext) -> CounterFakes {
    CounterFakes(setup, context: context)
  }

  public static func environment(from fakes: CounterFakes, context: FakeContext)
    -> CounterEnvironment
  {
    CounterEnvironment(storage: fakes.storage, log: fakes.log, executor: context.executor)
  }

  public static func perform(_ action: CounterFakeAction, on fakes: CounterFakes) {
    action.perform(on: fakes)
  }
}

extension Step where App == CounterApp {
  /// Completes the pending storage load.
  public static func completeLoad(_ result: FakeStorage.LoadScript) -> Step {
    .fake(.completeLoad(result))
  }
  /// Makes the next save fail.
  public static var failNextSave: Step { .fake(.failNextSave) }
}
