import ArchitectureApps
import Foundation
import Kernel
import Synchronization

extension ConsoleSession {
  /// Runs the app in the terminal until the user quits (Escape, Ctrl-C or the app's quit key),
  /// redrawing one screen in place; the terminal is restored on every way out.
  ///
  /// - Parameter title: The line above the screen, such as `counter · elm-store`.
  /// - Throws: ``TerminalError`` when standard input or output is not a terminal.
  public func runInteractive(title: String) async throws(TerminalError) {
    let terminal = try RawTerminal()
    defer { terminal.restore() }
    let children = ChildViews<App>()
    let screen = LiveScreen<App>(
      terminal: terminal, title: title, notices: notices, children: children)
    notices.onChange { screen.draw() }
    defer { notices.onChange(nil) }
    children.onChange { screen.draw() }
    defer { children.onChange(nil) }

    let driver = implementation.makeDriver(environment)
    // Rows come into view as the list changes or the highlight moves: observe each once.
    let shown = AsyncStream.makeStream(of: App.View.self, bufferingPolicy: .bufferingNewest(1))
    let observing = Task {
      for await view in shown.stream {
        await children.observeShown(view, input: screen.input, driver: driver)
      }
    }
    defer { observing.cancel() }
    await driver.start { view in
      screen.show(view)
      shown.continuation.yield(view)
    }
    let keys = KeyReader(terminal: terminal)
    reading: for await key in keys.stream {
      if key == .interrupt || (key == .escape && App.escapeQuits) { break }
      guard let view = screen.view else { continue }
      let action = screen.handle(key, view: view)
      shown.continuation.yield(view)
      switch action {
      case .send(let intent): driver.send(intent)
      case .none: break
      case .quit: break reading
      }
    }
    keys.stop()
    // Saves already requested end before the runtime stops (SPEC L5), within a limit: a stuck
    // file system must not keep the terminal from being given back.
    await Self.settle(driver, on: executor, within: .seconds(10))
    await driver.stop()
    screen.finish()
    await executor.settle(driver)
  }

  /// Waits until the runtime has nothing left to do on `executor`, or `limit` has passed.
  static func settle(
    _ driver: any AppDriver<App>, on executor: SettlingExecutor, within limit: Duration
  ) async {
    await withTaskGroup(of: Void.self) { group in
      group.addTask { await executor.settle(driver) }
      group.addTask { try? await Task.sleep(for: limit) }
      await group.next()
      group.cancelAll()
    }
  }
}

/// The screen on the terminal: the latest view and input, redrawn in place.
private final class LiveScreen<App: ConsoleApp>: Sendable {
  private struct State {
    var view: App.View?
    var input = App.initialInput
    var drawnLines = 0
    var isFinished = false
    /// Something changed since the last frame was drawn.
    var needsDraw = false
    /// A task is drawing frames until nothing more changed.
    var isDrawing = false
  }

  private let terminal: RawTerminal
  private let title: String
  private let notices: Notices
  private let children: ChildViews<App>
  private let state = Lock(State())

  init(terminal: RawTerminal, title: String, notices: Notices, children: ChildViews<App>) {
    self.terminal = terminal
    self.title = title
    self.notices = notices
    self.children = children
  }

  var view: App.View? { state.withLock { $0.view } }
  var input: App.Input { state.withLock { $0.input } }

  func show(_ view: App.View) {
    state.withLock { $0.view = view }
    draw()
  }

  func handle(_ key: Key, view: App.View) -> KeyAction<App.Intent> {
    let shown = children.current
    let action = state.withLock {
      App.action(for: key, view: view, children: shown, input: &$0.input)
    }
    draw()
    return action
  }

  /// Draws what changed last, then stops drawing and leaves the cursor under the last screen.
  func finish() {
    state.withLock { state in
      if state.needsDraw { drawFrame(&state) }
      state.isFinished = true
      terminal.output("\n")
    }
  }

