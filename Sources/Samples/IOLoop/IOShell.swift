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

  /// Written in place: the program keeps the shell's state and each step changes the child it
  /// is for where it is, without copying the other two.
  public mutating func run(inPlace input: Input) -> Outputs {
    switch input.values {
    case (.select(let tab)?, _, _, _):
      self.tab = tab
      return .none
    case (.counter(let intent)?, _, _, _):
      return Outputs(
        [], run(\.counter, inPlace: IOCounter.Input(IOCounter.Screen.self, intent)), [], [])
    case (.stopwatch(let intent)?, _, _, _):
      return runStopwatch(IOStopwatch.Input(IOStopwatch.Screen.self, intent))
    case (.weather(let intent)?, _, _, _):
      return Outputs(
        [], [], [], run(\.weather, inPlace: IOWeather.Input(IOWeather.Screen.self, intent)))
    case (.resetAll?, _, _, _):
      // H5: the three resets in one step.
      let counter = run(\.counter, inPlace: IOCounter.Input(IOCounter.Screen.self, .reset))
      let stopwatch = run(\.stopwatch, inPlace: IOStopwatch.Input(IOStopwatch.Screen.self, .reset))
      let (weather, weatherOutputs) = self.weather.reset()
      self.weather = weather
      return Outputs([], counter, stopwatch, weatherOutputs.lifted)
    case (nil, let counterInput?, _, _):
      return Outputs([], run(\.counter, inPlace: counterInput), [], [])
    case (nil, nil, let stopwatchInput?, _):
      return runStopwatch(stopwatchInput)
    case (nil, nil, nil, let weatherInput?):
      return Outputs([], [], [], run(\.weather, inPlace: weatherInput))
    default:
      return .none
    }
  }

  /// Runs the stopwatch on `input`; a lap it accepted also counts (H4), in this same step.
  private mutating func runStopwatch(_ input: IOStopwatch.Input) -> Outputs {
    let laps = stopwatch.laps.count
    let stopwatch = run(\.stopwatch, inPlace: input)
    guard self.stopwatch.laps.count > laps else { return Outputs([], [], stopwatch, []) }
    let counter = run(\.counter, inPlace: IOCounter.Input(IOCounter.Screen.self, .increment))
    return Outputs([], counter, stopwatch, [])
  }
  // side-by-side: end
}
