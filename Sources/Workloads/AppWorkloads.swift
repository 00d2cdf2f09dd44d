import ArchitectureSpec
import CHeapUsage
import Synchronization

/// The asynchronous workloads, on each contestant's spec apps, with the kit's fakes and virtual
/// clock: nothing sleeps, and every operation ends when the runtime has settled.
///
/// A trial runs entirely on one ``SettlingExecutor``, the thread the runtime's tasks run on,
/// so instruction counts do not depend on how two threads happened to interleave.
public enum AppWorkloads {
  /// Stopwatch ticks on the virtual clock, each observed.
  static let ticks = Workload(
    name: "ticks", app: StopwatchApp.name, operation: "tick", operations: 100_000
  ) { contestant, count in
    guard let implementation = contestant.stopwatch else { return nil }
    let executor = SettlingExecutor.acquire()
    let (session, before) = await onExecutor(executor) {
      let session = await Session(implementation, executor: executor)
      session.driver.send(.start)
      await session.settle()
      return (session, session.views)
    }
    return .ticks(count, of: session, on: executor, viewsBefore: before) {
      view, notified throws(WorkloadFailure) in
      let expected = StopwatchView(elapsedTenths: count, isRunning: true, lapTenths: [])
      guard view == expected else {
        throw WorkloadFailure("ticks: \(count) ticks showed \(view)")
      }
      guard notified == count else {
        throw WorkloadFailure("ticks: \(count) ticks notified the observer \(notified) time(s)")
      }
      return Outcome(operations: count, notifications: notified)
    }
  }

  /// Stopwatch ticks with `laps` laps on screen, each tick observed: what a tick costs must not
  /// grow with the laps (SPEC R6, progress), so `ticks.laps.10000` is gated against
  /// `ticks.laps.10`. CI's callgrind gate counts `ticks.laps.1000`: taking 10,000 laps first
  /// copies the growing list on every lap (the previous view shares it), 40 s under valgrind.
  static func ticksWithLaps(_ laps: Int) -> Workload {
    Workload(
      name: "ticks.laps.\(laps)", app: StopwatchApp.name, operation: "tick", operations: 10_000
    ) { contestant, count in
      guard let implementation = contestant.stopwatch else { return nil }
      let executor = SettlingExecutor.acquire()
      let (session, before) = await onExecutor(executor) {
        let session = await Session(implementation, executor: executor)
        session.driver.send(.start)
        await session.settle()
        for _ in 0..<laps { session.driver.send(.lap) }
        await session.settle()
        return (session, session.views)
      }
      return .ticks(count, of: session, on: executor, viewsBefore: before) {
        view, notified throws(WorkloadFailure) in
        let expected = StopwatchView(
          elapsedTenths: count, isRunning: true, laps: Laps(Array(repeating: 0, count: laps)))
        guard view == expected else {
          throw WorkloadFailure(
            "ticks.laps.\(laps): \(count) ticks showed \(view.elapsed) with \(view.laps.count) laps"
          )
        }
        guard notified == count else {
          throw WorkloadFailure(
            "ticks.laps.\(laps): \(count) ticks notified the observer \(notified) time(s)")
        }
        return Outcome(operations: count, notifications: notified)
      }
    }
  }

  /// Keystrokes 10 ms apart, then a pause: exactly one search.
  static let typing = Workload(
    name: "typing", app: WeatherApp.name, operation: "keystroke", operations: 10_000
  ) { contestant, count in
    guard let implementation = contestant.weather else { return nil }
    let executor = SettlingExecutor.acquire()
    let session = await onExecutor(executor) {
      await Session(implementation, executor: executor)
    }
    return Trial {
      await onExecutor(executor) {
        for index in 0..<count {
          session.driver.send(.queryChanged("q\(index)"))
          await session.settle()
          await session.advance(by: .milliseconds(10))
        }
        await session.advance(by: WeatherApp.debounce)
      }
    } finish: { () throws(WorkloadFailure) -> Outcome in
      let searches = session.searches
      await onExecutor(executor) { await session.end() }
      executor.release()
      let expected: [EnvironmentCall] = count == 0 ? [] : [.search("q\(count - 1)")]
      guard searches == expected else {
        throw WorkloadFailure(
          "typing: \(count) keystrokes issued \(searches.map(\.description)); expected \(expected)")
      }
      return Outcome(operations: count)
    }
  }

