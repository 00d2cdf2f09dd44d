import Kernel

/// The observers of children a scenario subscribed (R11): every view each one received, per
/// step, and any received after stop.
final class ChildObservers<App: ConformanceApp>: Sendable {
  private struct State {
    var received: [App.Child: [App.ChildView]] = [:]
    var isStopped = false
    var afterStop: [String] = []
  }

  private let state = Lock(State())

  /// The observer for `child`, to hand to the driver.
  func observer(for child: App.Child) -> @Sendable (App.ChildView) -> Void {
    { [weak self] view in self?.receive(view, from: child) }
  }

  private func receive(_ view: App.ChildView, from child: App.Child) {
    state.withLock { state in
      state.received[child, default: []].append(view)
      if state.isStopped { state.afterStop.append("\(child): \(App.traceText(of: view))") }
    }
  }

  /// Removes and returns what every child received since the last call, children in order.
  func drain() -> [(child: App.Child, views: [App.ChildView])] {
    state.withLock { state in
      defer { state.received.removeAll() }
      return state.received.filter { !$0.value.isEmpty }.sorted { $0.key < $1.key }
        .map { (child: $0.key, views: $0.value) }
    }
  }

  /// Marks the runtime stopped; later views are violations of R6 and R11.
  func markStopped() { state.withLock { $0.isStopped = true } }

  /// Views received after stop returned, as `child: view`.
  var viewsAfterStop: [String] { state.withLock { $0.afterStop } }
}
