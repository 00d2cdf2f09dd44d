import ArchitectureSpec
import IOLoop

// side-by-side: stopwatch effects
/// A repeating timer as an IO type.
public enum TimerIO: IOType {
  public enum Output: Sendable, Equatable {
    case start(every: Duration)
    case stop
  }
  // side-by-side: stopwatch intents
  public enum Input: Sendable, Equatable { case tick }
  // side-by-side: end
}

// side-by-side: stopwatch state
/// The stopwatch as one pure function; the timer is an output, each tick an input.
public struct IOStopwatch: PureApp, Equatable {
  // side-by-side: stopwatch intents
  public typealias Screen = ScreenIO<StopwatchView, StopwatchIntent>
  public typealias Input = IOInput<Screen, TimerIO>
  // side-by-side: stopwatch effects
  public typealias Outputs = IOOutputs<Screen, TimerIO>

  // side-by-side: stopwatch state
  public var tenths = 0
  public var isRunning = false
  public var laps = Laps()

  public init() {}

  // side-by-side: stopwatch wiring
  public var view: StopwatchView {
    StopwatchView(elapsedTenths: tenths, isRunning: isRunning, laps: laps)
  }

  // side-by-side: stopwatch update+effects
  public static func start() -> (IOStopwatch, Outputs) {
    let app = IOStopwatch()
    return (app, Outputs([app.view], []))
  }

  public func run(input: Input) -> (IOStopwatch, Outputs) {
    var next = self
    var timer: [TimerIO.Output] = []
    switch input.values {
    case (.start?, _):
      guard !isRunning else { return (self, .none) }
      next.isRunning = true
      timer = [.start(every: StopwatchApp.tickInterval)]
    case (.stop?, _):
      guard isRunning else { return (self, .none) }
      next.isRunning = false
      timer = [.stop]
    case (.reset?, _):
      next = IOStopwatch()
      timer = [.stop]
    case (.lap?, _):
      guard isRunning else { return (self, .none) }
      next.laps.append(tenths)
    case (nil, .tick?):
      guard isRunning else { return (self, .none) }
      next.tenths += 1
    case (nil, nil):
      return (self, .none)
    }
    // The view shows all of the state: it changed exactly when the state did.
    return (next, Outputs(next == self ? [] : [next.view], timer))
  }
  // side-by-side: end
}

// side-by-side: stopwatch effects
/// Ticks on a clock at absolute deadlines until stopped.
public struct TimerHandler: IOHandler {
  public typealias IO = TimerIO
  let clock: any Clock<Duration>

  public init(clock: any Clock<Duration>) { self.clock = clock }

  public func handle(_ output: TimerIO.Output, context: IOContext<TimerIO>) {
    switch output {
    case .start(let interval):
      let clock = self.clock
      context.run(id: TimerID.timer, lifetime: .untilCancelled) { send in
        await ticks(every: interval, on: clock) { send(.tick) }
      }
    case .stop:
      context.cancel(id: TimerID.timer)
    }
  }

  enum TimerID { case timer }
}

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
