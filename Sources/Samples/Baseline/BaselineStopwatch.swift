import ArchitectureSpec
import Kernel

// side-by-side: stopwatch wiring
/// The stopwatch in plain Swift: a value model, a serial message loop, and one timer task on
/// absolute deadlines.
public final class BaselineStopwatch: Sendable {
  // side-by-side: stopwatch state
  struct Model: LoopModel {
    // side-by-side: stopwatch intents
    enum Message {
      case intent(StopwatchIntent)
      case tick(timer: Int)
    }

    // side-by-side: stopwatch effects
    enum Effect {
      case startTimer(id: Int)
      case cancelTimer
    }

    // side-by-side: stopwatch state
    var tenths = 0
    var isRunning = false
    var laps = Laps()
    /// The id of the running timer; a tick from any other timer is stale.
    var timer = 0
    let defects: BaselineDefects

    // side-by-side: stopwatch update+effects
    mutating func handle(_ message: Message) -> Effect? {
      switch message {
      case .intent(.start):
        // Mutation point (tests only): a second timer on a second start.
        guard !isRunning else {
          return defects.contains(.startsSecondTimer) ? .startTimer(id: timer) : nil
        }
        isRunning = true
        timer += 1
        return .startTimer(id: timer)
      case .intent(.stop):
        guard isRunning else { return nil }
        isRunning = false
        timer += 1
        return defects.contains(.appliesTicksAfterStop) ? nil : .cancelTimer
      case .intent(.reset):
        let wasRunning = isRunning
        tenths = 0
        laps = Laps()
        isRunning = false
        timer += 1
        return wasRunning ? .cancelTimer : nil
      case .intent(.lap):
        if isRunning { laps.append(tenths) }
        return nil
      case .tick(let id):
        // Mutation point (tests only): ticks applied whatever timer sent them.
        guard defects.contains(.appliesTicksAfterStop) || (id == timer && isRunning) else {
          return nil
        }
        tenths += 1
        return nil
      }
    }

    // side-by-side: stopwatch wiring
    var view: StopwatchView {
      StopwatchView(elapsedTenths: tenths, isRunning: isRunning, laps: laps)
    }
    // side-by-side: end
  }

  // side-by-side: stopwatch wiring
  private let loop: MessageLoop<Model>
  private let effects: StopwatchEffects
  private let defects: BaselineDefects

  /// Creates a stopwatch that does nothing until started.
  public convenience init(environment: StopwatchEnvironment) {
    self.init(environment: environment, defects: [])
  }

  package init(environment: StopwatchEnvironment, defects: BaselineDefects) {
    self.defects = defects
    loop = MessageLoop(
      Model(defects: defects), defects: defects, executor: environment.executor)
    effects = StopwatchEffects(environment: environment, defects: defects)
    // Results reach the loop, not this object: an effect never keeps the app alive, so
    // releasing it stops it even while a result is being handled (R6).
    loop.performEffects(with: effects.perform)
    effects.connect { [weak loop, weak effects] message in
      guard let loop, let effects else { return }
      loop.send(message, isIntent: false, perform: effects.perform)
    }
  }

  /// Released, it behaves as stopped: the timer is cancelled.
  deinit { stop() }

  /// The current view.
  public var view: StopwatchView { loop.view }

  /// Starts: shows `0:00.0`.
  public func start(observer: @escaping @Sendable (StopwatchView) -> Void) {
    guard loop.start(observer: observer) else { return }
    loop.drain(perform: effects.perform)
  }

  /// Sends an intent; safe from any thread.
  public func send(_ intent: StopwatchIntent) {
    loop.send(.intent(intent), isIntent: true, perform: effects.perform)
  }

  /// Stops: the timer is cancelled and later intents and ticks are ignored.
  public func stop() {
    loop.stop()
    if !defects.contains(.appliesResultsAfterStop) { effects.stop() }
  }

  // side-by-side: end
}

// side-by-side: stopwatch effects
/// The stopwatch's one effect: a timer task on absolute deadlines, replaced on restart. The
/// shell runs its stopwatch child with this too.
final class StopwatchEffects: Sendable {
  private let environment: StopwatchEnvironment
  private let defects: BaselineDefects
  private let timers = TaskSlots<Int>()
  private let relay = Relay<BaselineStopwatch.Model.Message>()

  init(environment: StopwatchEnvironment, defects: BaselineDefects) {
    self.environment = environment
    self.defects = defects
  }

  /// Where ticks go; the closure must not hold its owner strongly.
  func connect(_ deliver: @escaping @Sendable (BaselineStopwatch.Model.Message) -> Void) {
    relay.connect(deliver)
  }

  func perform(_ effect: BaselineStopwatch.Model.Effect) {
    switch effect {
    case .startTimer(let id):
      let clock = environment.clock
      let task = startEffectTask(on: environment.executor) { [weak relay] in
        await tick(every: StopwatchApp.tickInterval, on: clock) {
          guard let relay else { return false }
          relay.send(.tick(timer: id))
          return true
        }
      }
      timers.replace(0, with: task, keepingOthers: defects.contains(.startsSecondTimer))
    case .cancelTimer:
      timers.cancel(0)
    }
  }

  func stop() { timers.cancelAll() }
}

/// Calls `onTick` at start + k × `interval` for k = 1, 2, … until it returns `false` or the
/// task is cancelled. Deadlines are absolute, so a slow tick never delays the next.
func tick<C: Clock<Duration>>(every interval: Duration, on clock: C, _ onTick: () -> Bool) async {
  var deadline = clock.now
  repeat {
    deadline = deadline.advanced(by: interval)
    do { try await clock.sleep(until: deadline, tolerance: nil) } catch { return }
  } while onTick()
}
// side-by-side: end
