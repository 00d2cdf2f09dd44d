import ArchitectureApps
import Kernel

/// The views of the children a screen shows, each observed once through the runtime's scope
/// (R11): a list screen costs the rows it shows, not the rows the list has.
final class ChildViews<App: ConsoleApp>: Sendable {
  private struct State {
    var views: [App.Child: App.ChildView] = [:]
    var observed: Set<App.Child> = []
    var onChange: (@Sendable () -> Void)?
  }

  private let state = Lock(State())

  /// The latest view of every observed child.
  var current: [App.Child: App.ChildView] { state.withLock { $0.views } }

  /// Called after every child view that arrives.
  func onChange(_ action: (@Sendable () -> Void)?) { state.withLock { $0.onChange = action } }

  /// The children of `children` not observed yet; they count as observed from now on.
  func claim(_ children: [App.Child]) -> [App.Child] {
    state.withLock { state in children.filter { state.observed.insert($0).inserted } }
  }

  /// Observes the children `view` shows that are not observed yet.
  func observeShown(
    _ view: App.View, input: App.Input, driver: any AppDriver<App>
  ) async {
    for child in claim(App.shownChildren(view, input: input)) {
      await driver.observe(child) { [weak self] childView in self?.receive(childView, for: child) }
    }
  }

  private func receive(_ view: App.ChildView, for child: App.Child) {
    let action = state.withLock { state in
      state.views[child] = view
      return state.onChange
    }
    action?()
  }
}
