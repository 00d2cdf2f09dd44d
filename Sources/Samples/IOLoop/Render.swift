import ArchitectureSpec
import IOLoop

/// The screen as an IO type: the app outputs views to show, the user's intents come back.
public enum ScreenIO<View: Sendable, Intent: Sendable>: IOType {
  public typealias Output = View
  public typealias Input = Intent
}

/// Shows views by handing them to whoever watches the screen (the terminal, the kit).
public struct ScreenHandler<View: Sendable, Intent: Sendable>: IOHandler {
  public typealias IO = ScreenIO<View, Intent>
  let screen: Screen<View>

  public init(_ screen: Screen<View>) { self.screen = screen }

  public func handle(_ view: View, context: IOContext<IO>) { screen.show(view) }
}

/// Where views go: set once whoever shows them is ready.
public final class Screen<View: Sendable>: Sendable {
  // A box, not the closure itself: a closure read out of a `Lock` through `withLock { $0 }`
  // came back wrapped in one more reabstraction thunk each time (36,000 ticks made a stack
  // 23,000 thunks deep).
  private let viewer = Lock<Viewer<View>?>(nil)

  public init() {}

  /// Sends every view from now on to `show`.
  public func attach(_ show: @escaping @Sendable (View) -> Void) {
    let viewer = Viewer(show)
    self.viewer.withLock { $0 = viewer }
  }

  func show(_ view: View) { viewer.withLock { $0 }?.show(view) }
}

final class Viewer<View: Sendable>: Sendable {
  let show: @Sendable (View) -> Void
  init(_ show: @escaping @Sendable (View) -> Void) { self.show = show }
}
