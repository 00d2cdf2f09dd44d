/// One step of a scenario: an action on the runtime or the environment, or an expectation.
///
/// The cases are the same for every app; what a step does to an app's own fakes is
/// ``fake(_:)``, with the app's ``ConformanceApp/FakeAction``. Each app adds readable spellings
/// (`.completeLoad(…)`, `.answerSearch(…)`) in its folder of the kit.
public enum Step<App: ConformanceApp>: Sendable, CustomStringConvertible {
  /// Sends an intent.
  case send(App.Intent)
  /// Sends `intent` from `senders` threads at once, `each` times per thread (R3).
  case sendConcurrently(App.Intent, senders: Int, each: Int)
  /// Sends `intent`; then, from inside the observer, sends `then` on each of the next
  /// `times` notifications, so every message is produced while another is processed (R2).
  case sendFromObserver(App.Intent, then: App.Intent, times: Int)
  /// Sends an intent through a child's scope (R11).
  case sendToChild(App.Child, App.ChildIntent)
  /// Takes a scope of `child` now (``AppDriver/scope(_:)``) and keeps it under `name`: a scope
  /// of the presented add form stays that presentation's, also after it was dismissed (R13).
  case keepScope(String, App.Child)
  /// Sends an intent through the scope kept under `name`.
  case sendThroughKeptScope(String, App.ChildIntent)
  /// Advances the virtual clock, processing everything due by the new time.
  case advance(Duration)
  /// Advances the virtual clock by `duration`, sending `intent` once the clock reaches
  /// `at` (after everything due by then was processed, before anything due later).
  case advanceSending(Duration, App.Intent, at: Duration)
  /// Acts on the app's fakes: completes a load, answers a search, fails the next save.
  case fake(App.FakeAction)
  /// Starts observing a child (R11): its observer receives the child's current view at once.
  case observe(App.Child)
  /// Stops the runtime.
  case stop
  /// Drops every reference to the runtime without stopping it.
  case release
  /// Expects the view to equal this.
  case expectView(App.View)
  /// Expects exactly these environment calls since the previous `expectCalls` (or the start).
  case expectCalls([EnvironmentCall])
  /// Expects these environment calls since the previous `expectCalls`, in any order.
  case expectCallsInAnyOrder([EnvironmentCall])
  /// Expects this many tasks sleeping on the clock (a running timer is one).
  case expectSleepers(Int)
  /// Expects the previous action to have produced exactly these distinct views.
  case expectStepViews([App.View])
  /// Expects the root observer to have been called this many times by the previous action.
  case expectNotifications(Int)
  /// Expects the observer of `child` to have received exactly these views in the previous action.
  case expectChildViews(App.Child, [App.ChildView])

  /// Whether the step acts, rather than checks; actions appear in the trace.
  public var isAction: Bool {
    switch self {
    case .expectView, .expectCalls, .expectCallsInAnyOrder, .expectSleepers, .expectStepViews,
      .expectNotifications, .expectChildViews:
      false
    default: true
    }
  }

  public var description: String {
    switch self {
    case .send(let intent): "send \(intent)"
    case .sendConcurrently(let intent, let senders, let each):
      "send \(intent) from \(senders) threads × \(each)"
    case .sendFromObserver(let intent, let then, let times):
      "send \(intent), then \(then) from the observer × \(times)"
    case .sendToChild(let child, let intent): "send \(intent) to \(child)"
    case .keepScope(let name, let child): "keep the scope of \(child) as \(name)"
    case .sendThroughKeptScope(let name, let intent): "send \(intent) through \(name)"
    case .advance(let duration): "advance \(milliseconds(duration)) ms"
    case .advanceSending(let duration, let intent, let at):
      "advance \(milliseconds(duration)) ms, sending \(intent) at \(milliseconds(at)) ms"
    case .fake(let action): action.description
    case .observe(let child): "observe \(child)"
    case .stop: "stop"
    case .release: "release"
    case .expectView(let view): "expect view \(view)"
    case .expectCalls(let calls):
      "expect calls [\(calls.map(\.description).joined(separator: ", "))]"
    case .expectCallsInAnyOrder(let calls):
      "expect calls in any order [\(calls.map(\.description).joined(separator: ", "))]"
    case .expectSleepers(let count): "expect \(count) sleeper\(count == 1 ? "" : "s")"
    case .expectStepViews(let views):
      "expect step views [\(views.map(\.description).joined(separator: ", "))]"
    case .expectNotifications(let count): "expect \(count) notification\(count == 1 ? "" : "s")"
    case .expectChildViews(let child, let views):
      "expect \(child) views [\(views.map(App.traceText(of:)).joined(separator: ", "))]"
    }
  }
}

func milliseconds(_ duration: Duration) -> Int64 {
  duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
}
