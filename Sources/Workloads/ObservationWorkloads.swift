#if canImport(Observation)
  import ArchitectureSpec
  import Observation
  import Synchronization

  /// A row of the list the `observation.*` workloads toggle.
  public struct ObservedRow: Equatable, Sendable {
    public var done: Bool

    public init(done: Bool = false) { self.done = done }
  }

  /// One architecture's Observation adapter — the path a SwiftUI app takes — around a list of
  /// rows and a count, for the `observation.*` workloads.
  ///
  /// A conforming type builds its runtime the way a user of that architecture would, follows
  /// it with the architecture's own adapter (the `@Observable` model with one object per row),
  /// and reads rows and the count only through that adapter, on the main actor.
  @MainActor
  public protocol ObservationSubject: AnyObject, SendableMetatype {
    /// `rows` rows with ids 1 through `rows`, none done, and a count at 0, already shown by the
    /// adapter when this returns.
    init(rows: Int) async

    /// Whether row `id` is done, as its row object shows it: read inside
    /// `withObservationTracking`, it tracks that row alone.
    func isDone(_ id: Int) -> Bool?

    /// The count, as the adapter shows it (what a stopwatch's view reads).
    var count: Int { get }

    /// Toggles row `id`, sent to the runtime as a SwiftUI button would.
    func toggle(_ id: Int)

    /// Adds one to the count: a tick.
    func tick()

    /// Returns once the adapter shows everything sent so far.
    func settled() async

    /// Stops the runtime.
    func stop()
  }

  /// The workloads of the SwiftUI path: what a change costs from the runtime to the adapter's
  /// objects on the main actor, and which readers it invalidates.
  ///
  /// - `observation.toggle.10000`: one of 20 read rows of a 10,000-row list toggled; exactly
  ///   that row's reader is invalidated (checked every toggle).
  /// - `observation.tick`: the count incremented and read, as a stopwatch's tick is.
  public enum ObservationWorkloads {
    /// The list's length.
    public static let rows = 10_000

    /// Every Observation workload.
    public static let all: [Workload] = [toggle, tick]

    static let toggle = Workload(
      name: "observation.toggle.\(rows)", app: TodosApp.name, operation: "toggle",
      operations: 2_000, runsObservation: true
    ) { contestant, count in
      guard let subject = contestant.observation else { return nil }
      let run = await ObservationRun(subject, rows: rows)
      return Trial {
        await run.toggle(count)
      } finish: { () throws(WorkloadFailure) -> Outcome in
        try await run.finish(operations: count)
      }
    }

    static let tick = Workload(
      name: "observation.tick", app: StopwatchApp.name, operation: "tick", operations: 2_000,
      runsObservation: true
    ) { contestant, count in
      guard let subject = contestant.observation else { return nil }
      let run = await ObservationRun(subject, rows: 1)
      return Trial {
        await run.tick(count)
      } finish: { () throws(WorkloadFailure) -> Outcome in
        try await run.finish(operations: count)
      }
    }
  }

  /// Readers invalidated, as `onChange` (any thread) reports them.
  final class Invalidations: Sendable {
    let ids = Mutex<[Int]>([])
  }

  /// One run of an Observation workload, on the main actor: the subject, its tracked readers,
  /// and which of them were invalidated.
  @MainActor
  final class ObservationRun {
    private let subject: any ObservationSubject
    private let observed: [Int]
    /// The readers invalidated since the last look: a row's id, or 0 for the count.
    private let invalidated = Invalidations()
    private var failure: String?
    private var toggles: [Int: Int] = [:]
    private var ticks = 0

    init(_ type: any ObservationSubject.Type, rows: Int) async {
      subject = await type.init(rows: rows)
      // The list's workload reads rows (as row views do), the tick's the count.
      observed = rows >= 20 ? ListWorkloads.observedIDs(rows: rows) : []
      for id in observed { track(row: id) }
      if observed.isEmpty { trackCount() }
    }

    /// Reads row `id` as a row view would, and notes when that read is invalidated.
    private func track(row id: Int) {
      withObservationTracking {
        _ = subject.isDone(id)
      } onChange: { [invalidated] in
        invalidated.ids.withLock { $0.append(id) }
      }
    }

    private func trackCount() {
      withObservationTracking {
        _ = subject.count
      } onChange: { [invalidated] in
        invalidated.ids.withLock { $0.append(0) }
      }
    }

    /// `count` toggles of the read rows in turn, each shown before the next.
    func toggle(_ count: Int) async {
      for index in 0..<count {
        let id = observed[index % observed.count]
        subject.toggle(id)
        await subject.settled()
        let fired = invalidated.ids.withLock { fired in
          defer { fired.removeAll(keepingCapacity: true) }
          return fired
        }
        if fired != [id], failure == nil {
          failure = "toggling row \(id) invalidated the readers of \(fired); expected [\(id)]"
        }
        toggles[id, default: 0] += 1
        track(row: id)
      }
    }

    /// `count` ticks, each shown before the next.
    func tick(_ count: Int) async {
      for _ in 0..<count {
        subject.tick()
        await subject.settled()
        let fired = invalidated.ids.withLock { fired in
          defer { fired.removeAll(keepingCapacity: true) }
          return fired
        }
        if fired != [0], failure == nil {
          failure = "a tick invalidated the readers of \(fired); expected the count's alone"
        }
        ticks += 1
        trackCount()
      }
    }

    /// Checks what the adapter shows against what was sent, and stops the runtime.
    func finish(operations: Int) throws(WorkloadFailure) -> Outcome {
      defer { subject.stop() }
      if let failure { throw WorkloadFailure(failure) }
      for (id, times) in toggles {
        let shown = subject.isDone(id)
        guard shown == !times.isMultiple(of: 2) else {
          throw WorkloadFailure(
            "row \(id), toggled \(times) times, shows done: \(String(describing: shown))")
        }
      }
      guard subject.count == ticks else {
        throw WorkloadFailure("the count shows \(subject.count) after \(ticks) ticks")
      }
      return Outcome(operations: operations, notifications: operations)
    }
  }
#endif