  /// Searches answered at once by the fake: from the debounce firing to the rows on screen.
  static let roundtrip = Workload(
    name: "roundtrip", app: WeatherApp.name, operation: "search", operations: 10_000
  ) { contestant, count in
    guard let implementation = contestant.weather else { return nil }
    let executor = SettlingExecutor.acquire()
    let session = await onExecutor(executor) {
      await Session(implementation, executor: executor)
    }
    let places = (1...3).map {
      Place(id: $0, name: "Place \($0)", country: "Country", latitude: 0, longitude: 0)
    }
    let wrongRows = Atomic(0)
    return Trial {
      await onExecutor(executor) {
        for index in 0..<count {
          let term = "q\(index)"
          session.driver.send(.queryChanged(term))
          await session.settle()
          await session.advance(by: WeatherApp.debounce)
          session.fakes.fakes.service.answerSearch(term: term, with: .success(places))
          await session.settle()
          if await session.driver.view.rows.count != places.count {
            wrongRows.add(1, ordering: .relaxed)
          }
        }
      }
    } finish: { () throws(WorkloadFailure) -> Outcome in
      let searches = session.searches
      await onExecutor(executor) { await session.end() }
      executor.release()
      let wrong = wrongRows.load(ordering: .relaxed)
      guard searches.count == count, wrong == 0 else {
        throw WorkloadFailure(
          "roundtrip: \(count) answered searches made \(searches.count) search(es); "
            + "\(wrong) did not show their rows")
      }
      return Outcome(operations: count)
    }
  }

  /// Create, start (with the timer running), stop and release; the heap must not grow.
  static let lifecycle = Workload(
    name: "lifecycle", app: StopwatchApp.name, operation: "cycle", operations: 10_000
  ) { contestant, count in
    guard let implementation = contestant.stopwatch else { return nil }
    let executor = SettlingExecutor.acquire()
    // One cycle first, so caches the runtime fills once are not counted as growth.
    let heapBefore = await onExecutor(executor) {
      await cycle(implementation, executor)
      return heap_bytes_in_use()
    }
    let heapAfter = Atomic(0)
    return Trial {
      await onExecutor(executor) {
        for _ in 0..<count { await cycle(implementation, executor) }
      }
      heapAfter.store(heap_bytes_in_use(), ordering: .relaxed)
    } finish: { () throws(WorkloadFailure) -> Outcome in
      executor.release()
      let growth = heapAfter.load(ordering: .relaxed) - heapBefore
      // A leaked runtime is hundreds of bytes per cycle; allow for allocator noise only.
      guard count == 0 || growth < 64 * 1024 else {
        throw WorkloadFailure(
          "lifecycle: the heap grew by \(growth) bytes over \(count) cycles "
            + "(\(growth / count) per cycle); a released runtime must be freed")
      }
      return Outcome(operations: count)
    }
  }

  /// Increments of the counter app, each settled: the intent, the view, the save and its log
  /// line. The one workload a contestant with only a counter runs; every architecture runs it.
  static let counterIncrements = Workload(
    name: "counter.increments", app: CounterApp.name, operation: "intent", operations: 10_000
  ) { contestant, count in
    guard let implementation = contestant.counter else { return nil }
    let executor = SettlingExecutor.acquire()
    let (session, before) = await onExecutor(executor) {
      let session = await Session(implementation, executor: executor)
      return (session, session.views)
    }
    return Trial {
      await onExecutor(executor) {
        for _ in 0..<count {
          session.driver.send(.increment)
          await session.settle()
        }
      }
    } finish: { () throws(WorkloadFailure) -> Outcome in
      let view = await onExecutor(executor) { await session.driver.view }
      let notified = session.views - before
      let saves = session.fakes.recorder.all.filter { if case .save = $0 { true } else { false } }
      await onExecutor(executor) { await session.end() }
      executor.release()
      guard view == .ready(count: count), notified == count, saves.count == count else {
        throw WorkloadFailure(
          "counter.increments: \(count) increments showed \(view), notified the observer "
            + "\(notified) time(s) and saved \(saves.count) time(s)")
      }
      return Outcome(operations: count, notifications: notified)
    }
  }

