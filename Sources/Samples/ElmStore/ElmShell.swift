import ArchitectureSpec
import ElmStore

/// The shell as an ElmStore app: the very counter, stopwatch and weather of this folder,
/// lifted into one store (their updates with `lift`, their effects with `lifted`), plus the
/// shell's own tab, the lap that counts (H4) and resetAll (H5).
public enum ElmShell {
  // side-by-side: shell state
  public struct State: Equatable, Sendable {
    public var tab = ShellTab.counter
    public var counter = ElmCounter.State()
    public var stopwatch = ElmStopwatch.State()
    public var weather = ElmWeather.State()
    /// Whether the last action was a lap that also counted (H4); the effects save the count.
    public var lapCounted = false

    public init() {}
  }

  // side-by-side: shell intents
  public enum Action: Equatable, Sendable {
    case select(ShellTab)
    case counter(ElmCounter.Action)
    case stopwatch(ElmStopwatch.Action)
    case weather(ElmWeather.Action)
    case resetAll
  }

  // side-by-side: shell update
  static let counter = ActionPath<Action, ElmCounter.Action>(
    embed: Action.counter, extract: { if case .counter(let action) = $0 { action } else { nil } })
  static let stopwatch = ActionPath<Action, ElmStopwatch.Action>(
    embed: Action.stopwatch,
    extract: { if case .stopwatch(let action) = $0 { action } else { nil } })
  static let weather = ActionPath<Action, ElmWeather.Action>(
    embed: Action.weather, extract: { if case .weather(let action) = $0 { action } else { nil } })

  /// The three children's updates, each on its part of the state.
  static let children: Update<State, Action> = combine(
    lift(ElmCounter.update, state: \.counter, action: counter),
    lift(ElmStopwatch.update, state: \.stopwatch, action: stopwatch),
    lift(ElmWeather.update, state: \.weather, action: weather))

  public static func update(_ state: inout State, _ action: Action) {
    state.lapCounted = false
    switch action {
    case .select(let tab):
      state.tab = tab
    case .counter, .weather:
      children(&state, action)
    case .stopwatch:
      let laps = state.stopwatch.laps.count
      children(&state, action)
      // H4: a lap the stopwatch accepted also counts, in this same message.
      if state.stopwatch.laps.count > laps {
        children(&state, .counter(.intent(.increment)))
        state.lapCounted = state.counter.countToSave != nil
      }
    case .resetAll:
      // H5: the three resets in one message.
      children(&state, .counter(.intent(.reset)))
      children(&state, .stopwatch(.intent(.reset)))
      children(&state, .weather(.reset))
    }
  }

  // side-by-side: shell effects
  public static func effect(_ environment: ShellEnvironment) -> Effect<State, Action> {
    let counterEffect = ElmCounter.effect(environment.counter).lifted(
      state: \State.counter, action: counter)
    let stopwatchEffect = ElmStopwatch.effect(environment.stopwatch).lifted(
      state: \State.stopwatch, action: stopwatch)
    let weatherEffect = ElmWeather.effect(environment.weather).lifted(
      state: \State.weather, action: weather)
    return Effect {
      counterEffect
      stopwatchEffect
      weatherEffect
      // The children's effects for what the shell did on their behalf.
      Effect { state, action, dispatch in
        switch action {
        case .stopwatch where state.lapCounted:
          counterEffect.run(state: state, action: .counter(.intent(.increment)), dispatch: dispatch)
        case .resetAll:
          counterEffect.run(state: state, action: .counter(.intent(.reset)), dispatch: dispatch)
          stopwatchEffect.run(
            state: state, action: .stopwatch(.intent(.reset)), dispatch: dispatch)
          weatherEffect.run(state: state, action: .weather(.reset), dispatch: dispatch)
        default: break
        }
      }
    }
  }

  // side-by-side: shell wiring
  public static func view(_ state: State) -> ShellView {
    let weather = ElmWeather.view(state.weather)
    return ShellView(
      tab: state.tab, counter: ElmCounter.view(state.counter),
      stopwatch: ElmStopwatch.view(state.stopwatch), weather: weather,
      placeName: state.weather.selected?.name)
  }

  /// A child's view.
  public static func childView(_ tab: ShellTab, _ state: State) -> ShellChildView {
    switch tab {
    case .counter: .counter(ElmCounter.view(state.counter))
    case .stopwatch: .stopwatch(ElmStopwatch.view(state.stopwatch))
    case .weather: .weather(ElmWeather.view(state.weather))
    }
  }

  /// A shell store for `environment`; dispatch `.counter(.load)` to start it.
  public static func makeStore(environment: ShellEnvironment) -> Store<State, Action> {
    Store(
      state: State(), update: update, effect: effect(environment), executor: environment.executor)
  }
  // side-by-side: end
}
