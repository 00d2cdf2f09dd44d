import ArchitectureSpec
import LayerCore

/// The shell as a simprokcore app: the very counter, stopwatch and weather cores of this folder
/// mounted in one core — their reducers run on their parts of the shell's state, their layers
/// become the shell's — plus the shell's own screen, the lap that counts (H4) and resetAll (H5).
public enum LayerShell {
  // side-by-side: shell state
  /// The global state: the tab and each child's state (`nil` until the child sets one).
  public struct AppState: Sendable {
    public var tab = ShellTab.counter
    public var counter: LayerCounter.AppState?
    public var stopwatch: LayerStopwatch.AppState?
    public var weather: LayerWeather.AppState?

    public init() {}
  }

  // side-by-side: shell intents
  /// The global events: the shell's own screen's, and each child's own events.
  public enum AppEvent: Sendable {
    case click(ShellIntent)
    case counter(LayerCounter.AppEvent)
    case stopwatch(LayerStopwatch.AppEvent)
    case weather(LayerWeather.AppEvent)
  }

  // side-by-side: shell wiring
  /// The shell's screens: its own and each child's (what a tab's observer watches).
  public struct Screens: Sendable {
    public let shell = Screen<ShellView, ShellIntent>(placeholder: .initial)
    public let counter = Screen<CounterView, CounterIntent>(placeholder: .loading)
    public let stopwatch = Screen<StopwatchView, StopwatchIntent>(placeholder: .initial)
    public let weather = Screen<WeatherView, WeatherIntent>(placeholder: .initial)

    public init() {}
  }

  /// The reducer, the shell's screen, and the three mounted children.
  public struct App: Core {
    let screens: Screens
    let counter: Mounted<LayerCounter.App, AppState, AppEvent>
    let stopwatch: Mounted<LayerStopwatch.App, AppState, AppEvent>
    let weather: Mounted<LayerWeather.App, AppState, AppEvent>

    public init(screens: Screens, environment: ShellEnvironment) {
      self.screens = screens
      counter = LayerCounter.App(screen: screens.counter, environment: environment.counter)
        .mounted(at: \.counter, event: AppEvent.counter)
      stopwatch = LayerStopwatch.App(screen: screens.stopwatch, environment: environment.stopwatch)
        .mounted(at: \.stopwatch, event: AppEvent.stopwatch)
      weather = LayerWeather.App(screen: screens.weather, environment: environment.weather)
        .mounted(at: \.weather, event: AppEvent.weather)
    }

    /// The shell's screen first, then each child's layers in the child's order.
    public var layers: [Layer<AppState, AppEvent>] {
      [~UILayer(screen: screens.shell)] + counter.layers + stopwatch.layers + weather.layers
    }

    // side-by-side: shell update
    /// Written in place: the flow keeps the shell's state and each event changes the child it
    /// is for where it is, without copying the rest.
    public func reduce(state: inout AppState?, event: AppEvent) -> InPlaceReducerResult {
      // Changed where it is (`&state!`): moved out and back in, it is copied on the way back.
      guard case .some = state else {
        var shell = AppState()
        // A skip leaves the state as it was: still unset.
        let result = reduce(&shell, event)
        if result == .set { state = shell }
        return result
      }
      return reduce(&state!, event)
    }

    private func reduce(_ state: inout AppState, _ event: AppEvent) -> InPlaceReducerResult {
      switch event {
      case .click(.select(let tab)):
        guard tab != state.tab else { return .skip }
        state.tab = tab
        return .set
      case .click(.counter(let intent)):
        return counter.reduce(.click(intent), in: &state)
      case .click(.stopwatch(let intent)):
        return onStopwatch(.click(intent), &state)
      case .click(.weather(let intent)):
        return weather.reduce(.click(intent), in: &state)
      case .click(.resetAll):
        // H5: the three resets in one event.
        _ = counter.reduce(.click(.reset), in: &state)
        _ = stopwatch.reduce(.click(.reset), in: &state)
        weather.child.reset(&state.weather)
        return .set
      case .counter(let event):
        return counter.reduce(event, in: &state)
      case .stopwatch(let event):
        return onStopwatch(event, &state)
      case .weather(let event):
        return weather.reduce(event, in: &state)
      }
    }

    /// The stopwatch's event; a lap it accepted also counts (H4), in this same event.
    private func onStopwatch(_ event: LayerStopwatch.AppEvent, _ state: inout AppState)
      -> InPlaceReducerResult
    {
      let laps = state.stopwatch?.laps.count ?? 0
      guard stopwatch.reduce(event, in: &state) == .set else { return .skip }
      if state.stopwatch?.laps.count ?? 0 > laps {
        _ = counter.reduce(.click(.increment), in: &state)
      }
      return .set
    }
    // side-by-side: end
  }

  // side-by-side: shell wiring
  /// The shell's screen: the tab, the badges and the three child views; sends the shell's
  /// intents.
  struct UILayer: LayerType {
    let screen: Screen<ShellView, ShellIntent>

    var machine: Machine<ShellView, ShellIntent> { screen.machine }
    func map(state: AppState) -> ShellView { LayerShell.view(state) }
    func map(event: ShellIntent) -> AppEvent { .click(event) }
  }

  /// The shell's view of `state`.
  public static func view(_ state: AppState) -> ShellView {
    ShellView(
      tab: state.tab, counter: LayerCounter.view(state.counter),
      stopwatch: LayerStopwatch.view(state.stopwatch), weather: LayerWeather.view(state.weather),
      placeName: state.weather?.selected?.name)
  }
  // side-by-side: end
}
