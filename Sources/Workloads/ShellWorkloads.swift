import ArchitectureSpec

/// The shell app at work: a hidden tab's timer must not wake what the screen shows, and one
/// intent resets three busy children.
public enum ShellWorkloads {
  /// Every shell workload.
  public static let all = [backgroundTicks, resetAll]

  /// One hour of stopwatch ticks while the counter's tab is shown, with the counter observed:
  /// its observer must be called 0 times (SPEC R11, H3).
  static let backgroundTicks = Workload(
    name: "shell.background-ticks", app: ShellApp.name, operation: "tick", operations: 36_000
  ) { contestant, count in
    guard let implementation = contestant.shell else { return nil }
    let executor = SettlingExecutor.acquire()
    let counterCalls = NotificationCount()
    let (session, before) = await onExecutor(executor) {
      let session = await Session(implementation, executor: executor)
      session.driver.send(.stopwatch(.start))
      session.driver.send(.select(.counter))
      await session.driver.observe(.counter) { _ in counterCalls.add() }
      await session.settle()
      counterCalls.reset()
      return (session, session.views)
    }
    return .ticks(count, of: session, on: executor, viewsBefore: before) {
      view, root throws(WorkloadFailure) in
      let counter = counterCalls.value
      let elapsed = StopwatchApp.format(tenths: count)
      guard view.tab == .counter, view.stopwatch.elapsed == elapsed, root == count, counter == 0
      else {
        throw WorkloadFailure(
          "shell.background-ticks: \(count) ticks showed the \(view.tab) tab and "
            + "\(view.stopwatch.elapsed), notified the root \(root) and the counter \(counter) "
            + "time(s); expected the counter tab, \(elapsed), \(count) and 0")
      }
      return Outcome(
        operations: count, notifications: root,
        byKind: NotificationsByKind(root: root, unchangedRows: counter, unchangedRowsObserved: 1))
    }
  }

  /// A cycle: the counter incremented (its save in flight), the stopwatch started and a search
  /// in flight; then `resetAll` (SPEC H5).
  static let resetAll = Workload(
    name: "shell.reset-all", app: ShellApp.name, operation: "cycle", operations: 2_000
  ) { contestant, count in
    guard let implementation = contestant.shell else { return nil }
    let executor = SettlingExecutor.acquire()
    let session = await onExecutor(executor) {
      await Session(implementation, executor: executor)
    }
    return Trial {
      await onExecutor(executor) {
        for index in 0..<count {
          session.driver.send(.counter(.increment))
          session.driver.send(.stopwatch(.start))
          session.driver.send(.weather(.queryChanged("q\(index)")))
          await session.settle()
          await session.advance(by: WeatherApp.debounce)
          session.driver.send(.resetAll)
          await session.settle()
        }
      }
    } finish: { () throws(WorkloadFailure) -> Outcome in
      let (view, searches) = await onExecutor(executor) {
        let result = (await session.driver.view, session.searches.count)
        await session.end()
        return result
      }
      executor.release()
      guard view.counter.count == 0, view.stopwatch == .initial, view.weather.rows.isEmpty,
        view.weather.query.isEmpty, searches == count
      else {
        throw WorkloadFailure(
          "shell.reset-all: \(count) cycles left the counter at \(view.counter.count), the "
            + "stopwatch at \(view.stopwatch), the weather at \(view.weather), after "
            + "\(searches) search(es); expected everything reset after \(count) searches")
      }
      return Outcome(operations: count)
    }
  }
}
