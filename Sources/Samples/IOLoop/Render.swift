import ArchitectureSpec
import IOLoop
import Synchronization

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
  private let viewer = Mutex<(@Sendable (View) -> Void)?>(nil)

  public init() {}

  /// Sends every view from now on to `show`.
  public func attach(_ show: @escaping @Sendable (View) -> Void) { viewer.withLock { $0 = show } }

  func show(_ view: View) { viewer.withLock { $0 }?(view) }
}
