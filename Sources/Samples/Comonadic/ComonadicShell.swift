import ArchitectureSpec
import Comonadic

/// The shell as a Bow Arch component: the very counter, stopwatch and weather dispatchers of
/// this folder, each widened onto its part of the shell's state and combined, plus the
/// shell's own tab, the lap that counts (H4) and resetAll (H5), built from the children's
/// actions and steps.
public enum ComonadicShell {
  // side-by-side: shell state
  public struct State: Equatable, Sendable {
    public var tab = ShellTab.counter
    public var counter = ComonadicCounter.State()
    public var stopwatch = ComonadicStopwatch.State()
    public var weather = ComonadicWeather.State()
    /// Whether the last lap also counted (H4); the steps after it save the count.
    public var lapCounted = false

    public init() {}
  }

  // side-by-side: shell intents
  public enum Input: Sendable {
    case select(ShellTab)
    case counter(ComonadicCounter.Input)
    case stopwatch(StopwatchIntent)
    case weather(WeatherIntent)
    case resetAll
  }

  public typealias Dispatcher = StateDispatcher<ShellEnvironment, State, Input>
  typealias Step = StateEffect<ShellEnvironment, State>

  // side-by-side: shell update+effects
  /// The children's dispatchers, each on its part of the state and its inputs.
  static let counter = ComonadicCounter.dispatcher.widen(
    transformEnvironment: \ShellEnvironment.counter, transformState: \State.counter,
    transformInput: { (input: Input) -> ComonadicCounter.Input? in
      if case .counter(let input) = input { input } else { nil }
    })
  static let stopwatch = ComonadicStopwatch.dispatcher.widen(
    transformEnvironment: \ShellEnvironment.stopwatch, transformState: \State.stopwatch,
    transformInput: { (input: Input) -> StopwatchIntent? in
      // A lap is the shell's own: it may count (H4).
      if case .stopwatch(let intent) = input, intent != .lap { intent } else { nil }
    })
  static let weather = ComonadicWeather.dispatcher.widen(
    transformEnvironment: \ShellEnvironment.weather, transformState: \State.weather,
    transformInput: { (input: Input) -> WeatherIntent? in
      if case .weather(let input) = input { input } else { nil }
    })

  public static let dispatcher = counter.combine(stopwatch).combine(weather).combine(own)

  /// What the shell does itself.
  static let own = Dispatcher.workflow { input in
    switch input {
    case .select(let tab):
      [.action(.mutate { $0.tab = tab })]
    case .stopwatch(.lap):
      // H4: the stopwatch's lap and, if it took, the counter's increment: one action.
      [
        .action(
          .mutate { shell in
            let laps = shell.stopwatch.laps.count
            ComonadicStopwatch.lap.widen(\State.stopwatch).apply(to: &shell)
            shell.lapCounted = false
            guard shell.stopwatch.laps.count > laps else { return }
            ComonadicCounter.apply(.increment).widen(\State.counter).apply(to: &shell)
            shell.lapCounted = shell.counter.countToSave != nil
          }),
        .read { $0.lapCounted ? counterSave($0) : [] },
      ]
    case .resetAll:
      resetAll
    case .counter, .stopwatch, .weather:
      []
    }
  }

  /// H5: the children's resets as one action; their work cancelled first. The same steps
  /// every time, so widened once.
  static let resetAll: [Step] =
    [
      ComonadicStopwatch.cancelTimer.widen(
        transformEnvironment: \ShellEnvironment.stopwatch, transformState: \State.stopwatch)
    ]
    + ComonadicWeather.cancelAll.map {
      $0.widen(transformEnvironment: \ShellEnvironment.weather, transformState: \State.weather)
    }
    + [
      .action(
        ComonadicCounter.apply(.reset).widen(\State.counter)
          .followed(by: ComonadicStopwatch.cleared.widen(\State.stopwatch))
          .followed(by: ComonadicWeather.cleared.widen(\State.weather))),
      .read(counterSave),
    ]

  /// The counter's own save steps, for a count the shell changed on its behalf.
  @Sendable static func counterSave(_ state: State) -> [Step] {
    ComonadicCounter.saveSteps(state.counter).map(onCounter)
  }

  /// A counter's step as the shell's.
  static let onCounter = StateEffect<CounterEnvironment, ComonadicCounter.State>.widening(
    transformEnvironment: \ShellEnvironment.counter, transformState: \State.counter)

  // side-by-side: shell wiring
  public static func render(
    _ state: State, _ handle: @escaping @Sendable (Input) -> Void
  ) -> ShellView {
    let counter = ComonadicCounter.render(state.counter) { handle(.counter($0)) }
    let stopwatch = ComonadicStopwatch.render(state.stopwatch) { handle(.stopwatch($0)) }
    let weather = ComonadicWeather.render(state.weather) { handle(.weather($0)) }
    return ShellView(
      tab: state.tab, counter: counter, stopwatch: stopwatch, weather: weather,
      placeName: state.weather.selected?.name)
  }

  /// A child's view.
  public static func childView(_ tab: ShellTab, _ state: State) -> ShellChildView {
    switch tab {
    case .counter: .counter(ComonadicCounter.render(state.counter) { _ in })
    case .stopwatch: .stopwatch(ComonadicStopwatch.render(state.stopwatch) { _ in })
    case .weather: .weather(ComonadicWeather.render(state.weather) { _ in })
    }
  }

  public typealias Component = StoreComponent<ShellEnvironment, State, Input, ShellView>

  /// A shell component for `environment`; send `.counter(.appear)` to load the counter.
  public static func component(environment: ShellEnvironment) -> Component {
    Component(
      initialState: State(), environment: environment, dispatcher: dispatcher,
      executor: environment.executor, render: render)
  }
  // side-by-side: end
}
