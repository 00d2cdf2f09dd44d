import ArchitectureSpec
import IOLoop

// side-by-side: shell intents
/// The shell's own intents, as an IO type that only brings inputs.
public enum ShellIntentIO: IOType {
  public typealias Input = ShellIntent
}

// side-by-side: shell state
/// The shell as one pure function with three nested programs: the very counter, stopwatch and
/// weather of this folder, each run on its inputs and its outputs handed to its own handlers,
/// plus the shell's tab, the lap that counts (H4) and resetAll (H5).
public struct IOShell: PureApp, Equatable {
  // side-by-side: shell intents
  public typealias Input = IOInput<
    ShellIntentIO, ProgramIO<IOCounter>, ProgramIO<IOStopwatch>, ProgramIO<IOWeather>
  >
  // side-by-side: shell effects
  public typealias Outputs = IOOutputs<
    ShellIntentIO, ProgramIO<IOCounter>, ProgramIO<IOStopwatch>, ProgramIO<IOWeather>
  >

  // side-by-side: shell state
  public var tab = ShellTab.counter
  public var counter: IOCounter
  public var stopwatch: IOStopwatch
  public var weather: IOWeather

  // side-by-side: shell wiring
  public var view: ShellView {
    ShellView(
      tab: tab, counter: counter.view, stopwatch: stopwatch.view, weather: weather.view,
      placeName: weather.selected?.name)
  }

  /// A child's view.
  public func childView(_ tab: ShellTab) -> ShellChildView {
    switch tab {
    case .counter: .counter(counter.view)
    case .stopwatch: .stopwatch(stopwatch.view)
    case .weather: .weather(weather.view)
    }
  }

  // side-by-side: shell update
  /// H1: the children start as they would alone (the counter's load).
  public static func start() -> (IOShell, Outputs) {
    let (counter, counterOutputs) = IOCounter.start()
    let (stopwatch, stopwatchOutputs) = IOStopwatch.start()
    let (weather, weatherOutputs) = IOWeather.start()
    return (
      IOShell(counter: counter, stopwatch: stopwatch, weather: weather),
      Outputs([], counterOutputs.lifted, stopwatchOutputs.lifted, weatherOutputs.lifted)
    )
  }

  public func run(input: Input) -> (IOShell, Outputs) {
    switch input.values {
    case (.select(let tab)?, _, _, _):
      guard tab != self.tab else { return (self, .none) }
      var next = self
      next.tab = tab
      return (next, .none)
    case (.counter(let intent)?, _, _, _):
      let (next, counter) = run(\.counter, IOCounter.Input(intent, nil, nil))
      return (next, Outputs([], counter, [], []))
    case (.stopwatch(let intent)?, _, _, _):
      return runStopwatch(IOStopwatch.Input(intent, nil))
    case (.weather(let intent)?, _, _, _):
      let (next, weather) = run(\.weather, IOWeather.Input(intent, nil, nil, nil))
      return (next, Outputs([], [], [], weather))
    case (.resetAll?, _, _, _):
      // H5: the three resets in one step.
      let (counted, counter) = run(\.counter, IOCounter.Input(.reset, nil, nil))
      var (next, stopwatch) = counted.run(\.stopwatch, IOStopwatch.Input(.reset, nil))
      let (weather, weatherOutputs) = next.weather.reset()
      next.weather = weather
      return (next, Outputs([], counter, stopwatch, weatherOutputs.lifted))
    case (nil, let counterInput?, _, _):
      let (next, counter) = run(\.counter, counterInput)
      return (next, Outputs([], counter, [], []))
    case (nil, nil, let stopwatchInput?, _):
      return runStopwatch(stopwatchInput)
    case (nil, nil, nil, let weatherInput?):
      let (next, weather) = run(\.weather, weatherInput)
      return (next, Outputs([], [], [], weather))
    default:
      return (self, .none)
    }
  }

  /// Runs the stopwatch on `input`; a lap it accepted also counts (H4), in this same step.
  private func runStopwatch(_ input: IOStopwatch.Input) -> (IOShell, Outputs) {
    let (lapped, stopwatch) = run(\.stopwatch, input)
    guard lapped.stopwatch.laps.count > self.stopwatch.laps.count else {
      return (lapped, Outputs([], [], stopwatch, []))
    }
    let (next, counter) = lapped.run(\.counter, IOCounter.Input(.increment, nil, nil))
    return (next, Outputs([], counter, stopwatch, []))
  }
  // side-by-side: end
}
