import Foundation
import Synchronization

/// Stops a runtime — or drops its last reference — while two threads send to it, and counts
/// what began afterwards (SPEC R6).
///
/// Each try starts a new runtime with an environment that answers at once (``StressApp``),
/// subscribes an observer to the whole view and one to each child of ``StressApp/stressChildren``,
/// and lets two threads send intents picked at random from ``StressApp/stressIntents``. After a
/// random number of sends:
/// - **stop:** `stop()` is called and the moment it returns is numbered in the probe's sequence.
///   Any observer call or environment call numbered later is late, and so is a view that differs
///   from the one read right after `stop()` returned.
/// - **release:** the last strong reference is dropped while the threads send through weak
///   references; once both threads have returned, the moment is numbered. Anything that begins
///   after it is work after release, and a runtime still alive a moment later was not freed.
///
/// Just before the moment, the probe is armed (``StressProbe/arm()``): saves, logs and observer
/// calls then take up to ``StressProbe/holdLimit`` to begin, so a runtime that lets one begin
/// outside what its `stop()` waits for is caught in most tries, not by luck.
///
/// Late events are looked for during a short grace period after the moment (``grace``):
/// effects that would begin later than that go unseen.
public enum Stress {
  /// The two ways a try ends the runtime.
  public enum Ending: String, Sendable, CaseIterable, Codable {
    case stop
    case release
  }

  /// What began too late.
  public enum Late: String, Sendable, CaseIterable, Codable {
    case observerCall = "observer call"
    case environmentCall = "environment call"
    case viewChange = "view change"
    case afterRelease = "work after release"
    case notFreed = "not freed"
    case stuckSend = "send never returned"
  }

  /// How long a try waits for late events after the moment it measures from.
  public static let grace: Duration = .milliseconds(3)
  /// Intents each of the two threads sends per try, at most.
  public static let intentsPerThread = 60

  /// The result of every try of one app on one architecture.
  public struct Report: Sendable, Hashable, Codable {
    public var architecture: String
    public var app: String
    public var tries: Int
    /// For each kind of late event: in how many tries it happened.
    public var triesWith: [String: Int] = [:]
    /// For each kind of late event: how many happened in all.
    public var events: [String: Int] = [:]
    /// A few late events, described.
    public var examples: [String] = []

    public var isClean: Bool { events.values.allSatisfy { $0 == 0 } }

    mutating func add(_ late: [Late: [String]]) {
      for (kind, descriptions) in late where !descriptions.isEmpty {
        triesWith[kind.rawValue, default: 0] += 1
        events[kind.rawValue, default: 0] += descriptions.count
        for description in descriptions.prefix(2) where examples.count < 6 {
          examples.append(description)
        }
      }
    }
  }

  /// Runs `tries` tries of each ending, the runtime made by `implementation`.
  public static func run<App: StressApp>(
    _ implementation: Implementation<App>, tries: Int, seed: UInt64
  ) async -> Report {
    var report = Report(architecture: implementation.architecture, app: App.name, tries: tries)
    var random = SeededRandom(seed: seed)
    // The tries run on a thread of their own: a held save or observer call blocks the thread it
    // runs on (it must not suspend), and two of them block the whole cooperative pool of a
    // two-core machine; a try that ended the runtime from that pool then waited for the holds
    // to expire and saw every late call as early.
    let ender = SettlingExecutor.acquire()
    defer { ender.release() }
    for index in 0..<tries {
      let ending: Ending = index % 2 == 0 ? .stop : .release
      let late = await withTaskExecutorPreference(ender) {
        await attempt(implementation, ending: ending, random: &random)
      }
      report.add(late)
      if late[.stuckSend] != nil { break }
    }
    return report
  }