  /// One lifecycle: a stopwatch started and running, stopped, and released with its fakes.
  private static func cycle(
    _ implementation: Implementation<StopwatchApp>, _ executor: SettlingExecutor
  ) async {
    let session = await Session(implementation, executor: executor)
    session.driver.send(.start)
    await session.settle()
    await session.end()
  }
}

/// Runs `body` on `executor`.
func onExecutor<T: Sendable>(
  _ executor: SettlingExecutor, _ body: @Sendable () async -> T
) async -> T {
  await withTaskExecutorPreference(executor) { await body() }
}

extension Trial {
  /// `count` stopwatch ticks of `session`'s clock; then the session ends, `executor` is
  /// released, and `check` gets the view after the ticks and how often the root observer was
  /// called since it had been called `viewsBefore` times.
  static func ticks<App: ConformanceApp>(
    _ count: Int, of session: Session<App>, on executor: SettlingExecutor, viewsBefore: Int,
    check: @escaping @Sendable (App.View, _ notified: Int) throws(WorkloadFailure) -> Outcome
  ) -> Trial {
    Trial {
      await onExecutor(executor) { await session.advance(by: StopwatchApp.tickInterval * count) }
    } finish: { () throws(WorkloadFailure) -> Outcome in
      let (view, notified) = await onExecutor(executor) {
        let result = (await session.driver.view, session.views - viewsBefore)
        await session.end()
        return result
      }
      executor.release()
      return try check(view, notified)
    }
  }
}

/// One started runtime of `App` on fresh fakes, observed unless told otherwise. Use it only
/// from a task running on its executor.
final class Session<App: ConformanceApp>: Sendable {
  let fakes: FakeEnvironment<App>
  let driver: any AppDriver<App>
  private let notifications = NotificationCount()

  init(
    _ implementation: Implementation<App>, executor: SettlingExecutor,
    setup: App.Setup = App.Setup()
  ) async {
    fakes = FakeEnvironment(setup, executor: executor)
    driver = implementation.makeDriver(fakes.environment)
    await driver.start { [notifications] _ in notifications.add() }
    await settle()
  }

  /// A runtime started with no root observer (``AppDriver/startUnobserved()``); ``views``
  /// stays 0. (An initializer of its own: one that chose between the two starts had a larger
  /// async frame, and every session of the lifecycle workload allocated once more for it.)
  init(
    unobserved implementation: Implementation<App>, executor: SettlingExecutor,
    setup: App.Setup = App.Setup()
  ) async {
    fakes = FakeEnvironment(setup, executor: executor)
    driver = implementation.makeDriver(fakes.environment)
    await driver.startUnobserved()
    await settle()
  }

  /// How many times the observer was called.
  var views: Int { notifications.value }

  /// The searches the weather service received.
  var searches: [EnvironmentCall] {
    fakes.recorder.all.filter { if case .search = $0 { true } else { false } }
  }

  /// Waits until every task on the executor is suspended or done and the driver is idle.
  ///
  /// Running on the executor, the workload yields its place: the jobs queued before it run
  /// first, and once it resumes to an empty queue every other task is suspended or done.
  func settle() async {
    while true {
      repeat { await Task.yield() } while fakes.executor.queuedJobCount > 0
      await driver.idle()
      if fakes.executor.queuedJobCount == 0 { return }
    }
  }

  /// Moves the virtual clock forward, waking each sleeper in turn and settling after each.
  func advance(by duration: Duration) async {
    let target = fakes.clock.now.advanced(by: duration)
    while fakes.clock.wakeNext(notAfter: target) { await settle() }
    fakes.clock.move(to: target)
  }

  /// Stops the runtime and fails whatever it left pending.
  func end() async {
    await driver.stop()
    await settle()
    await fakes.finish()
  }
}

/// A count of observer calls that an observer closure can hold without holding its session.
final class NotificationCount: Sendable {
  private let count = Atomic(0)
  func add() { count.wrappingAdd(1, ordering: .relaxed) }
  func reset() { count.store(0, ordering: .relaxed) }
  var value: Int { count.load(ordering: .relaxed) }
}
