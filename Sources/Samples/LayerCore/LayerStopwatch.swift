import ArchitectureSpec
import LayerCore

/// The stopwatch as a simprokcore app: the core counts tenths and laps; the timer layer ticks
/// while the state says a timer runs.
public enum LayerStopwatch {
  // side-by-side: stopwatch state
  /// The global state.
  public struct AppState: Sendable, Equatable {
    public var tenths = 0
    public var isRunning = false
    public var laps = Laps()
    /// The id of the latest timer; a tick from any other timer is stale.
    public var timer = 0

    public init() {}

    /// The timer that should run now, if any: what the timer layer gets.
    var runningTimer: Request<Int>? { isRunning ? Request(id: timer, timer) : nil }
  }

  // side-by-side: stopwatch intents
  /// The global events.
  public enum AppEvent: Sendable, Equatable {
    case click(StopwatchIntent)
    case tick(timer: Int)
  }

  // side-by-side: stopwatch wiring
  /// The reducer, and the screen and timer layers.
  public struct App: Core {
    let screen: Screen<StopwatchView, StopwatchIntent>
    let environment: StopwatchEnvironment

    public init(
      screen: Screen<StopwatchView, StopwatchIntent>, environment: StopwatchEnvironment
    ) {
      self.screen = screen
      self.environment = environment
    }

    public var layers: [Layer<AppState, AppEvent>] {
      [~UILayer(screen: screen), ~TimerLayer(clock: environment.clock)]
    }

    // side-by-side: stopwatch update
    // Written in place (`inout`): the flow's state changes where it is kept, not in a copy
    // that then replaces it.
    public func reduce(state: inout AppState?, event: AppEvent) -> InPlaceReducerResult {
      guard case .some = state else {
        var first = AppState()
        let result = Self.reduce(&first, event)
        if result == .set { state = first }
        return result
      }
      return Self.reduce(&state!, event)
    }

    /// Every `.skip` comes before any change: a skipped event leaves `state` as it was.
    private static func reduce(_ state: inout AppState, _ event: AppEvent) -> InPlaceReducerResult {
      switch event {
      case .click(.start):
        guard !state.isRunning else { return .skip }
        state.isRunning = true
        state.timer += 1
      case .click(.stop):
        guard state.isRunning else { return .skip }
        state.isRunning = false
      case .click(.reset):
        state.tenths = 0
        state.laps = Laps()
        state.isRunning = false
      case .click(.lap):
        guard state.isRunning else { return .skip }
        state.laps.append(state.tenths)
      case .tick(let timer):
        guard state.isRunning, timer == state.timer else { return .skip }
        state.tenths += 1
      }
      return .set
    }
    // side-by-side: end
  }

  // side-by-side: stopwatch wiring
  /// The screen: shows the time and laps, sends clicks.
  struct UILayer: LayerType {
    let screen: Screen<StopwatchView, StopwatchIntent>

    var machine: Machine<StopwatchView, StopwatchIntent> { screen.machine }
    func map(state: AppState) -> StopwatchView { LayerStopwatch.view(state) }
    func map(event: StopwatchIntent) -> AppEvent { .click(event) }
  }

  /// The screen for `state`; the stopwatch at 0 before its first event.
  public static func view(_ state: AppState?) -> StopwatchView {
    guard let state else { return .initial }
    return StopwatchView(
      elapsedTenths: state.tenths, isRunning: state.isRunning, laps: state.laps)
  }

  // side-by-side: stopwatch effects
  /// The timer: ticks every tenth of a second, on absolute deadlines, while the state has a
  /// running timer; a new timer replaces the old one, and none stops it.
  struct TimerLayer: LayerType {
    let clock: any Clock<Duration>

    var machine: Machine<Request<Int>?, Int> {
      let clock = clock
      return ~RequestMachine(lifetime: .untilCancelled) {
        (timer: Request<Int>, send: Handler<Int>) in
        await tick(every: StopwatchApp.tickInterval, on: clock) { send(timer.id) }
      }
    }
    func map(state: AppState) -> Request<Int>? { state.runningTimer }
    func map(event timer: Int) -> AppEvent { .tick(timer: timer) }
  }
  // side-by-side: end
}

// side-by-side: stopwatch effects
/// Calls `onTick` at start + k × `interval`, k = 1, 2, …, until cancelled.
private func tick<C: Clock<Duration>>(every interval: Duration, on clock: C, _ onTick: () -> Void)
  async
{
  var deadline = clock.now
  while true {
    deadline = deadline.advanced(by: interval)
    do { try await clock.sleep(until: deadline, tolerance: nil) } catch { return }
    onTick()
  }
}
// side-by-side: end
