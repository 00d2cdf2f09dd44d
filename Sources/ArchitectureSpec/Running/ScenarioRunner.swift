import Foundation
import Synchronization

/// The outcome of running one scenario against one implementation.
public struct RunResult<App: ConformanceApp>: Sendable {
  /// What happened, step by step.
  public var trace: Trace<App.View>
  /// Every expectation or runtime-contract check that failed, as readable messages.
  public var failures: [String]
  /// How many times the observer was called; the distinct views are in the trace.
  public var notifications: Int
}

/// Runs scenarios against implementations, with fakes and a virtual clock, and no sleeping.
public enum ScenarioRunner {
  /// Runs `scenario` against `implementation` and returns its trace and failed expectations.
  public static func run<App>(
    _ scenario: Scenario<App>, on implementation: Implementation<App>
  ) async -> RunResult<App> {
    let run = Run(scenario: scenario, implementation: implementation)
    return await run.execute()
  }
}

/// The state of one run.
private final class Run<App: ConformanceApp> {
  let scenario: Scenario<App>
  let fakes: FakeEnvironment<App>
  let observer = ViewObserver<App>()
  let children = ChildObservers<App>()
  var driver: (any AppDriver<App>)?
  var entries: [TraceEntry<App.View>] = []
  var failures: [String] = []
  var uncheckedCalls: [EnvironmentCall] = []
  var isStopped = false
  var reportedAfterStop = 0
  var reportedChildrenAfterStop = 0
  /// What the last action did, for the step expectations.
  var lastViews: [App.View] = []
  var lastNotifications = 0
  var lastChildren: [App.Child: [App.ChildView]] = [:]
  var notificationMark = 0
  /// Scopes the scenario took and kept (``Step/keepScope(_:_:)``).
  var keptScopes: [String: @Sendable (App.ChildIntent) -> Void] = [:]

  init(scenario: Scenario<App>, implementation: Implementation<App>) {
    self.scenario = scenario
    fakes = FakeEnvironment(scenario.setup)
    driver = implementation.makeDriver(fakes.environment)
  }

  func execute() async -> RunResult<App> {
    await settle()
    let early = fakes.recorder.drain()
    if !early.isEmpty || observer.notifications > 0 || fakes.clock.sleeperCount > 0 {
      failures.append(
        "R1: the runtime did something before start: calls \(early), "
          + "\(observer.notifications) view(s), \(fakes.clock.sleeperCount) sleeper(s)")
    }
    if let driver {
      for child in scenario.observing {
        await driver.observe(child, observer: children.observer(for: child))
      }
      let early = children.drain()
      if !early.isEmpty {
        failures.append(
          "R11: a child observer subscribed before start was called before start: "
            + early.map { "\($0.child)" }.joined(separator: ", "))
      }
      let observer = self.observer
      await driver.start(observer: { observer.receive($0) })
    }
    await settle()
    if observer.notifications == 0 {
      failures.append("R1: start delivered no view to the observer")
    }
    await record(step: 0, action: "start")

    for (offset, step) in scenario.steps.enumerated() {
      await perform(step, index: offset + 1)
    }
    if let driver, !isStopped {
      await driver.stop()
      await settle()
    }
    observer.stopReacting()
    driver = nil
    keptScopes.removeAll()
    await settle()
    await fakes.finish()
    return RunResult(
      trace: Trace(entries: entries), failures: failures, notifications: observer.notifications)
  }

  /// Waits until every task on the run's executor is suspended or done and the driver is idle.
  func settle() async {
    await fakes.settle(driver)
  }

  func record(step: Int, action: String) async {
    let made = fakes.recorder.drain()
    // Canonical order (SPEC "Trace"): cancellations first, sorted by their text.
    let cancellations = made.filter(\.isCancellation).sorted { $0.description < $1.description }
    let calls = cancellations + made.filter { !$0.isCancellation }
    uncheckedCalls += calls
    let childViews = children.drain()
    lastViews = observer.drainViews()
    lastNotifications = observer.notifications - notificationMark
    notificationMark = observer.notifications
    lastChildren = Dictionary(childViews.map { ($0.child, $0.views) }) { $1 }
    entries.append(
      TraceEntry(
        step: step, action: action, calls: calls.map(\.description), views: lastViews,
        children: childViews.map {
          TraceEntry<App.View>.ChildViews(
            child: $0.child.description, views: $0.views.map(App.traceText(of:)))
        }, notifications: lastNotifications))
    guard let driver, !isStopped else { return }
    let view = await driver.view
    if let seen = observer.lastView, seen != view {
      failures.append(
        "step \(step) (\(action)): R10: the observer last saw \(seen), but the view is \(view)")
    }
  }

  func fail(_ index: Int, _ step: Step<App>, _ message: String) {
    failures.append("step \(index) (\(step)): \(message)")
  }

  func advance(
    by duration: Duration, sending intent: App.Intent? = nil, at offset: Duration = .zero
  )
    async
  {
    let start = fakes.clock.now
    let target = start.advanced(by: duration)
    if let intent {
      let moment = start.advanced(by: min(offset, duration))
      while fakes.clock.wakeNext(notAfter: moment) { await settle() }
      fakes.clock.move(to: moment)
      driver?.send(intent)
      await settle()
    }
    while fakes.clock.wakeNext(notAfter: target) { await settle() }
    fakes.clock.move(to: target)
  }

