import ArchitectureApps
import Kernel

/// Runs one app of one architecture on a terminal screen: from a ``Script`` (printing each
/// distinct screen) or interactively (see ``ConsoleSession/runInteractive(title:)``).
///
/// The runtime gets an environment built around a ``SettlingExecutor``, a serial executor that
/// knows when every task on it is suspended or done; after each step the session waits for that
/// (and the driver's `idle()`) before it looks at the screen. Work suspended on the real clock
/// or the network is not waited for: a script waits for it with `{duration}`.
///
/// A session runs once: call ``run(_:)`` or ``runInteractive(title:)``, not both.
public struct ConsoleSession<App: ConsoleApp>: Sendable {
  /// One screen a script produced.
  public struct Screen: Sendable, Hashable {
    /// The steps since the previous printed screen: `start`, `+`, `{1s}`.
    public var label: String
    public var lines: [String]
  }

  /// How much later than its place on the script's timeline a wait ends, so that a screen taken
  /// after a wait lands between two of the stopwatch's 100 ms ticks, never on one.
  public static var waitMargin: Duration { .milliseconds(50) }

  let implementation: Implementation<App>
  let executor: SettlingExecutor
  let environment: App.Environment
  let notices: Notices
  let wait: Wait?

  /// How a script's `{duration}` passes: given the duration and a function that settles the
  /// runtime. `nil` sleeps on the real clock.
  public typealias Wait =
    @Sendable (_ duration: Duration, _ settle: @Sendable () async -> Void)
    async -> Void

  /// Creates a session.
  ///
  /// - Parameters:
  ///   - implementation: The architecture's implementation of the app.
  ///   - notices: Where the environment's log and problem reports go; shown under the screen.
  ///   - wait: How a script's waits pass (default: on the real clock).
  ///   - makeEnvironment: Builds the environment around the session's executor.
  public init(
    implementation: Implementation<App>, notices: Notices = Notices(), wait: Wait? = nil,
    makeEnvironment: (SettlingExecutor) -> App.Environment
  ) {
    self.implementation = implementation
    self.notices = notices
    self.wait = wait
    executor = SettlingExecutor.acquire()
    environment = makeEnvironment(executor)
  }

  /// Runs `script` and returns every screen that differs from the one before, starting with the
  /// screen after start. Escape, Ctrl-C or the app's quit key end the script early.
  public func run(_ script: Script) async -> [Screen] {
    let driver = implementation.makeDriver(environment)
    let latest = Lock<App.View?>(nil)
    await driver.start { view in latest.withLock { $0 = view } }
    await executor.settle(driver)
    // Waits are on a timeline: `{1s}` ends 1 s after the previous wait ended, or after the
    // last intent that started a timer, however long the keys in between took. A screen is
    // taken `waitMargin` after that point, and margins never add up.
    var timeline = ContinuousClock.now
    var input = App.initialInput

    // What the observer saw last: what the interactive screen would show.
    func currentView() async -> App.View {
      if let seen = latest.withLock({ $0 }) { return seen }
      return await driver.view
    }

    let children = ChildViews<App>()
    func lines() async -> [String] {
      let view = await currentView()
      await children.observeShown(view, input: input, driver: driver)
      await executor.settle(driver)
      // Views hold outside text as received; the screen shows it safely (SPEC L1).
      return App.screen(view, children: children.current, input: input).map(ScreenText.safe)
        + notices.lines
    }

    var screens = [Screen(label: "start", lines: await lines())]
    var pending: [String] = []
    steps: for step in script.steps {
      pending.append(step.description)
      switch step {
      case .key(.interrupt):
        break steps
      case .key(.escape) where App.escapeQuits:
        break steps
      case .key(let key):
        let view = await currentView()
        switch App.action(for: key, view: view, children: children.current, input: &input) {
        case .send(let intent):
          if App.startsTimer(intent, view: view) { timeline = ContinuousClock.now }
          driver.send(intent)
        case .none: break
        case .quit: break steps
        }
      case .wait(let duration):
        if let wait {
          let executor = executor
          await wait(duration) { await executor.settle(driver) }
        } else {
          timeline = timeline.advanced(by: duration)
          try? await ContinuousClock().sleep(
            until: timeline.advanced(by: Self.waitMargin), tolerance: nil)
        }
      }
      await executor.settle(driver)
      let screen = await lines()
      if screen != screens.last?.lines {
        screens.append(Screen(label: pending.joined(), lines: screen))
        pending = []
      }
    }
    await driver.stop()
    await executor.settle(driver)
    // The executor is not returned to the pool: a cancelled request's completion may still
    // arrive and run on it, and it must not land in another session's settle.
    return screens
  }

  /// Formats screens the way `arch run --keys` prints them.
  public static func format(_ screens: [Screen]) -> String {
    screens.map { "== \($0.label) ==\n" + $0.lines.joined(separator: "\n") + "\n" }
      .joined(separator: "\n")
  }
}
