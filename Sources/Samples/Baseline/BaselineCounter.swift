import ArchitectureSpec
import Kernel

// side-by-side: counter wiring
/// The counter in plain Swift: a value model, a serial message loop, and tasks that call the
/// environment directly.
public final class BaselineCounter: Sendable {
  // side-by-side: counter state
  struct Model: LoopModel {
    // side-by-side: counter intents
    enum Message {
      case intent(CounterIntent)
      case loaded(Int?)
      case loadFailed
    }

    // side-by-side: counter effects
    enum Effect {
      case save(Int)
      case log(String)
    }

    // side-by-side: counter state
    var isLoaded = false
    var count = 0

    // side-by-side: counter update+effects
    mutating func handle(_ message: Message) -> Effect? {
      switch message {
      case .loaded(let stored):
        guard !isLoaded else { return nil }
        isLoaded = true
        guard let stored else { return nil }
        guard CounterApp.validCounts.contains(stored) else {
          return .log(CounterApp.unreadableCountMessage)
        }
        count = stored
        return nil
      case .loadFailed:
        guard !isLoaded else { return nil }
        isLoaded = true
        return .log(CounterApp.unreadableCountMessage)
      case .intent(let intent):
        guard isLoaded else { return nil }
        let old = count
        switch intent {
        case .increment: count = min(count + 1, CounterApp.maximumCount)
        case .decrement: count = max(count - 1, 0)
        case .reset: count = 0
        }
        return count == old ? nil : .save(count)
      }
    }

    // side-by-side: counter wiring
    var view: CounterView { isLoaded ? .ready(count: count) : .loading }
    // side-by-side: end
  }

  // side-by-side: counter wiring
  private let loop: MessageLoop<Model>
  private let effects: CounterEffects
  private let defects: BaselineDefects

  /// Creates a counter that does nothing until started.
  public convenience init(environment: CounterEnvironment) {
    self.init(environment: environment, defects: [])
  }

  package init(environment: CounterEnvironment, defects: BaselineDefects) {
    self.defects = defects
    loop = MessageLoop(
      Model(), defects: defects, executor: environment.executor)
    effects = CounterEffects(environment: environment, gate: loop.gate, defects: defects)
    // Results reach the loop, not this object: an effect never keeps the app alive, so
    // releasing it stops it even while a result is being handled (R6).
    loop.performEffects(with: effects.perform)
    effects.connect { [weak loop, weak effects] message in
      guard let loop, let effects else { return }
      loop.send(message, isIntent: false, perform: effects.perform)
    }
  }

  /// Released, the counter behaves as stopped: queued intents are dropped, saves cancelled.
  deinit { stop() }

  /// The current view.
  public var view: CounterView { loop.view }

  // side-by-side: counter effects+wiring
  /// Starts: shows `Loading…`, reads the stored count, and starts writing saves in order.
  public func start(observer: @escaping @Sendable (CounterView) -> Void) {
    guard loop.start(observer: observer) else { return }
    effects.start()
    loop.drain(perform: effects.perform)
  }

  // side-by-side: counter wiring
  /// Sends an intent; safe from any thread.
  public func send(_ intent: CounterIntent) {
    if defects.contains(.losesConcurrentUpdates) {
      loop.sendUnserialized(.intent(intent), perform: effects.perform)
    } else {
      loop.send(.intent(intent), isIntent: true, perform: effects.perform)
    }
  }

  /// Stops: later intents and results are ignored and pending work is cancelled.
  public func stop() {
    loop.stop()
    if !defects.contains(.appliesResultsAfterStop) { effects.stop() }
  }

  // side-by-side: counter effects
  // side-by-side: end
}

// side-by-side: counter effects
/// The counter's effects: the load at start, and saves written one after the other, each
/// followed by its log line. The shell runs its counter child with these too.
final class CounterEffects: Sendable {
  private enum Slot { case load, saves }

  private let environment: CounterEnvironment
  /// The owner's gate: a save or a log begins only while it is open (R6).
  private let gate: StopGate
  private let defects: BaselineDefects
  private let tasks = TaskSlots<Slot>()
  private let saves: AsyncStream<Int>.Continuation
  private let pendingSaves: AsyncStream<Int>
  private let relay = Relay<BaselineCounter.Model.Message>()

  init(environment: CounterEnvironment, gate: StopGate, defects: BaselineDefects) {
    self.environment = environment
    self.gate = gate
    self.defects = defects
    (pendingSaves, saves) = AsyncStream.makeStream(of: Int.self)
  }

  deinit { saves.finish() }

  /// Where results go; the closure must not hold its owner strongly.
  func connect(_ deliver: @escaping @Sendable (BaselineCounter.Model.Message) -> Void) {
    relay.connect(deliver)
  }

  /// Reads the stored count and starts the writer of saves.
  func start() {
    let storage = environment.storage
    let dropsResult = defects.contains(.losesStartupEvent)
    tasks.replace(
      .load,
      with: startEffectTask(on: environment.executor) { [relay] in
        let message: BaselineCounter.Model.Message
        do { message = .loaded(try await storage.load()) } catch { message = .loadFailed }
        guard !Task.isCancelled, !dropsResult else { return }
        relay.send(message)
      })
    tasks.replace(
      .saves,
      with: startEffectTask(on: environment.executor) {
        [pendingSaves, environment, gate, defects] in
        for await count in pendingSaves {
          guard !Task.isCancelled else { return }
          // Mutation point (tests only): every save on a task of its own, not waiting for the
          // one before it to end.
          if defects.contains(.overlapsSaves) {
            _ = startEffectTask(on: environment.executor) {
              do {
                try await environment.storage.save(count)
                gate.ifOpen { environment.log.log(CounterApp.savedMessage(count)) }
              } catch {
                gate.ifOpen { environment.log.log(CounterApp.saveFailedMessage) }
              }
            }
            continue
          }
          // Mutation point (tests only): the log written before the save.
          if defects.contains(.logsBeforeSaving) {
            gate.ifOpen { environment.log.log(CounterApp.savedMessage(count)) }
          }
          do {
            if defects.contains(.logsOutsideGate) {
              // Mutation point (tests only): checked, then begun outside the gate.
              guard !gate.isStopped else { return }
              try await environment.storage.save(count)
            } else {
              try await gate.call(on: environment.executor) {
                try await environment.storage.save(count)
              }
            }
            guard !Task.isCancelled else { return }
            if defects.contains(.logsOutsideGate) {
              // Mutation point (tests only): checked, then written outside the gate.
              guard !gate.isStopped else { return }
              environment.log.log(CounterApp.savedMessage(count))
            } else if !defects.contains(.logsBeforeSaving) {
              gate.ifOpen { environment.log.log(CounterApp.savedMessage(count)) }
            }
          } catch {
            guard !Task.isCancelled, !gate.isStopped else { return }
            gate.ifOpen { environment.log.log(CounterApp.saveFailedMessage) }
          }
        }
      })
  }

  func perform(_ effect: BaselineCounter.Model.Effect) {
    switch effect {
    case .save(let count): saves.yield(count)
    case .log(let message): environment.log.log(message)
    }
  }

  func stop() {
    saves.finish()
    tasks.cancelAll()
  }
}
// side-by-side: end
