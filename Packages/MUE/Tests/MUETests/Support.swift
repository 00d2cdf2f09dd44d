import Foundation
import Synchronization

@testable import MUE

/// A small app for the runtime tests: a count, effects that echo, save, wait and tick.
struct Tally: Equatable, Sendable, SmartCopy {
  var count = 0
  var results: [Int] = []
  var ticks = 0
  var failure: String?
}

enum TallyEvent: Sendable, Equatable {
  case increment
  case touch  // changes nothing
  case echo(Int)  // an effect that answers at once
  case echoBoth(Int, Int)  // two effects from one update
  case wait(Int)  // an effect on a gate, id .wait: the latest wins
  case cancelWait
  case startTimer
  case stopTimer
  case fail
  case stream(Int)  // a stream of 1...n
}

enum TallyEffect: Effect, Equatable {
  case echo(Int)
  case wait(Int)
  case timer
  case fail
  case stream(Int)

  enum Result: Sendable, Equatable {
    case echoed(Int)
    case tick
    case failed(String)
  }

  enum ID: Hashable, Sendable { case wait, timer }

  var id: ID? {
    switch self {
    case .wait: .wait
    case .timer: .timer
    case .echo, .fail, .stream: nil
    }
  }
}

struct TallyUpdate: Update {
  /// Starts with these effects (none by default).
  var initialEffects: [TallyEffect] = []

  func first(state: Tally) -> First<Tally, TallyEffect> {
    First(initialState: state, initialEffects: initialEffects)
  }

  func handle(event: TallyEvent, _ state: Tally) -> UpdateResult<Tally, TallyEffect> {
    switch event {
    case .increment: .newState(state: state.copy { $0.count += 1 })
    case .touch: .newState(state: state)
    case .echo(let value): .dispatchEffects(.echo(value))
    case .echoBoth(let a, let b): .dispatchEffects(.echo(a), .echo(b))
    case .wait(let value): .dispatchEffects(.wait(value))
    case .cancelWait: .cancel(.wait)
    case .startTimer: .dispatchEffects(.timer)
    case .stopTimer: .cancel(.timer)
    case .fail: .dispatchEffects(.fail)
    case .stream(let count): .dispatchEffects(.stream(count))
    }
  }

  func handle(result: TallyEffect.Result, _ state: Tally) -> UpdateResult<Tally, TallyEffect> {
    switch result {
    case .echoed(let value): .newState(state: state.copy { $0.results.append(value) })
    case .tick: .newState(state: state.copy { $0.ticks += 1 })
    case .failed(let message): .newState(state: state.copy(\.failure, message))
    }
  }
}

/// Runs the tally's effects: echoes at once, waits on `gate` (ignoring cancellation), ticks
/// when `ticks` yields.
struct TallyEffects: EffectHandler {
  var gate = Gate()
  var ticks: AsyncStream<Void> = .never
  let calls = Recorder<String>()

  func handle(_ effect: TallyEffect) async -> EffectResult<TallyEffect.Result> {
    calls.append("\(effect)")
    switch effect {
    case .echo(let value):
      return .single(.echoed(value))
    case .wait(let value):
      await withTaskCancellationHandler {
        await gate.wait()
      } onCancel: {
        calls.append("cancelled \(value)")
      }
      return .single(.echoed(value))
    case .timer:
      let ticks = self.ticks
      return .repeating(
        AsyncStream { continuation in
          let task = Task {
            for await _ in ticks { continuation.yield(.tick) }
            continuation.finish()
          }
          continuation.onTermination = { _ in task.cancel() }
        })
    case .fail:
      return .single(.failed("disk full"))
    case .stream(let count):
      return .repeating(
        AsyncStream { continuation in
          for value in 1...count { continuation.yield(.echoed(value)) }
          continuation.finish()
        })
    }
  }
}

/// A value effects wait for, ignoring cancellation, until the test opens it.
final class Gate: Sendable {
  private let state = Lock<(isOpen: Bool, waiters: [CheckedContinuation<Void, Never>])>(
    (false, []))

  func wait() async {
    await withCheckedContinuation { continuation in
      let isOpen = state.withLock { state in
        if !state.isOpen { state.waiters.append(continuation) }
        return state.isOpen
      }
      if isOpen { continuation.resume() }
    }
  }

  func open() {
    let waiters = state.withLock { state in
      state.isOpen = true
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }

  var waiting: Int { state.withLock { $0.waiters.count } }
}

/// Values collected from observers and effects, in order.
final class Recorder<Value: Sendable>: Sendable {
  private let values = Lock<[Value]>([])
  func append(_ value: Value) { values.withLock { $0.append(value) } }
  var all: [Value] { values.withLock { $0 } }
}

/// Runs `body` on `count` new threads released together; returns when all are done.
func onThreads(_ count: Int, _ body: @escaping @Sendable () -> Void) async {
  let ready = Atomic(0)
  let finished = Atomic(0)
  await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
    for _ in 0..<count {
      Thread {
        ready.add(1, ordering: .sequentiallyConsistent)
        while ready.load(ordering: .sequentiallyConsistent) < count { sched_yield() }
        body()
        if finished.add(1, ordering: .sequentiallyConsistent).newValue == count {
          continuation.resume()
        }
      }.start()
    }
  }
}

/// Waits, without sleeping, until `condition` holds, yielding to other tasks in between.
func eventually(_ condition: () -> Bool) async {
  while !condition() { await Task.yield() }
}

extension AsyncStream where Element == Void {
  /// A stream that never yields; it ends only when its consumer is cancelled.
  static var never: AsyncStream<Void> { AsyncStream { _ in } }
}

typealias TallyLoop = Loop<TallyUpdate, TallyEffects>

func makeLoop(
  _ update: TallyUpdate = TallyUpdate(), effects: TallyEffects = TallyEffects(),
  state: Tally = Tally()
) -> TallyLoop {
  Loop(update: update, effectHandler: effects, state: state)
}
