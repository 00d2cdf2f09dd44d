import ArchitectureSpec
import MUE

/// The shell in Model-Update-Effect style: the very counter, stopwatch and weather of this
/// folder, each update run on its part of the state and each effect handler on its effects,
/// plus the shell's own tab, the lap that counts (H4) and resetAll (H5).
public enum MUEShell {
  // side-by-side: shell state
  public struct State: Equatable, Sendable, SmartCopy {
    public var tab = ShellTab.counter
    public var counter = MUECounter.State()
    public var stopwatch = MUEStopwatch.State()
    public var weather = MUEWeather.State()

    public init() {}
  }

  // side-by-side: shell intents
  public typealias Event = ShellIntent

  // side-by-side: shell effects
  /// The children's effects, each in its own case; their ids too, so two children's ids never
  /// meet.
  public enum Effect: MUE.Effect, Equatable {
    case counter(MUECounter.Effect)
    case stopwatch(MUEStopwatch.Effect)
    case weather(MUEWeather.Effect)

    // side-by-side: shell intents
    public enum Result: Sendable, Equatable {
      case counter(MUECounter.Effect.Result)
      case stopwatch(MUEStopwatch.Effect.Result)
      case weather(MUEWeather.Effect.Result)
    }
    // side-by-side: shell effects

    public enum ID: Hashable, Sendable {
      case stopwatch(MUEStopwatch.Effect.ID)
      case weather(MUEWeather.Effect.ID)
    }

    public var id: ID? {
      switch self {
      case .counter: nil  // the counter's effects have no ids
      case .stopwatch(let effect): effect.id.map(ID.stopwatch)
      case .weather(let effect): effect.id.map(ID.weather)
      }
    }
  }

  // side-by-side: shell update
  public struct Update: MUE.Update {
    let counter = MUECounter.Update()
    let stopwatch = MUEStopwatch.Update()
    let weather = MUEWeather.Update()

    public init() {}

    /// H1: the children start as they would alone (the counter's load).
    public func first(state: State) -> First<State, Effect> {
      counter.first(in: state, at: \.counter, effect: Effect.counter)
    }

    public func handle(event: Event, _ state: State) -> UpdateResult<State, Effect> {
      switch event {
      case .select(let tab):
        guard tab != state.tab else { return .noChange }
        return .newState(state: state.copy { $0.tab = tab })
      case .counter(let event):
        return onCounter(event, state)
      case .stopwatch(let event):
        let lapped = onStopwatch(event, state)
        // H4: a lap the stopwatch accepted also counts, in this same message.
        guard event == .lap,
          lapped.value(from: state).stopwatch.laps.count > state.stopwatch.laps.count
        else { return lapped }
        return lapped.then(from: state) { onCounter(.increment, $0) }
      case .weather(let event):
        return weather.handle(
          event: event, in: state, at: \.weather, effect: Effect.weather, id: Effect.ID.weather)
      case .resetAll:
        // H5: the three resets in one message.
        return onCounter(.reset, state)
          .then(from: state) { onStopwatch(.reset, $0) }
          .then(from: state) {
            weather.reset($0.weather).lifted(
              into: $0, at: \.weather, effect: Effect.weather, id: Effect.ID.weather)
          }
      }
    }

    public func handle(result: Effect.Result, _ state: State) -> UpdateResult<State, Effect> {
      switch result {
      case .counter(let result):
        counter.handle(
          result: result, in: state, at: \.counter, effect: Effect.counter)
      case .stopwatch(let result):
        stopwatch.handle(
          result: result, in: state, at: \.stopwatch, effect: Effect.stopwatch,
          id: Effect.ID.stopwatch)
      case .weather(let result):
        weather.handle(
          result: result, in: state, at: \.weather, effect: Effect.weather, id: Effect.ID.weather)
      }
    }

    private func onCounter(_ event: CounterIntent, _ state: State) -> UpdateResult<State, Effect> {
      counter.handle(event: event, in: state, at: \.counter, effect: Effect.counter)
    }

    private func onStopwatch(_ event: StopwatchIntent, _ state: State) -> UpdateResult<
      State, Effect
    > {
      stopwatch.handle(
        event: event, in: state, at: \.stopwatch, effect: Effect.stopwatch,
        id: Effect.ID.stopwatch)
    }
  }

  // side-by-side: shell effects
  /// Each child's own effect handler on its effects.
  public struct EffectHandler: MUE.EffectHandler {
    let counter: MUECounter.EffectHandler
    let stopwatch: MUEStopwatch.EffectHandler
    let weather: MUEWeather.EffectHandler

    public init(environment: ShellEnvironment) {
      counter = MUECounter.EffectHandler(environment: environment.counter)
      stopwatch = MUEStopwatch.EffectHandler(environment: environment.stopwatch)
      weather = MUEWeather.EffectHandler(environment: environment.weather)
    }

    public func handle(_ effect: Effect) async -> EffectResult<Effect.Result> {
      switch effect {
      case .counter(let effect): await counter.handle(effect).map(Effect.Result.counter)
      case .stopwatch(let effect): await stopwatch.handle(effect).map(Effect.Result.stopwatch)
      case .weather(let effect): await weather.handle(effect).map(Effect.Result.weather)
      }
    }

    public func handleNow(_ effect: Effect) -> Bool {
      switch effect {
      case .counter(let effect): counter.handleNow(effect)
      case .stopwatch(let effect): stopwatch.handleNow(effect)
      case .weather(let effect): weather.handleNow(effect)
      }
    }
  }

  // side-by-side: shell wiring
  public static func view(_ state: State) -> ShellView {
    ShellView(
      tab: state.tab, counter: MUECounter.view(state.counter),
      stopwatch: MUEStopwatch.view(state.stopwatch), weather: MUEWeather.view(state.weather),
      placeName: state.weather.selected?.name)
  }

  /// A child's view.
  public static func childView(_ tab: ShellTab, _ state: State) -> ShellChildView {
    switch tab {
    case .counter: .counter(MUECounter.view(state.counter))
    case .stopwatch: .stopwatch(MUEStopwatch.view(state.stopwatch))
    case .weather: .weather(MUEWeather.view(state.weather))
    }
  }

  /// A shell loop for `environment`; call `start()` to load the counter.
  public static func makeLoop(environment: ShellEnvironment) -> Loop<Update, EffectHandler> {
    Loop(
      update: Update(), effectHandler: EffectHandler(environment: environment), state: State(),
      executor: environment.executor)
  }
  // side-by-side: end
}
