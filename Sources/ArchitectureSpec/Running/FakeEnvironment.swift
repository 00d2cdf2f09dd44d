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

  public init(_ setup: FakeSetup = FakeSetup()) {
    storage = FakeStorage(
      load: setup.load, recorder: recorder, honorsCancellation: setup.honorsCancellation)
    log = LogRecorder(recorder: recorder)
    weather = FakeWeatherService(recorder: recorder, honorsCancellation: setup.honorsCancellation)
    executor = ScenarioExecutor.acquire()
  }

  /// Ends the run: fails calls still pending so no task waits forever, and returns the executor.
  func finish() async {
    storage.abandonPendingCalls()
    weather.abandonPendingCalls()
    clock.abandonAll()
    await executor.quiescence()
    executor.release()
  }
}
