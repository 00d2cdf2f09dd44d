import Kernel

/// The observer the kit passes to a driver: it keeps the distinct views of the current step,
/// counts notifications, notices calls after stop, and can send intents re-entrantly (R2).
final class ViewObserver<App: ConformanceApp>: Sendable {
  private struct Reaction {
    var send: @Sendable (App.Intent) -> Void
    var intent: App.Intent
    var remaining: Int
  }

  private struct State {
    var views: [App.View] = []
    var last: App.View?
    var notifications = 0
    var isStopped = false
    var afterStop: [App.View] = []
    var reaction: Reaction?
  }

  private let state = Lock(State())

  /// Called by the runtime.
  func receive(_ view: App.View) {
    // Send first, then record: a runtime that nests the re-entrant message records the nested
    // view before this one, and the trace shows it.
    let reaction = state.withLock { state -> (@Sendable (App.Intent) -> Void, App.Intent)? in
      guard var reaction = state.reaction, reaction.remaining > 0 else { return nil }
      reaction.remaining -= 1
      state.reaction = reaction
      return (reaction.send, reaction.intent)
    }
    if let (send, intent) = reaction { send(intent) }
    state.withLock { state in
      state.notifications += 1
      if state.isStopped { state.afterStop.append(view) }
      if view != state.last {
        state.views.append(view)
        state.last = view
      }
    }
  }

  /// From now on, each notification sends `intent` through `send`, `times` times in all.
  func react(
    sending intent: App.Intent, times: Int, through send: @escaping @Sendable (App.Intent) -> Void
  ) {
    state.withLock { $0.reaction = Reaction(send: send, intent: intent, remaining: times) }
  }

  /// Stops reacting and drops the reference to the driver.
  func stopReacting() { state.withLock { $0.reaction = nil } }

  /// Removes and returns the distinct views recorded since the last call.
  func drainViews() -> [App.View] {
    state.withLock { state in
      defer { state.views.removeAll(keepingCapacity: true) }
      return state.views
    }
  }

  var lastView: App.View? { state.withLock { $0.last } }
  var notifications: Int { state.withLock { $0.notifications } }

  /// Marks the runtime stopped; later notifications are violations of R6.
  func markStopped() { state.withLock { $0.isStopped = true } }

  /// Views delivered after stop returned.
  var viewsAfterStop: [App.View] { state.withLock { $0.afterStop } }
}
