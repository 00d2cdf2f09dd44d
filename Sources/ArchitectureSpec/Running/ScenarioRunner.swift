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
  let fakes: FakeEnvironment
  let observer = ViewObserver<App>()
  var driver: (any AppDriver<App>)?
  var entries: [TraceEntry<App.View>] = []
  var failures: [String] = []
  var uncheckedCalls: [EnvironmentCall] = []
  var isStopped = false
  var reportedAfterStop = 0

  init(scenario: Scenario<App>, implementation: Implementation<App>) {
    self.scenario = scenario
    fakes = FakeEnvironment(scenario.setup)
    driver = implementation.makeDriver(App.environment(from: fakes))
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
    let calls = made.filter(\.isCancellation) + made.filter { !$0.isCancellation }
    uncheckedCalls += calls
    entries.append(
      TraceEntry(
        step: step, action: action, calls: calls.map(\.description), views: observer.drainViews()))
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
    case .advance(let duration):
      let target = fakes.clock.now.advanced(by: duration)
      while fakes.clock.wakeNext(notAfter: target) { await settle() }
      fakes.clock.move(to: target)
    case .completeLoad(let result):
      fakes.storage.completeLoad(result)
    case .failNextSave:
      fakes.storage.failNextSave()
    case .answerSearch(let term, let answer):
      let result: Result<[Place], FakeFailure> =
        switch answer {
        case .places(let places): .success(places)
        case .failure: .failure(FakeFailure("search failed"))
        }
      fakes.weather.answerSearch(term: term, with: result)
    case .answerForecast(let id, let answer):
      let result: Result<Forecast, FakeFailure> =
        switch answer {
        case .forecast(let forecast): .success(forecast)
        case .failure: .failure(FakeFailure("forecast failed"))
        }
      fakes.weather.answerForecast(placeID: id, with: result)
    case .stop:
      if let driver, !isStopped {
        await driver.stop()
        isStopped = true
        observer.markStopped()
      }
    case .release:
      observer.stopReacting()
      driver = nil
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
    case .expectSleepers(let expected):
      let count = fakes.clock.sleeperCount
      if count != expected {
        fail(index, step, "expected \(expected) sleeper(s) on the clock, found \(count)")
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
