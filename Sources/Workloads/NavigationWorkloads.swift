import ArchitectureSpec

/// The contacts app at work (SPEC §8, R13): what presenting and dismissing a child costs, and
/// whether it depends on what the rest of the stack holds.
///
/// - `contacts.push-pop.N`: one screen pushed onto a stack of N screens, each loading, and
///   popped while its load is in flight, with no root observer (the root view holds every screen, so
///   an observed root costs O(N) per message in every architecture). R13 asks that it cost the
///   same with 10 and 10,000 screens beneath.
/// - `contacts.push-pop.observed.N`: the same with a root observer, reported, not gated.
/// - `contacts.pop-to-root.1000`: `popToRoot` from 1,000 screens, each with its load in flight,
///   per screen removed (N7: the cost grows with the screens removed and nothing else).
/// - `contacts.sheet`: the add form presented, a name typed, saved, and cancelled with its
///   `create` in flight.
public enum NavigationWorkloads {
  /// Every navigation workload.
  public static let all: [Workload] =
    [pushPop(beneath: 10, observed: false), pushPop(beneath: 10_000, observed: false)]
    + [pushPop(beneath: 10, observed: true), pushPop(beneath: 1_000, observed: true)]
    + [popToRoot, sheet]

  /// How many screens `contacts.pop-to-root.1000` removes at once.
  public static let poppedScreens = 1_000

  /// Screens of `contacts` for the contact ids 1, 2, 3, 1, 2, …: a launch path of `count`.
  static func launchPath(_ count: Int) -> [Int] {
    (0..<count).map { 1 + $0 % ContactsSetup.sample.count }
  }

  /// One push and one pop of a screen whose load is in flight, above `beneath` screens whose
  /// loads are in flight too (the service holds every call: the stack is made in one message).
  static func pushPop(beneath: Int, observed: Bool) -> Workload {
    let name = "\(ContactsApp.name).push-pop.\(observed ? "observed." : "")\(beneath)"
    return Workload(
      name: name, app: ContactsApp.name, operation: "push+pop",
      operations: observed ? 200 : 2_000
    ) { contestant, count in
      guard let implementation = contestant.contacts else { return nil }
      let executor = SettlingExecutor.acquire()
      let (session, viewsBefore) = await onExecutor(executor) {
        let setup = ContactsSetup(launchPath: launchPath(beneath), holdsCalls: true)
        let session =
          observed
          ? await Session(implementation, executor: executor, setup: setup)
          : await Session(unobserved: implementation, executor: executor, setup: setup)
        return (session, session.views)
      }
      return Trial {
        await onExecutor(executor) {
          for index in 0..<count {
            session.driver.send(.open(contactID: 1 + index % ContactsSetup.sample.count))
            await session.settle()
            session.driver.send(.back)
            await session.settle()
          }
        }
      } finish: { () throws(WorkloadFailure) -> Outcome in
        let (view, calls, views) = await onExecutor(executor) {
          let result = (
            await session.driver.view, session.fakes.recorder.all, session.views - viewsBefore
          )
          await session.end()
          return result
        }
        executor.release()
        let loads = calls.count { if case .details = $0 { true } else { false } }
        let cancelled = calls.count { if case .cancelled(.details) = $0 { true } else { false } }
        let loading = view.stack.allSatisfy { $0.status == .loading }
        let expectedViews = observed ? 2 * count : 0
        guard view.stack.count == beneath, loading, loads == beneath + count, cancelled == count,
          views == expectedViews
        else {
          throw WorkloadFailure(
            "\(name): \(count) pushes and pops left \(view.stack.count) screens (all loading: "
              + "\(loading)) after \(loads) loads, \(cancelled) cancelled, \(views) root views; "
              + "expected \(beneath) loading screens, \(beneath + count) loads, \(count) "
              + "cancelled, \(expectedViews) root views")
        }
        return Outcome(operations: count, notifications: observed ? views : nil)
      }
    }
  }

