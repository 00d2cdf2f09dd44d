/// How a todos run's fakes behave before any step.
public struct TodosSetup: ScenarioSetup {
  /// What `loadTodos()` does.
  public var load: FakeTodoStorage.LoadScript
  public var honorsCancellation: Bool
  /// Whether saves stay pending until the scenario ends them.
  public var holdsSaves: Bool

  public init() { self.init(load: .value(nil)) }

  public init(
    load: FakeTodoStorage.LoadScript = .value(nil), honorsCancellation: Bool = true,
    holdsSaves: Bool = false
  ) {
    self.load = load
    self.honorsCancellation = honorsCancellation
    self.holdsSaves = holdsSaves
  }

  public var description: String {
    guard self != TodosSetup() else { return "" }
    return "load \(load)\(honorsCancellation ? "" : ", cancellation ignored")"
      + (holdsSaves ? ", saves held" : "")
  }
}

/// The todos app's fakes: storage and log.
public struct TodosFakes: AppFakes {
  public let storage: FakeTodoStorage
  public let log: LogRecorder

  public init(_ setup: TodosSetup, context: FakeContext) {
    storage = FakeTodoStorage(
      load: setup.load, recorder: context.recorder, honorsCancellation: setup.honorsCancellation,
      holdsSaves: setup.holdsSaves)
    log = LogRecorder(recorder: context.recorder)
  }

  public func completeDueCalls() -> Bool { storage.completeDueSaves() }

  public func abandonPendingCalls() { storage.abandonPendingCalls() }
}

/// What a scenario does to the todos app's fakes.
public enum TodosFakeAction: Sendable, Hashable, CustomStringConvertible {
  /// Completes the pending load.
  case completeLoad(FakeTodoStorage.LoadScript)
  /// Makes the next save that ends on its own fail.
  case failNextSave
  /// Holds saves pending (`true`) or lets them end with their step again (`false`).
  case holdSaves(Bool)
  /// Ends the oldest pending save (the one of `count` records, if given).
  case answerSave(failing: Bool, count: Int?)

  public var description: String {
    switch self {
    case .completeLoad(let result): "loadTodos returns \(result)"
    case .failNextSave: "next save fails"
    case .holdSaves(let holds): holds ? "hold saves" : "release saves"
    case .answerSave(let failing, let count):
      "\(failing ? "fail" : "end") the pending save\(count.map { " of \($0) items" } ?? "")"
    }
  }

  func perform(on fakes: TodosFakes) {
    switch self {
    case .completeLoad(let result): fakes.storage.completeLoad(result)
    case .failNextSave: fakes.storage.failNextSave()
    case .holdSaves(let holds): fakes.storage.holdSaves(holds)
    case .answerSave(let failing, let count):
      fakes.storage.answerSave(failing: failing, count: count)
    }
  }
}

extension TodosApp: ConformanceApp {
  public typealias Setup = TodosSetup

  public static func makeFakes(_ setup: TodosSetup, context: FakeContext) -> TodosFakes {
    TodosFakes(setup, context: context)
  }

  public static func environment(from fakes: TodosFakes, context: FakeContext)
    -> TodosEnvironment
  {
    TodosEnvironment(storage: fakes.storage, log: fakes.log, executor: context.executor)
  }

  public static func perform(_ action: TodosFakeAction, on fakes: TodosFakes) {
    action.perform(on: fakes)
  }

  /// A row's view, or `gone`.
  public static func traceText(of childView: TodoRowView?) -> String {
    childView.map(\.description) ?? "gone"
  }
}

extension Step where App == TodosApp {
  /// Completes the pending load.
  public static func completeLoad(_ result: FakeTodoStorage.LoadScript) -> Step {
    .fake(.completeLoad(result))
  }
  /// Makes the next save that ends on its own fail.
  public static var failNextSave: Step { .fake(.failNextSave) }
  /// Holds saves pending until ``answerSave(failing:)``.
  public static var holdSaves: Step { .fake(.holdSaves(true)) }
  /// Lets saves end with their step again.
  public static var releaseSaves: Step { .fake(.holdSaves(false)) }
  /// Ends the oldest pending save.
  public static func answerSave(failing: Bool = false, count: Int? = nil) -> Step {
    .fake(.answerSave(failing: failing, count: count))
  }
  /// Sends a row intent through the row's scope.
  public static func row(_ id: Int, _ intent: TodoRowIntent) -> Step {
    .sendToChild(id, intent)
  }
}
