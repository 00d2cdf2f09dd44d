import ArchitectureSpec
import MUE
import Workloads

/// Connects a MUE loop to the conformance kit: observed by view first, then started.
struct MUEDriver<App: SpecApp, U: Update, H: EffectHandler>: AppDriver
where H.Effect == U.Effect, U.Event == App.Intent, App.Child == NoChild, App.ChildIntent == NoChild
{
  let loop: Loop<U, H>
  let render: @Sendable (U.State) -> App.View

  func start(observer: @escaping @Sendable (App.View) -> Void) async {
    loop.observe(render, observer)
    loop.start()
  }
  func send(_ intent: App.Intent) { loop.send(intent) }
  var view: App.View { get async { render(loop.state) } }
  func idle() async {}  // every effect runs on environment.executor, which the kit watches
  func stop() async { loop.stop() }
}

// side-by-side: counter wiring
extension Implementation where App == CounterApp {
  /// The counter on MUE.
  public static var mue: Implementation {
    Implementation(architecture: "mue") { environment in
      MUEDriver<CounterApp, MUECounter.Update, MUECounter.EffectHandler>(
        loop: MUECounter.makeLoop(environment: environment), render: MUECounter.view)
    }
  }
}
// side-by-side: end

// side-by-side: stopwatch wiring
extension Implementation where App == StopwatchApp {
  /// The stopwatch on MUE.
  public static var mue: Implementation {
    Implementation(architecture: "mue") { environment in
      MUEDriver<StopwatchApp, MUEStopwatch.Update, MUEStopwatch.EffectHandler>(
        loop: MUEStopwatch.makeLoop(environment: environment), render: MUEStopwatch.view)
    }
  }
}
// side-by-side: end

// side-by-side: weather wiring
extension Implementation where App == WeatherApp {
  /// The weather app on MUE.
  public static var mue: Implementation {
    Implementation(architecture: "mue") { environment in
      MUEDriver<WeatherApp, MUEWeather.Update, MUEWeather.EffectHandler>(
        loop: MUEWeather.makeLoop(environment: environment), render: MUEWeather.view)
    }
  }
}
// side-by-side: end

/// The benchmark counter as a MUE update: ``tally(_:_:)`` on a copy, no effects.
public struct TallyUpdate: Update {
  public typealias Effect = NoEffect

  public init() {}

  @inlinable
  public func handle(event: TallyAction, _ state: TallyState) -> UpdateResult<TallyState, NoEffect>
  {
    var next = state
    tally(&next, event)
    return .newState(state: next)
  }

  public func handle(result: Never, _ state: TallyState) -> UpdateResult<TallyState, NoEffect> {}
}

/// The benchmark counter on a MUE loop; observers observe the loop.
public final class MUETally: TallySubject {
  let loop: Loop<TallyUpdate, HandleEffects<NoEffect>>

  public init(_ setup: TallySetup) {
    loop = Loop(update: TallyUpdate(), state: setup.state)
    for _ in 0..<(setup.observers + setup.fanout) { loop.observe(setup.notify) }
    loop.start()
  }

  public func send(_ action: TallyAction, times: Int) {
    for _ in 0..<times { loop.send(action) }
  }

  public var state: TallyState { loop.state }

  public func stop() { loop.stop() }
}