  /// Asks for the screen to be drawn again, and returns at once. Frames are drawn by one task
  /// at a time, each from the latest view and input: keys that arrive faster than frames are
  /// drawn (a paste, a burst of typing) cost one frame together, not one each (SPEC L3).
  func draw() {
    let mustStart = state.withLock { state -> Bool in
      state.needsDraw = true
      guard !state.isDrawing, !state.isFinished else { return false }
      state.isDrawing = true
      return true
    }
    guard mustStart else { return }
    Task { self.drawUntilCurrent() }
  }

  /// Draws frames until no change is left undrawn.
  private func drawUntilCurrent() {
    while true {
      let isCurrent = state.withLock { state -> Bool in
        guard state.needsDraw, !state.isFinished else {
          state.isDrawing = false
          return true
        }
        drawFrame(&state)
        return false
      }
      if isCurrent { return }
    }
  }

  /// Redraws the whole screen over the previous one. Writes under the lock, so two threads
  /// never interleave their frames.
  private func drawFrame(_ state: inout State) {
    state.needsDraw = false
    guard !state.isFinished, let view = state.view else { return }
    let width = max(10, terminal.columns - 1)
    let height = max(3, terminal.rows - 1)
    // Long lines (a notice with a URL) wrap onto the next lines rather than being cut; what
    // would not fit on screen is neither made safe, wrapped nor written (SPEC L3), so a key
    // costs what is visible, however long a line.
    let screen = App.screen(view, children: children.current, input: state.input)
    var lines: [String] = []
    for line in [title, ""] + screen + notices.lines {
      let room = height - lines.count
      guard room > 0 else { break }
      // Views hold outside text as received; the screen shows it safely (SPEC L1).
      let visible = ScreenText.safe(line.prefix(room * width))
      lines += wrapped(visible, width: width, limit: room)
    }
    var frame = "\r"
    if state.drawnLines > 1 { frame += "\u{1B}[\(state.drawnLines - 1)A" }
    frame += "\u{1B}[J" + lines.joined(separator: "\r\n")
    terminal.output(frame)
    state.drawnLines = lines.count
  }
}

/// `line` in pieces of at most `width` characters, broken after the last space of a piece
/// where there is one; at most `limit` pieces (the rest is not looked at).
///
/// - Complexity: O(n): one pass over the characters (each piece is counted once, not the
///   rest of the line for every piece).
func wrapped(_ line: String, width: Int, limit: Int = .max) -> [String] {
  precondition(width > 0 && limit > 0)
  var pieces: [String] = []
  var start = line.startIndex
  var index = start
  var count = 0
  // The index just after the last space of the current piece, and how many characters lie
  // from the piece's start up to it.
  var afterSpace: (index: String.Index, count: Int)?
  while index != line.endIndex {
    if count == width {
      // The piece is full and more follows: cut after its last space, or at the width.
      let cut = afterSpace ?? (index, count)
      pieces.append(String(line[start..<cut.index]))
      if pieces.count == limit { return pieces }
      start = cut.index
      count -= cut.count
      afterSpace = nil
      continue
    }
    let character = line[index]
    index = line.index(after: index)
    count += 1
    if character == " " { afterSpace = (index, count) }
  }
  pieces.append(String(line[start...]))
  return pieces
}

/// Reads keys on a thread of its own (never blocking the concurrency pool) into a stream.
private final class KeyReader: Sendable {
  let stream: AsyncStream<Key>
  private let isStopped = Atomic(false)

  init(terminal: RawTerminal) {
    let (stream, continuation) = AsyncStream.makeStream(of: Key.self)
    self.stream = stream
    let thread = Thread { [self] in
      var decoder = KeyDecoder()
      while !isStopped.load(ordering: .relaxed) {
        // An escape byte may start an arrow key whose rest is still on its way; it is the
        // Escape key only if nothing follows within 40 ms.
        let wait: Int32 = decoder.isHoldingEscape ? 40 : 100
        guard let bytes = terminal.input(waitingUpTo: wait) else { break }
        let keys = bytes.isEmpty ? decoder.flush() : decoder.keys(from: bytes)
        for key in keys { continuation.yield(key) }
      }
      continuation.finish()
    }
    thread.name = "arch.KeyReader"
    thread.start()
  }

  func stop() {
    isStopped.store(true, ordering: .relaxed)
  }
}
