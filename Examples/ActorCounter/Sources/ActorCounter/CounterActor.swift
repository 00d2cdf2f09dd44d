import ArchitectureSpec
import Synchronization

/// The counter of SPEC §2 as an actor: every intent and every effect result is a call on the
/// actor, so messages are processed one at a time (R2) without a lock.
///
/// Saves and log lines are written by a task of their own, off the actor; a ``RunGate`` makes
/// each begin before `stop()` (or the release) returns, or never (R6). A check of "still
/// running" alone would leave a window between the check and the call, which the kit's race
/// probe finds.
public actor CounterActor {
  private var count: Int?
  private var isStopped = false
  private var observer: (@Sendable (CounterView) -> Void)?
  private let environment: CounterEnvironment
  private let work = Work()
  private let saves: AsyncStream<Int>.Continuation
  /// Where observer calls, saves and log lines begin: before `stop()` or ``close()`` returns,
  /// or never.
  private let gate = RunGate()

  public init(environment: CounterEnvironment) {
    self.environment = environment
    let (stream, saves) = AsyncStream.makeStream(of: Int.self)
    self.saves = saves
    // One writer of saves, in order: each begins after the previous one logged (C5).
    work.add(
      Task(executorPreference: environment.executor) { [environment, gate] in
        for await count in stream {
          do {
            try await gate.call(on: environment.executor) {
              try await environment.storage.save(count)
            }
            gate.ifRunning { environment.log.log(CounterApp.savedMessage(count)) }
          } catch {
            guard !Task.isCancelled else { return }
            gate.ifRunning { environment.log.log(CounterApp.saveFailedMessage) }
          }
        }
      })
  }

  /// Released, it behaves as stopped: nothing begins once the last reference is gone.
  deinit {
    gate.stop()
    saves.finish()
    work.cancelAll()
  }

  /// What the user sees now.
  public var view: CounterView { count.map { .ready(count: $0) } ?? .loading }

  /// Starts: shows `Loading…` and reads the stored count.
  public func start(observer: @escaping @Sendable (CounterView) -> Void) {
    guard !isStopped, self.observer == nil else { return }
    self.observer = observer
    gate.ifRunning { observer(view) }
    let storage = environment.storage
    work.add(
      Task(executorPreference: environment.executor) { [weak self] in
        let result = await Result { try await storage.load() }
        guard !Task.isCancelled else { return }
        await self?.loaded(result)
      })
  }

  /// Handles one intent.
  public func send(_ intent: CounterIntent) {
    guard !isStopped, let old = count else { return }
    let new =
      switch intent {
      case .increment: min(old + 1, CounterApp.maximumCount)
      case .decrement: max(old - 1, 0)
      case .reset: 0
      }
    guard new != old else { return }
    count = new
    gate.ifRunning { observer?(view) }
    saves.yield(new)
  }

  /// Returns once every call queued on the actor before it has run: the load's result hops
  /// from the environment's executor onto the actor, where the kit's executor cannot see it.
  public func barrier() {}

  /// Closes the gate at once, from any thread, without waiting for the actor: no observer call,
  /// save or log begins once it returns. For the driver's release: intents already handed to
  /// the actor may still run on it, but nothing they would begin does.
  public nonisolated func close() { gate.stop() }

  /// Stops: nothing is applied or begun any more.
  public func stop() {
    isStopped = true
    observer = nil
    gate.stop()
    saves.finish()
    work.cancelAll()
  }

  private func loaded(_ result: Result<Int?, any Error>) {
    guard !isStopped, count == nil else { return }
    switch result {
    case .success(let stored?) where CounterApp.validCounts.contains(stored): count = stored
    case .success(nil): count = 0
    case .success, .failure:
      count = 0
      gate.ifRunning { environment.log.log(CounterApp.unreadableCountMessage) }
    }
    gate.ifRunning { observer?(view) }
  }
}

/// The actor's tasks, cancellable from `deinit` (which cannot await the actor).
private final class Work: Sendable {
  private let tasks = Mutex<[Task<Void, Never>]>([])
  func add(_ task: Task<Void, Never>) { tasks.withLock { $0.append(task) } }
  func cancelAll() {
    for task in tasks.withLock({ tasks in
      defer { tasks = [] }
      return tasks
    }) { task.cancel() }
  }
}

extension Result where Failure == any Error {
  init(catching body: () async throws -> Success) async {
    do { self = .success(try await body()) } catch { self = .failure(error) }
  }
}