  private static func attempt<App: StressApp>(
    _ implementation: Implementation<App>, ending: Ending, random: inout SeededRandom
  ) async -> [Late: [String]] {
    let probe = StressProbe()
    var holder: DriverHolder<App>? = DriverHolder(
      implementation.makeDriver(App.stressEnvironment(probe)))
    let weakHolder = WeakBox(holder)
    let runtime = WeakBox(holder.map { runtimeObject(in: $0.driver) } ?? nil)
    await holder?.driver.start { _ in probe.record(.observer) }
    for child in App.stressChildren {
      await holder?.driver.observe(child) { _ in probe.record(.childObserver) }
    }
    let intents = (0..<2).map { _ in
      (0..<intentsPerThread).map { _ in
        App.stressIntents[Int(random.next() % UInt64(App.stressIntents.count))]
      }
    }
    let endAfter = Int(random.next() % UInt64(2 * intentsPerThread))
    let senders = Senders(
      intents.map { list in
        { @Sendable (sent: SentCounter) in
          for intent in list {
            guard let holder = weakHolder.value else { return }
            holder.driver.send(intent)
            sent.increment()
          }
        }
      })
    while senders.sentCount < endAfter, !senders.isDone {
      try? await Task.sleep(for: .microseconds(20))
    }
    // Stop (or release) while a save or a log is beginning, if one comes within a few
    // milliseconds; else while an observer call is, if one comes; else now.
    probe.arm()
    let armed = ContinuousClock.now
    while probe.heldEnvironmentCalls == 0, ContinuousClock.now - armed < .milliseconds(3) {
      try? await Task.sleep(for: .microseconds(20))
    }
    while probe.heldCalls == 0, ContinuousClock.now - armed < .milliseconds(4) {
      try? await Task.sleep(for: .microseconds(20))
    }
    var late: [Late: [String]] = [:]
    switch ending {
    case .stop:
      probe.beginEnding()
      await holder?.driver.stop()
      let moment = probe.mark()
      let viewAtStop = await holder?.driver.view
      guard await senders.join() else { return [.stuckSend: ["a send did not return in 10 s"]] }
      try? await Task.sleep(for: grace)
      for event in probe.events(after: moment) {
        switch event {
        case .observer: late[.observerCall, default: []].append("observer called after stop")
        case .childObserver:
          late[.observerCall, default: []].append("child observer called after stop")
        case .environment(let name, let cancelled):
          if !(cancelled && Self.cancellable.contains(name)) {
            late[.environmentCall, default: []].append("\(name) began after stop")
          }
        }
      }
      if let viewAtStop, let now = await holder?.driver.view, now != viewAtStop {
        late[.viewChange, default: []].append("view changed after stop: \(viewAtStop) → \(now)")
      }
      holder = nil
    case .release:
      probe.beginEnding()
      holder = nil
      guard await senders.join() else { return [.stuckSend: ["a send did not return in 10 s"]] }
      let moment = probe.mark()
      try? await Task.sleep(for: grace)
      for event in probe.events(after: moment) {
        switch event {
        case .observer, .childObserver:
          late[.afterRelease, default: []].append("observer called after release")
        case .environment(let name, let cancelled):
          if !(cancelled && Self.cancellable.contains(name)) {
            late[.afterRelease, default: []].append("\(name) began after release")
          }
        }
      }
      var waited = Duration.zero
      while runtime.value != nil, waited < .milliseconds(200) {
        try? await Task.sleep(for: .milliseconds(1))
        waited += .milliseconds(1)
      }
      if runtime.value != nil { late[.notFreed] = ["runtime alive 200 ms after release"] }
    }
    return late
  }

  /// The environment calls that may reach the environment already cancelled (R6).
  static let cancellable: Set<String> = [
    "load", "loadTodos", "search", "forecast", "create", "details", "sleep",
  ]

  /// The first object a driver holds: the runtime it wraps (a driver that is itself an object
  /// is its own runtime).
  static func runtimeObject(in driver: Any) -> AnyObject? {
    if type(of: driver) is AnyClass { return driver as AnyObject }
    for child in Mirror(reflecting: driver).children where type(of: child.value) is AnyClass {
      return child.value as AnyObject
    }
    return nil
  }
}

/// The only strong reference to a try's driver.
private final class DriverHolder<App: SpecApp>: Sendable {
  let driver: any AppDriver<App>
  init(_ driver: any AppDriver<App>) { self.driver = driver }
}

private final class WeakBox<Object: AnyObject>: @unchecked Sendable {
  // @unchecked: set once in init; reading a weak reference is thread-safe.
  weak var value: Object?
  init(_ value: Object?) { self.value = value }
}

private final class SentCounter: Sendable {
  let value = Atomic<Int>(0)
  func increment() { value.add(1, ordering: .relaxed) }
}

/// Two threads that send, counting what they sent.
private final class Senders: Sendable {
  private let sent = SentCounter()
  private let finished = Atomic<Int>(0)
  private let count: Int

  init(_ bodies: [@Sendable (SentCounter) -> Void]) {
    count = bodies.count
    for body in bodies {
      let thread = Thread { [self] in
        body(sent)
        finished.add(1, ordering: .sequentiallyConsistent)
      }
      thread.start()
    }
  }

  var sentCount: Int { sent.value.load(ordering: .relaxed) }
  var isDone: Bool { finished.load(ordering: .sequentiallyConsistent) == count }

  /// Waits until both threads returned; `false` after 10 s.
  func join() async -> Bool {
    let deadline = ContinuousClock.now + .seconds(10)
    while !isDone {
      if ContinuousClock.now > deadline { return false }
      try? await Task.sleep(for: .microseconds(50))
    }
    return true
  }
}