  /// `popToRoot` from stacks of ``poppedScreens`` screens with their loads in flight; an
  /// operation is one screen removed. Each popped stack is a runtime of its own, started before
  /// the run (`arch measure --prepare-only` counts that part alone). A run of a number of
  /// operations that is not a multiple of 1,000 pops a last, shorter stack (a test's small run:
  /// one stack of 50).
  static let popToRoot = Workload(
    name: "\(ContactsApp.name).pop-to-root.\(poppedScreens)", app: ContactsApp.name,
    operation: "screen", operations: 20 * poppedScreens
  ) { contestant, count in
    guard let implementation = contestant.contacts else { return nil }
    let name = "\(ContactsApp.name).pop-to-root.\(poppedScreens)"
    let heights = stride(from: 0, to: max(count, 1), by: poppedScreens).map {
      min(poppedScreens, max(count, 1) - $0)
    }
    let executor = SettlingExecutor.acquire()
    let sessions = await onExecutor(executor) {
      var sessions: [(session: Session<ContactsApp>, height: Int)] = []
      for height in heights {
        let setup = ContactsSetup(launchPath: launchPath(height), holdsCalls: true)
        sessions.append(
          (await Session(implementation, executor: executor, setup: setup), height))
      }
      return sessions
    }
    return Trial {
      await onExecutor(executor) {
        for (session, _) in sessions {
          session.driver.send(.popToRoot)
          await session.settle()
        }
      }
    } finish: { () throws(WorkloadFailure) -> Outcome in
      let results = await onExecutor(executor) {
        var results: [(ContactsView, cancelled: Int, height: Int)] = []
        for (session, height) in sessions {
          let cancelled = session.fakes.recorder.all.count {
            if case .cancelled(.details) = $0 { true } else { false }
          }
          results.append((await session.driver.view, cancelled, height))
          await session.end()
        }
        return results
      }
      executor.release()
      for (view, cancelled, height) in results where !view.stack.isEmpty || cancelled != height {
        throw WorkloadFailure(
          "\(name): popToRoot from \(height) screens left \(view.stack.count) and cancelled "
            + "\(cancelled) loads; expected none left and \(height) cancelled")
      }
      return Outcome(operations: heights.reduce(0, +))
    }
  }

  /// The add form presented, a name typed and saved, then cancelled with its `create` in
  /// flight: four intents, observed at the root (the form is seen there).
  static let sheet = Workload(
    name: "\(ContactsApp.name).sheet", app: ContactsApp.name, operation: "cycle",
    operations: 2_000
  ) { contestant, count in
    guard let implementation = contestant.contacts else { return nil }
    let executor = SettlingExecutor.acquire()
    let (session, viewsBefore) = await onExecutor(executor) {
      let session = await Session(
        implementation, executor: executor, setup: ContactsSetup(holdsCalls: true))
      return (session, session.views)
    }
    return Trial {
      await onExecutor(executor) {
        for _ in 0..<count {
          session.driver.send(.addTapped)
          session.driver.send(.form(.nameChanged("Dee")))
          session.driver.send(.form(.save))
          await session.settle()
          session.driver.send(.form(.cancel))
          await session.settle()
        }
      }
    } finish: { () throws(WorkloadFailure) -> Outcome in
      let (view, calls, views) = await onExecutor(executor) {
        let result = (
          await session.driver.view, session.fakes.recorder.all, session.views - viewsBefore
        )
        await session.end()
        return result
      }
      executor.release()
      let creates = calls.count { $0 == .create("Dee") }
      let cancelled = calls.count { $0 == .cancelled(.create("Dee")) }
      guard view.destination == .none, view.contacts == ContactsSetup.sample, creates == count,
        cancelled == count, views == 4 * count
      else {
        throw WorkloadFailure(
          "contacts.sheet: \(count) cycles left \(view), after \(creates) creates, \(cancelled) "
            + "cancelled, \(views) root views; expected no destination, the three contacts, "
            + "\(count) creates, all cancelled, \(4 * count) root views")
      }
      return Outcome(operations: count, notifications: views)
    }
  }
}
