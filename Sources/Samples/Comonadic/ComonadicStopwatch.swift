import ArchitectureSpec
import Comonadic

/// The stopwatch as a Bow Arch component: its timer is a stream that sends a tick action at
/// absolute deadlines until cancelled.
public enum ComonadicStopwatch {
  // side-by-side: stopwatch state
  public struct State: Equatable, Sendable {
    public var tenths = 0
    public var isRunning = false
    public var laps = Laps()

    public init() {}
  }

  // side-by-side: stopwatch effects
  public enum Work: Sendable { case timer }

  // side-by-side: stopwatch intents
  public typealias Dispatcher = StateDispatcher<StopwatchEnvironment, State, StopwatchIntent>

  // side-by-side: stopwatch update+effects
  public static let dispatcher = Dispatcher.workflow { intent in
    switch intent {
    case .start:
      [.read { $0.isRunning ? [] : [.action(.mutate { $0.isRunning = true }), timer] }]
    case .stop:
      [
        .read {
          $0.isRunning ? [.cancel(id: Work.timer), .action(.mutate { $0.isRunning = false })] : []
        }
      ]
    case .reset:
      [cancelTimer, .action(cleared)]
    case .lap:
      [.action(lap)]
    }
  }

  /// Stops the ticks.
  public static let cancelTimer = StateEffect<StopwatchEnvironment, State>.cancel(id: Work.timer)
  /// Back to zero, stopped, no laps.
  public static let cleared = Comonadic.State<State, Void>.set(State())
  /// A lap while running; nothing while stopped (S5).
  public static let lap = Comonadic.State<State, Void>.mutate {
    if $0.isRunning { $0.laps.append($0.tenths) }
  }

  // side-by-side: stopwatch effects
  /// Ticks at start + k × 100 ms, k = 1, 2, …: absolute deadlines, so nothing drifts (S2).
  static let timer = StateEffect<StopwatchEnvironment, State>.stream(id: Work.timer) {
    environment, _, send in
    await ticks(every: StopwatchApp.tickInterval, on: environment.clock) {
      send(.mutate { $0.tenths += 1 })
    }
  }

  // side-by-side: stopwatch wiring
  // Inlined where a parent calls it with a handle it made, which this render does not use:
  // the compiler then makes no such handle (an allocation for each render of the parent).
  @inline(__always)
  public static func render(
    _ state: State, _ handle: @escaping @Sendable (StopwatchIntent) -> Void
  ) -> StopwatchView {
    StopwatchView(elapsedTenths: state.tenths, isRunning: state.isRunning, laps: state.laps)
  }

  public typealias Component = StoreComponent<
    StopwatchEnvironment, State, StopwatchIntent, StopwatchView
  >

  public static func component(environment: StopwatchEnvironment) -> Component {
    Component(
      initialState: State(), environment: environment, dispatcher: dispatcher,
      executor: environment.executor, render: render)
  }
  // side-by-side: end
}

// side-by-side: stopwatch effects
/// Calls `tick` at now + k × `interval`, k = 1, 2, …, until cancelled.
private func ticks<C: Clock<Duration>>(
  every interval: Duration, on clock: C, _ tick: () -> Void
) async {
  var deadline = clock.now
  while true {
    deadline = deadline.advanced(by: interval)
    do { try await clock.sleep(until: deadline, tolerance: nil) } catch { return }
    tick()
  }
}
// side-by-side: end
