import Foundation

/// An app of the spec as the kit runs it: its domain (``SpecApp``) plus its fakes, what a
/// scenario can do to them, its scenarios and its random programs.
///
/// Each app lives in one folder of the kit (`Apps/Counter`, `Apps/Todos`, …); the runner, the
/// trace and the reports are generic. Adding an app means adding its domain folder in
/// `ArchitectureApps`, its kit folder here, and one catalog line per architecture.
public protocol ConformanceApp: SpecApp {
  /// How a run's fakes behave before any step touches them.
  associatedtype Setup: ScenarioSetup = BasicSetup
  /// The fakes of one run.
  associatedtype Fakes: AppFakes
  /// What a scenario step can do to the fakes: complete a load, answer a search, ….
  associatedtype FakeAction: Sendable, Hashable, CustomStringConvertible = NoFakeAction

  /// Creates the fakes of one run, recording into `context`.
  static func makeFakes(_ setup: Setup, context: FakeContext) -> Fakes

  /// The environment of one run, built from that run's fakes.
  static func environment(from fakes: Fakes, context: FakeContext) -> Environment

  /// Performs a scenario's action on the fakes.
  static func perform(_ action: FakeAction, on fakes: Fakes)

  /// Every scenario of this app.
  static var scenarios: [Scenario<Self>] { get }

  /// A random program of steps for differential property testing.
  static func randomProgram(using random: inout SeededRandom) -> Scenario<Self>

  /// How a child view appears in a trace (default: its JSON, keys sorted).
  static func traceText(of childView: ChildView) -> String
}

extension ConformanceApp {
  public static func traceText(of childView: ChildView) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return (try? encoder.encode(childView)).map { String(decoding: $0, as: UTF8.self) } ?? "?"
  }
}

extension ConformanceApp where FakeAction == NoFakeAction {
  public static func perform(_ action: FakeAction, on fakes: Fakes) {}
}

/// The fake action of an app whose fakes need none.
public enum NoFakeAction: Sendable, Hashable, CustomStringConvertible {
  public var description: String { "" }
}

/// How a run's fakes behave before any step: every app's setup says at least whether pending
/// calls honour cancellation.
public protocol ScenarioSetup: Sendable, Hashable, CustomStringConvertible {
  /// The default setup.
  init()
  /// Whether pending calls fail with `CancellationError` when cancelled, or stay pending like a
  /// service that ignores cancellation (R5).
  var honorsCancellation: Bool { get }
}

/// The setup of an app whose fakes only need to know about cancellation.
public struct BasicSetup: ScenarioSetup {
  public var honorsCancellation: Bool

  public init() { self.init(honorsCancellation: true) }

  public init(honorsCancellation: Bool) { self.honorsCancellation = honorsCancellation }

  public var description: String { honorsCancellation ? "" : "cancellation ignored" }
}

/// The fakes of one run of one app.
public protocol AppFakes: Sendable {
  /// Completes the calls the scenario timing completes at the end of a step on its own (a
  /// todos save that the scenario does not hold), and returns whether it completed any.
  func completeDueCalls() -> Bool

  /// Fails every call still pending, so no task waits forever; called once, when a run ends.
  func abandonPendingCalls()
}

extension AppFakes {
  public func completeDueCalls() -> Bool { false }
  public func abandonPendingCalls() {}
}

/// What every fake of one run shares: one call record, one virtual clock, one executor.
public final class FakeContext: Sendable {
  public let recorder = CallRecorder()
  public let clock = VirtualClock()
  public let executor: SettlingExecutor
  public let honorsCancellation: Bool

  public init(executor: SettlingExecutor, honorsCancellation: Bool = true) {
    self.executor = executor
    self.honorsCancellation = honorsCancellation
  }
}

/// Every fake of one run of `App`, sharing one call record, one virtual clock and one executor.
public final class FakeEnvironment<App: ConformanceApp>: Sendable {
  public let context: FakeContext
  /// The app's own fakes.
  public let fakes: App.Fakes
  private let ownsExecutor: Bool

  /// Creates fakes with an executor of their own, returned to the pool by ``finish()``.
  public convenience init(_ setup: App.Setup = App.Setup()) {
    self.init(setup, executor: SettlingExecutor.acquire(), ownsExecutor: true)
  }

  /// Creates fakes that share `executor`, which stays the caller's: ``finish()`` keeps it.
  public convenience init(_ setup: App.Setup = App.Setup(), executor: SettlingExecutor) {
    self.init(setup, executor: executor, ownsExecutor: false)
  }

  private init(_ setup: App.Setup, executor: SettlingExecutor, ownsExecutor: Bool) {
    context = FakeContext(executor: executor, honorsCancellation: setup.honorsCancellation)
    fakes = App.makeFakes(setup, context: context)
    self.ownsExecutor = ownsExecutor
  }

  public var recorder: CallRecorder { context.recorder }
  public var clock: VirtualClock { context.clock }
  public var executor: SettlingExecutor { context.executor }

  /// A new environment for the app, on these fakes.
  public var environment: App.Environment { App.environment(from: fakes, context: context) }

  /// Waits until every task on the executor is suspended or done and `driver` is idle (R7),
  /// completing on the way the calls the scenario timing completes by itself.
  public func settle(_ driver: (any AppDriver<App>)?) async {
    repeat { await executor.settle(driver) } while fakes.completeDueCalls()
  }

  /// Ends the run: fails calls still pending so no task waits forever, and returns the executor.
  ///
  /// Call it once, after the runtime is stopped and released; the fakes are unusable afterwards.
  public func finish() async {
    fakes.abandonPendingCalls()
    clock.abandonAll()
    await executor.quiescence()
    if ownsExecutor { executor.release() }
  }
}
