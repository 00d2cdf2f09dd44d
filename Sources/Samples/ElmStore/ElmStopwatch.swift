import ArchitectureSpec
import ElmStore

/// The stopwatch as an ElmStore app: one timer effect that runs until cancelled.
public enum ElmStopwatch {
  // side-by-side: stopwatch state
  public struct State: Equatable, Sendable {
    public var tenths = 0
    public var isRunning = false
    public var laps = Laps()

    public init() {}
  }

  // side-by-side: stopwatch intents
  public enum Action: Equatable, Sendable {
    case intent(StopwatchIntent)
    case tick
  }

  // side-by-side: stopwatch update
  public static func update(_ state: inout State, _ action: Action) {
    switch action {
    case .intent(.start): state.isRunning = true
    case .intent(.stop): state.isRunning = false
    case .intent(.reset): state = State()
    case .intent(.lap): if state.isRunning { state.laps.append(state.tenths) }
    case .tick: if state.isRunning { state.tenths += 1 }
    }
  }

  // side-by-side: stopwatch effects
  /// Starts the timer on `start` (a running timer is kept: never a second one) and cancels it on
  /// `stop` and `reset`.
  public static func effect(_ environment: StopwatchEnvironment) -> Effect<State, Action> {
    let clock = environment.clock
    return Effect {
      Effect.take(.intent(.start)) { _, dispatch in
        dispatch.run(id: Timer.id, lifetime: .untilCancelled, whenRunning: .keep) { send in
          try await ticks(every: StopwatchApp.tickInterval, on: clock) { send(.tick) }
        }
      }
      Effect { _, action, dispatch in
        if action == .intent(.stop) || action == .intent(.reset) { dispatch.cancel(id: Timer.id) }
      }
    }
  }

  // side-by-side: stopwatch wiring
  public static func view(_ state: State) -> StopwatchView {
    StopwatchView(elapsedTenths: state.tenths, isRunning: state.isRunning, laps: state.laps)
  }

  // side-by-side: stopwatch effects
  enum Timer { case id }

  // side-by-side: stopwatch wiring
  /// A stopwatch store for `environment`.
  public static func makeStore(environment: StopwatchEnvironment) -> Store<State, Action> {
    Store(
      state: State(), update: update, effect: effect(environment), executor: environment.executor)
  }
  // side-by-side: end
}

// side-by-side: stopwatch effects
/// Calls `tick` at now + k × `interval`, k = 1, 2, …, until cancelled. The deadlines are
/// absolute, so a late tick never delays the next.
private func ticks<C: Clock<Duration>>(
  every interval: Duration, on clock: C, _ tick: () -> Void
) async throws {
  var deadline = clock.now
  while true {
    deadline = deadline.advanced(by: interval)
    try await clock.sleep(until: deadline, tolerance: nil)
    tick()
  }
}
// side-by-side: end
