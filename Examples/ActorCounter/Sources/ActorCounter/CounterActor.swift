import ArchitectureSpec
import Synchronization

/// The counter of SPEC §2 as an actor: every intent and every effect result is a call on the
/// actor, so messages are processed one at a time (R2) without a lock.
public actor CounterActor {
  private var count: Int?
  private var isStopped = false
  private var observer: (@Sendable (CounterView) -> Void)?
  private let environment: CounterEnvironment
  private let work = Work()
  private let saves: AsyncStream<Int>.Continuation

  public init(environment: CounterEnvironment) {
    self.environment = environment
    let (stream, saves) = AsyncStream.makeStream(of: Int.self)
    self.saves = saves
    // One writer of saves, in order: each begins after the previous one logged (C5).
    work.add(
      Task(executorPreference: environment.executor) { [environment] in
        for await count in stream {
          do {
            try await environment.storage.save(count)
            guard !Task.isCancelled else { return }
            environment.log.log(CounterApp.savedMessage(count))
          } catch {
            guard !Task.isCancelled else { return }
            environment.log.log(CounterApp.saveFailedMessage)
          }
        }
      })
  }

  deinit {
    saves.finish()
    work.cancelAll()
  }

  /// What the user sees now.
  public var view: CounterView { count.map { .ready(count: $0) } ?? .loading }

  /// Starts: shows `Loading…` and reads the stored count.
  public func start(observer: @escaping @Sendable (CounterView) -> Void) {
    guard !isStopped, self.observer == nil else { return }
    self.observer = observer
    observer(view)
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
    observer?(view)
    saves.yield(new)
  }

  /// Returns once every call queued on the actor before it has run: the load's result hops
  /// from the environment's executor onto the actor, where the kit's executor cannot see it.
  public func barrier() {}

  /// Stops: nothing is applied or begun any more.
  public func stop() {
    isStopped = true
    observer = nil
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
      environment.log.log(CounterApp.unreadableCountMessage)
    }
    observer?(view)
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
