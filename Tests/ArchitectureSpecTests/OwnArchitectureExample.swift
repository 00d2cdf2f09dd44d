// The README's worked example: checking an architecture of your own against the spec.
// It compiles and runs as part of `swift test`, so the example cannot drift from the kit.
import ArchitectureSpec
import ArchitectureSpecTesting
import Baseline
import Kernel
import Testing

/// A small counter runtime of "your own": one lock, a queue, one task that writes the saves in
/// order (C5), and a ``RunGate`` so that nothing begins once `stop()` returned (R6).
final class MyCounter: Sendable {
  private struct State {
    var count: Int?
    var queue: [CounterIntent] = []
    var isDraining = false
    var isStopped = false
    var observer: (@Sendable (CounterView) -> Void)?
    var view: CounterView { count.map { .ready(count: $0) } ?? .loading }
  }

  private let state = Lock(State())
  private let tasks = Lock<[Task<Void, Never>]>([])
  private let environment: CounterEnvironment
  /// Observer calls, saves and log lines begin through the gate: before stop returns, or never.
  private let gate = RunGate()
  private let saves: AsyncStream<Int>.Continuation
  private let pendingSaves: AsyncStream<Int>

  init(environment: CounterEnvironment) {
    self.environment = environment
    (pendingSaves, saves) = AsyncStream.makeStream(of: Int.self)
  }

  /// Released, it behaves as stopped.
  deinit { stop() }

  var view: CounterView { state.withLock(\.view) }

  func start(observer: @escaping @Sendable (CounterView) -> Void) {
    state.withLock { $0.observer = observer }
    gate.ifRunning { observer(.loading) }
    let load = Task(executorPreference: environment.executor) { [weak self, environment, gate] in
      var count = 0
      do {
        let stored = try await environment.storage.load()
        guard !Task.isCancelled else { return }
        if let stored, CounterApp.validCounts.contains(stored) {
          count = stored
        } else if stored != nil {
          gate.ifRunning { environment.log.log(CounterApp.unreadableCountMessage) }
        }
      } catch {
        guard !Task.isCancelled else { return }
        gate.ifRunning { environment.log.log(CounterApp.unreadableCountMessage) }
      }
      let notify = self?.state.withLock { state in
        state.count = count
        return state.observer
      }
      gate.ifRunning { notify??(.ready(count: count)) }
    }
    // One writer: each save begins after the previous one ended and logged (C5).
    let writer = Task(executorPreference: environment.executor) {
      [pendingSaves, environment, gate] in
      for await count in pendingSaves {
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
    }
    tasks.withLock { $0 += [load, writer] }
  }

  func send(_ intent: CounterIntent) {
    let drains = state.withLock { state in
      guard state.count != nil, !state.isStopped else { return false }
      state.queue.append(intent)
      defer { state.isDraining = true }
      return !state.isDraining
    }
    guard drains else { return }
    while let (view, save, observer) = next() {
      gate.ifRunning { observer?(view) }
      saves.yield(save)
    }
  }

  private func next() -> (CounterView, Int, (@Sendable (CounterView) -> Void)?)? {
    state.withLock { state in
      while !state.queue.isEmpty, !state.isStopped, let count = state.count {
        let intent = state.queue.removeFirst()
        let new =
          switch intent {
          case .increment: min(count + 1, CounterApp.maximumCount)
          case .decrement: max(count - 1, 0)
          case .reset: 0
          }
        guard new != count else { continue }
        state.count = new
        return (state.view, new, state.observer)
      }
      state.isDraining = false
      return nil
    }
  }

  func stop() {
    state.withLock {
      $0.isStopped = true
      $0.observer = nil
    }
    gate.stop()
    saves.finish()
    for task in tasks.withLock({ $0 }) { task.cancel() }
  }
}

/// The driver: five members that connect the runtime to the kit.
struct MyCounterDriver: AppDriver {
  typealias App = CounterApp
  let counter: MyCounter

  func start(observer: @escaping @Sendable (CounterView) -> Void) async {
    counter.start(observer: observer)
  }
  func send(_ intent: CounterIntent) { counter.send(intent) }
  var view: CounterView { get async { counter.view } }
  func idle() async {}  // every task runs on environment.executor, which the kit watches
  func stop() async { counter.stop() }
}

let mine = Implementation<CounterApp>(architecture: "mine") { environment in
  MyCounterDriver(counter: MyCounter(environment: environment))
}

@Suite("Your own architecture (the README example)")
struct OwnArchitectureExample {
  @Test(arguments: CounterApp.scenarios.map(\.name))
  func scenario(_ name: String) async throws {
    let scenario = try #require(CounterApp.scenarios.first { $0.name == name })
    await expectConformance(mine, scenario: scenario, reference: .baseline)
  }

  @Test func randomPrograms() async {
    await expectSameTraces(mine, reference: .baseline, programs: 200)
  }
}
