import ArchitectureSpec
import Baseline
import Samples
import Testing
import Workloads

/// Every workload's check passes for every contestant, on a small run.
///
/// `lifecycle` is left to `arch compare` in CI: its check reads the process's heap, which tests
/// running in parallel change. So are the list and navigation workloads at 10,000 rows or
/// screens (the same code as at 100 or 10, on a longer list): in a debug build under
/// ThreadSanitizer they took the suite's two cores for minutes, and a conformance scenario
/// waiting for the thread pool timed out.
@Test(
  arguments: Workload.all.filter {
    $0.name != "lifecycle"
      && !([TodosApp.name, ContactsApp.name].contains($0.app) && $0.name.hasSuffix(".10000"))
  })
func workloadChecksPassForEveryContestant(_ workload: Workload) async throws {
  let operations = min(50, workload.operations)
  for contestant in Catalog.contestants where workload.isApplicable(to: contestant) {
    let trial = try #require(await workload.prepare(contestant, operations))
    let outcome = try await trial()
    #expect(outcome.operations == operations, "\(workload.name) · \(contestant.name)")
  }
}

/// The list workloads count each observer kind, and a row the operations did not change was
/// never notified (SPEC R11).
@Test func listWorkloadsCountNotificationsPerObserverKind() async throws {
  let toggle = ListWorkloads.workload(.toggle, rows: 100)
  for contestant in Catalog.contestants where toggle.isApplicable(to: contestant) {
    let trial = try #require(await toggle.prepare(contestant, 3))
    let outcome = try await trial()
    #expect(
      outcome.byKind
        == NotificationsByKind(
          root: 3, changedRows: 3, unchangedRows: 0, changedRowsObserved: 1,
          unchangedRowsObserved: 19), "\(contestant.name)")
  }
  let trial = try #require(
    await ListWorkloads.workload(.toggleAll, rows: 100).prepare(.baseline, 2))
  let toggleAll = try await trial()
  #expect(toggleAll.byKind?.changedRows == 40 && toggleAll.byKind?.changedRowsObserved == 20)
}

@Test func aGrowthExponentIsTheSlopeOnLogLogAxes() throws {
  let flat = try #require(Scaling.exponent([(100, 5), (1_000, 5), (10_000, 5)]))
  let linear = try #require(Scaling.exponent([(100, 1), (1_000, 10), (10_000, 100)]))
  let quadratic = try #require(Scaling.exponent([(10, 1), (100, 100)]))
  #expect(abs(flat) < 1e-9 && abs(linear - 1) < 1e-9 && abs(quadratic - 2) < 1e-9)
  #expect(Scaling.exponent([(100, 5)]) == nil)
}

@Test func observersAreNotifiedOncePerChangeAndNeverForNoChange() async throws {
  let workload = try #require(Workload.named("observe.100"))
  let trial = try #require(await workload.prepare(.baseline, 20))
  let outcome = try await trial()
  #expect(outcome.notifications == 2_000)
  #expect(outcome.notificationsPerOperation == 100)
}

@Test func aWorkloadThatDoesNotApplyPreparesNothing() async throws {
  let ticks = try #require(Workload.named("ticks"))
  #expect(!ticks.isApplicable(to: .bare))
  #expect(await ticks.prepare(.bare, 10) == nil)
}

@Test func typingIssuesExactlyOneSearchForTheLastQuery() async throws {
  let typing = try #require(Workload.named("typing"))
  let trial = try #require(await typing.prepare(.baseline, 30))
  _ = try await trial()
}

// MARK: - The checks catch wrong results

@Test func aRuntimeThatLosesIncrementsFailsDispatch() async throws {
  let failure = await failure(of: "dispatch", with: LosesEveryOtherIncrement.self)
  #expect(failure == "dispatch: 100 increments left the count at 50")
}

@Test func aRuntimeThatNotifiesTwiceFailsObserve() async throws {
  let failure = await failure(of: "observe.1", with: NotifiesTwice.self)
  #expect(failure == "observe.1: 100 changes with 1 observer(s) notified 200 time(s); expected 100")
}

@Test func aRuntimeThatNotifiesWithoutAChangeFailsObserve() async throws {
  let failure = await failure(of: "observe.1", with: NotifiesOnEveryAction.self)
  #expect(failure == "observe.1: actions that change nothing notified 10 time(s)")
}

@Test func aRuntimeThatSkipsTheCurrentValueOnSubscribeFailsObserve() async throws {
  let failure = await failure(of: "observe.100", with: SkipsCurrentValue.self)
  #expect(
    failure
      == "observe.100: subscribing 100 observer(s) delivered 0 current value(s); expected one each")
}

@Test func aLeakingRuntimeFailsLifecycle() async throws {
  let lifecycle = try #require(Workload.named("lifecycle"))
  let leaking = Contestant(name: "leaking", tally: nil, stopwatch: .leaking)
  let trial = try #require(await lifecycle.prepare(leaking, 2_000))
  await #expect(throws: WorkloadFailure.self) { try await trial() }
}

/// The message of the failure `workload` reports for a contestant running `subject`.
private func failure(of workload: String, with subject: any TallySubject.Type) async -> String? {
  guard let workload = Workload.named(workload),
    let trial = await workload.prepare(Contestant(name: "broken", tally: subject), 100)
  else { return nil }
  do {
    _ = try await trial()
    return nil
  } catch {
    return error.description
  }
}

extension Contestant {
  fileprivate static var baseline: Contestant { Catalog.contestants[0] }
}

#if canImport(Observation)
  import Observation

  /// An adapter without row objects: every row is read through one dictionary, so any change
  /// invalidates every row's reader (what a view reading the whole state gets).
  @MainActor @Observable
  final class CoarseObservation: ObservationSubject {
    private var rows: [Int: Bool] = [:]
    private(set) var count = 0

    init(rows: Int) async {
      for id in 1...rows { self.rows[id] = false }
    }

    func isDone(_ id: Int) -> Bool? { rows[id] }
    func toggle(_ id: Int) { rows[id]?.toggle() }
    func tick() { count += 1 }
    func settled() async {}
    func stop() {}
  }

  @Test func anAdapterThatInvalidatesEveryRowFailsTheToggleWorkload() async throws {
    let toggle = try #require(Workload.named("observation.toggle.10000"))
    var coarse = Contestant(name: "coarse", tally: nil)
    coarse.observation = CoarseObservation.self
    let trial = try #require(await toggle.prepare(coarse, 5))
    await #expect(throws: WorkloadFailure.self) { try await trial() }
  }

  @Test func everyArchitecturesAdapterInvalidatesOnlyTheToggledRow() async throws {
    let toggle = try #require(Workload.named("observation.toggle.10000"))
    for contestant in Catalog.contestants where contestant.hasObservation {
      let trial = try #require(await toggle.prepare(contestant, 20))
      let outcome = try await trial()
      #expect(outcome.operations == 20, "\(contestant.name)")
    }
  }
#endif
