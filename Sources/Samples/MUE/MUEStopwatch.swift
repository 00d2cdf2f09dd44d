import ArchitectureSpec
import MUE

/// The stopwatch in Model-Update-Effect style: one repeating effect, cancelled by id.
public enum MUEStopwatch {
  // side-by-side: stopwatch state
  public struct State: Equatable, Sendable, SmartCopy {
    public var tenths = 0
    public var isRunning = false
    public var laps = Laps()

    public init() {}
  }

  // side-by-side: stopwatch intents
  public typealias Event = StopwatchIntent

  // side-by-side: stopwatch effects
  public enum Effect: MUE.Effect, Equatable {
    case startTimer

    // side-by-side: stopwatch intents
    public enum Result: Sendable, Equatable { case tick }
    // side-by-side: stopwatch effects
    public enum ID: Hashable, Sendable { case timer }
    public var id: ID? { .timer }
  }

  // side-by-side: stopwatch update+effects
  public struct Update: MUE.Update {
    public init() {}

    public func handle(event: Event, _ state: State) -> UpdateResult<State, Effect> {
      switch event {
      case .start:
        guard !state.isRunning else { return .noChange }
        return .dispatchEffect(state: state.copy { $0.isRunning = true }, effect: .startTimer)
      case .stop:
        guard state.isRunning else { return .noChange }
        return .newState(state: state.copy { $0.isRunning = false }).cancelling(.timer)
      case .reset:
        return .newState(state: State()).cancelling(.timer)
      case .lap:
        guard state.isRunning else { return .noChange }
        return .newState(state: state.copy { $0.laps.append(state.tenths) })
      }
    }

    public func handle(result: Effect.Result, _ state: State) -> UpdateResult<State, Effect> {
      guard state.isRunning else { return .noChange }
      return .newState(state: state.copy { $0.tenths += 1 })
    }
  }

  // side-by-side: stopwatch effects
  public struct EffectHandler: MUE.EffectHandler {
    let clock: any Clock<Duration>

    public init(environment: StopwatchEnvironment) { clock = environment.clock }

    public func handle(_ effect: Effect) async -> EffectResult<Effect.Result> {
      .repeating(ticks(every: StopwatchApp.tickInterval, on: clock))
    }
  }

  // side-by-side: stopwatch wiring
  public static func view(_ state: State) -> StopwatchView {
    StopwatchView(elapsedTenths: state.tenths, isRunning: state.isRunning, laps: state.laps)
  }

  /// A stopwatch loop for `environment`, started.
  public static func makeLoop(environment: StopwatchEnvironment) -> Loop<Update, EffectHandler> {
    Loop(
      update: Update(), effectHandler: EffectHandler(environment: environment), state: State(),
      executor: environment.executor)
  }
  // side-by-side: end
}

// side-by-side: stopwatch effects
/// A tick at now + k × `interval`, k = 1, 2, …, until the consumer is cancelled. The deadlines
/// are absolute, so a late tick never delays the next.
private func ticks<C: Clock<Duration>>(
  every interval: Duration, on clock: C
) -> AsyncStream<MUEStopwatch.Effect.Result> {
  let schedule = Schedule(start: clock.now)
  return AsyncStream {
    let deadline = schedule.next(after: interval)
    do { try await clock.sleep(until: deadline, tolerance: nil) } catch { return nil }
    return .tick
  }
}

/// The next deadline of a tick stream.
private final class Schedule<Instant: InstantProtocol<Duration>>: Sendable {
  private let deadline: Lock<Instant>

  init(start: Instant) { deadline = Lock(start) }

  func next(after interval: Duration) -> Instant {
    deadline.withLock { deadline in
      deadline = deadline.advanced(by: interval)
      return deadline
    }
  }
}
// side-by-side: end