  func perform(_ step: Step<App>, index: Int) async {
    switch step {
    case .send(let intent):
      driver?.send(intent)
    case .sendConcurrently(let intent, let senders, let each):
      if let driver {
        await sendFromThreads(senders, each: each) { driver.send(intent) }
      }
    case .sendFromObserver(let intent, let then, let times):
      if let driver {
        observer.react(sending: then, times: times, through: { driver.send($0) })
        driver.send(intent)
      }
    case .sendToChild(let child, let intent):
      driver?.send(intent, to: child)
    case .keepScope(let name, let child):
      if let driver { keptScopes[name] = driver.scope(child) }
    case .sendThroughKeptScope(let name, let intent):
      keptScopes[name]?(intent)
    case .advance(let duration):
      await advance(by: duration)
    case .advanceSending(let duration, let intent, let offset):
      await advance(by: duration, sending: intent, at: offset)
    case .fake(let action):
      App.perform(action, on: fakes.fakes)
    case .observe(let child):
      await driver?.observe(child, observer: children.observer(for: child))
    case .stop:
      if let driver, !isStopped {
        await driver.stop()
        isStopped = true
        observer.markStopped()
        children.markStopped()
      }
    case .release:
      observer.stopReacting()
      driver = nil
      keptScopes.removeAll()
    case .expectView(let expected):
      await check(view: expected, index: index, step: step)
      return
    case .expectCalls(let expected):
      await settle()
      if uncheckedCalls != expected {
        let lines = describeListDifference(
          "calls", expected: expected, actual: uncheckedCalls, describe: \.description)
        fail(index, step, (["calls differ:"] + lines).joined(separator: "\n"))
      }
      uncheckedCalls.removeAll()
      return
    case .expectCallsInAnyOrder(let expected):
      await settle()
      let sortedExpected = expected.map(\.description).sorted()
      let sortedActual = uncheckedCalls.map(\.description).sorted()
      if sortedActual != sortedExpected {
        let lines = describeListDifference(
          "calls (sorted)", expected: sortedExpected, actual: sortedActual, describe: { $0 })
        fail(index, step, (["calls differ:"] + lines).joined(separator: "\n"))
      }
      uncheckedCalls.removeAll()
      return
    case .expectSleepers(let expected):
      let count = fakes.clock.sleeperCount
      if count != expected {
        fail(index, step, "expected \(expected) sleeper(s) on the clock, found \(count)")
      }
      return
    case .expectStepViews(let expected):
      if lastViews != expected {
        let lines = describeListDifference(
          "step views", expected: expected, actual: lastViews, describe: \.description)
        fail(index, step, (["views differ:"] + lines).joined(separator: "\n"))
      }
      return
    case .expectNotifications(let expected):
      if lastNotifications != expected {
        fail(
          index, step,
          "R10: expected \(expected) notification(s) of the root observer, got "
            + "\(lastNotifications)")
      }
      return
    case .expectChildViews(let child, let expected):
      let actual = lastChildren[child] ?? []
      if actual != expected {
        let lines = describeListDifference(
          "views of \(child)", expected: expected.map(App.traceText(of:)),
          actual: actual.map(App.traceText(of:)), describe: { $0 })
        fail(index, step, (["child views differ:"] + lines).joined(separator: "\n"))
      }
      return
    }
    await settle()
    observer.stopReacting()
    let afterStop = observer.viewsAfterStop
    if afterStop.count > reportedAfterStop {
      let new = afterStop[reportedAfterStop...].map(\.description)
      fail(index, step, "R6: the observer was called after stop with \(new)")
      reportedAfterStop = afterStop.count
    }
    let childrenAfterStop = children.viewsAfterStop
    if childrenAfterStop.count > reportedChildrenAfterStop {
      let new = childrenAfterStop[reportedChildrenAfterStop...]
      fail(index, step, "R6: a child observer was called after stop with \(Array(new))")
      reportedChildrenAfterStop = childrenAfterStop.count
    }
    await record(step: index, action: step.description)
  }

  func check(view expected: App.View, index: Int, step: Step<App>) async {
    guard let driver else {
      fail(index, step, "the runtime was released; there is no view to check")
      return
    }
    let actual = await driver.view
    if actual != expected {
      fail(index, step, "view differs: \(fieldDifferences(expected: expected, actual: actual))")
    }
  }
}

/// Calls `send` `each` times on each of `count` new threads, released together, and returns when
/// all are done. Threads rather than tasks: tasks may share one pool thread and never overlap,
/// which would hide exactly the lost updates R3 is about.
private func sendFromThreads(_ count: Int, each: Int, _ send: @escaping @Sendable () -> Void) async
{
  let ready = Atomic(0)
  let finished = Atomic(0)
  await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
    for _ in 0..<count {
      Thread {
        ready.add(1, ordering: .sequentiallyConsistent)
        while ready.load(ordering: .sequentiallyConsistent) < count { sched_yield() }
        for _ in 0..<each { send() }
        if finished.add(1, ordering: .sequentiallyConsistent).newValue == count {
          continuation.resume()
        }
      }.start()
    }
  }
}
