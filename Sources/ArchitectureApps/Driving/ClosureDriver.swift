/// A driver made of four functions: the shape of every single-feature app's driver. Made where
/// the runtime's types are known (an architecture's sample extends it with an initializer for
/// its runtime), its functions run specialized although the kit calls the driver as
/// `any AppDriver`: a runtime reached through a generic driver would run as generic code.
///
/// ```swift
/// extension ClosureDriver {
///   init(store: Store<State, Action>, render: @escaping @Sendable (State) -> App.View) {
///     self.init(
///       start: { observer in store.subscribe(render, observer) },
///       send: { store.dispatch(.intent($0)) }, view: { render(store.state) },
///       stop: { store.stop() })
///   }
/// }
/// ```
public struct ClosureDriver<App: SpecApp>: AppDriver
where App.Child == NoChild, App.ChildIntent == NoChild {
  private let begin: @Sendable (@escaping @Sendable (App.View) -> Void) -> Void
  private let sendIntent: @Sendable (App.Intent) -> Void
  private let currentView: @Sendable () -> App.View
  private let end: @Sendable () -> Void

  /// A driver that starts with `start` (given the kit's observer of changed views), sends
  /// intents with `send`, reads the view with `view` and stops with `stop`. Its `idle()`
  /// returns at once: the samples run all work on the environment's executor, which the kit
  /// watches.
  public init(
    start: @escaping @Sendable (_ observer: @escaping @Sendable (App.View) -> Void) -> Void,
    send: @escaping @Sendable (App.Intent) -> Void,
    view: @escaping @Sendable () -> App.View,
    stop: @escaping @Sendable () -> Void
  ) {
    begin = start
    sendIntent = send
    currentView = view
    end = stop
  }

  public func start(observer: @escaping @Sendable (App.View) -> Void) async { begin(observer) }
  public func send(_ intent: App.Intent) { sendIntent(intent) }
  public var view: App.View { get async { currentView() } }
  public func idle() async {}
  public func stop() async { end() }
}
