import ArchitectureSpec
import IOLoop

/// The screen as an IO type: the app outputs views to show, the user's intents come back.
public enum ScreenIO<View: Sendable, Intent: Sendable>: IOType {
  public typealias Output = View
  public typealias Input = Intent
}

/// Shows views by handing them to whoever watches the screen (the terminal, the kit). It only
/// takes outputs: the intents come from outside, through `Main.send(_:from:)`.
public struct ScreenHandler<View: Equatable & Sendable, Intent: Sendable>: IOOutputHandler {
  public typealias IO = ScreenIO<View, Intent>
  let screen: Screen<View>

  public init(_ screen: Screen<View>) { self.screen = screen }

  public func handle(_ view: View) { screen.show(view) }
}

/// Where views go: set once whoever shows them is ready. A view equal to the one shown last is
/// not shown again, so an app may output its view after every step that changed its state.
public final class Screen<View: Equatable & Sendable>: Sendable {
  // `show` is called from the handler's generic code; the work is done by a function made in
  // `init`, where the view type is known, so comparing and keeping views runs as code compiled
  // for that type.
  private let present: @Sendable (View) -> Void
  private let connect: @Sendable (Viewer<View>) -> Void
  private let read: @Sendable (() -> View) -> View

  public init() {
    let state = Lock(Shown<View>())
    present = { view in
      let viewer = state.withLock { shown -> Viewer<View>? in
        guard let viewer = shown.viewer, shown.last != view else { return nil }
        shown.last = view
        return viewer
      }
      viewer?.show(view)
    }
    connect = { viewer in
      state.withLock { $0 = Shown(viewer: viewer) }
    }
    read = { fallback in state.withLock { $0.last } ?? fallback() }
  }

  /// The view shown last; `fallback()` while none was shown.
  public func current(or fallback: () -> View) -> View { read(fallback) }

  /// Sends every view from now on to `show`.
  public func attach(_ show: @escaping @Sendable (View) -> Void) { connect(Viewer(show)) }

  func show(_ view: View) { present(view) }
}

/// The screen's viewer and the view it was shown last.
struct Shown<View: Sendable>: Sendable {
  // A box, not the closure itself: a closure read out of a `Lock` through `withLock { $0 }`
  // came back wrapped in one more reabstraction thunk each time (36,000 ticks made a stack
  // 23,000 thunks deep).
  var viewer: Viewer<View>?
  var last: View?
}

final class Viewer<View: Sendable>: Sendable {
  let show: @Sendable (View) -> Void
  init(_ show: @escaping @Sendable (View) -> Void) { self.show = show }
}
