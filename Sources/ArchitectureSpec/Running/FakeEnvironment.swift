/// How a run's fakes behave before any step touches them.
public struct FakeSetup: Sendable, Hashable {
  /// What the counter's `load()` does.
  public var load: FakeStorage.LoadScript
  /// Whether pending calls fail with `CancellationError` when cancelled, or stay pending like a
  /// service that ignores cancellation (R5).
  public var honorsCancellation: Bool

  public init(load: FakeStorage.LoadScript = .value(nil), honorsCancellation: Bool = true) {
    self.load = load
    self.honorsCancellation = honorsCancellation
  }
}

/// Every fake of one run, sharing one call record, one virtual clock and one executor.
public final class FakeEnvironment: Sendable {
  public let recorder = CallRecorder()
  public let clock = VirtualClock()
  public let storage: FakeStorage
  public let log: LogRecorder
  public let weather: FakeWeatherService
  public let executor: ScenarioExecutor
  private let ownsExecutor: Bool

  /// Creates fakes with an executor of their own, returned to the pool by ``finish()``.
  public convenience init(_ setup: FakeSetup = FakeSetup()) {
    self.init(setup, executor: ScenarioExecutor.acquire(), ownsExecutor: true)
  }

  /// Creates fakes that share `executor`, which stays the caller's: ``finish()`` keeps it.
  public convenience init(_ setup: FakeSetup = FakeSetup(), executor: ScenarioExecutor) {
    self.init(setup, executor: executor, ownsExecutor: false)
  }

  private init(_ setup: FakeSetup, executor: ScenarioExecutor, ownsExecutor: Bool) {
    storage = FakeStorage(
      load: setup.load, recorder: recorder, honorsCancellation: setup.honorsCancellation)
    log = LogRecorder(recorder: recorder)
    weather = FakeWeatherService(recorder: recorder, honorsCancellation: setup.honorsCancellation)
    self.executor = executor
    self.ownsExecutor = ownsExecutor
  }

  /// Waits until every task on the executor is suspended or done and `driver` is idle (R7).
  ///
  /// Loops because `idle()` may let more work run on the executor, and that work may again
  /// make the driver busy.
  public func settle<App>(_ driver: (any AppDriver<App>)?) async {
    await executor.settle(driver)
  }

  /// Ends the run: fails calls still pending so no task waits forever, and returns the executor.
  ///
  /// Call it once, after the runtime is stopped and released; the fakes are unusable afterwards.
  public func finish() async {
    storage.abandonPendingCalls()
    weather.abandonPendingCalls()
    clock.abandonAll()
    await executor.quiescence()
    if ownsExecutor { executor.release() }
  }
}
