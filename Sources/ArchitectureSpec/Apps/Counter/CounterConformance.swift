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

  public func completeDueCalls() -> Bool { storage.completeDueSaves() }

  public func abandonPendingCalls() { storage.abandonPendingCalls() }
}

/// What a scenario does to the counter's fakes.
public enum CounterFakeAction: Sendable, Hashable, CustomStringConvertible {
  /// Completes the pending storage load.
  case completeLoad(FakeStorage.LoadScript)
  /// Makes the next save fail.
  case failNextSave
  /// Holds saves pending (`true`) or lets them end with their step again (`false`).
  case holdSaves(Bool)
  /// Ends the oldest pending save.
  case answerSave(failing: Bool)

  public var description: String {
    switch self {
    case .completeLoad(let result): "load returns \(result)"
    case .failNextSave: "next save fails"
    case .holdSaves(let holds): holds ? "hold saves" : "release saves"
    case .answerSave(let failing): failing ? "the held save fails" : "the held save ends"
    }
  }

  func perform(on fakes: CounterFakes) {
    switch self {
    case .completeLoad(let result): fakes.storage.completeLoad(result)
    case .failNextSave: fakes.storage.failNextSave()
    case .holdSaves(let holds): fakes.storage.holdSaves(holds)
    case .answerSave(let failing): fakes.storage.answerSave(failing: failing)
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
  /// Holds saves pending until ``answerSave(failing:)`` ends them (C5).
  public static var holdSaves: Step { .fake(.holdSaves(true)) }
  /// Lets saves end with their step again; one held until now ends with this step.
  public static var releaseSaves: Step { .fake(.holdSaves(false)) }
  /// Ends the oldest held save, successfully or with an error.
  public static func answerSave(failing: Bool = false) -> Step {
    .fake(.answerSave(failing: failing))
  }
}
