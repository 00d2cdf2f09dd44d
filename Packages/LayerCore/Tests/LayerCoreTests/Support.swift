import Foundation
import Synchronization

@testable import LayerCore

struct Request: Sendable, Equatable {
  var id: Int
  var value: Int
}

/// The test core's state: a count, and what the work layer should be doing.
struct Counter: Sendable, Equatable {
  var count = 0
  var results: [Int] = []
  var ticks = 0
  var failure: String?
  var request: Request?
  var requests = 0
  var isTimerOn = false
  var isFailing = false
}

enum Event: Sendable, Equatable {
  case loaded(Int)
  case increment, touch
  case wait(Int)
  case cancelWait, startTimer, stopTimer, fail
  case echoed(Int)
  case tick
  case failed(String)
}

/// A counter core: the state is `nil` until storage loads; the view layer gets the count, the
/// work layer what to do.
struct TallyCore: Core {
  let view: ViewMachine
  let work: WorkMachine
  var load: Int? = 0

  var layers: [Layer<Counter, Event>] {
    [
      .layer(view.machine, stateMapper: { $0.count }, eventMapper: { $0 }),
      .producer(StorageMachine(value: load).machine, mapper: { .loaded($0) }),
      .layer(work.machine, stateMapper: WorkInput.init, eventMapper: { $0 }),
    ]
  }

  func reduce(state: Counter?, event: Event) -> ReducerResult<Counter> {
    if case .loaded(let count) = event { return .set(Counter(count: count)) }
    guard var state else { return .skip }
    switch event {
    case .loaded: return .skip
    case .increment: state.count += 1
    case .touch: return .skip
    case .wait(let value):
      state.requests += 1
      state.request = Request(id: state.requests, value: value)
    case .cancelWait: state.request = nil
    case .startTimer: state.isTimerOn = true
    case .stopTimer: state.isTimerOn = false
    case .fail: state.isFailing = true
    case .echoed(let value):
      state.results.append(value)
      state.request = nil
    case .tick: state.ticks += 1
    case .failed(let message):
      state.failure = message
      state.isFailing = false
    }
    return .set(state)
  }
}

/// Records every count; optionally reacts to one by emitting an event.
final class ViewMachine: ChildMachine {
  let renders = Recorder<Int?>()
  let react: (@Sendable (Int, Handler<Event>) -> Void)?
  private let depth = Atomic(0)
  let maximumDepth = Atomic(0)
  private let callback = Lock<Handler<Event>?>(nil)

  init(react: (@Sendable (Int, Handler<Event>) -> Void)? = nil) { self.react = react }

  func process(input: Int?, callback: Handler<Event>) {
    let depth = self.depth.add(1, ordering: .relaxed).newValue
    maximumDepth.max(depth, ordering: .relaxed)
    defer { self.depth.subtract(1, ordering: .relaxed) }
    renders.append(input)
    if input == nil { self.callback.withLock { $0 = callback } }
    if let input { react?(input, callback) }
  }

  /// Emits `event` as the UI would, from outside `process`.
  func emit(_ event: Event) { callback.withLock { $0 }?(event) }
}

/// Loads once, on the first `process(nil)`, synchronously.
struct StorageMachine: ChildMachine {
  let value: Int?
  func process(input: Never?, callback: Handler<Int>) {
    if input == nil, let value { callback(value) }
  }
}

/// What the work layer gets: the request to serve, whether a timer should run, whether to fail.
struct WorkInput: Sendable, Equatable {
  var request: Request?
  var isTimerOn: Bool
  var isFailing: Bool
  init(_ state: Counter) {
    request = state.request
    isTimerOn = state.isTimerOn
    isFailing = state.isFailing
  }
}

/// Starts and cancels work as the state asks: waits on a gate ignoring cancellation, ticks when
/// `ticks` yields, fails.
final class WorkMachine: ChildMachine {
  let calls = Recorder<String>()
  let gate = Gate()
  let ticks: AsyncStream<Void>
  private let last = Lock<WorkInput?>(nil)

  init(ticks: AsyncStream<Void> = AsyncStream { _ in }) { self.ticks = ticks }

  func process(input: WorkInput?, callback: Handler<Event>) {
    guard let input else { return }
    let previous = last.withLock { last in
      defer { last = input }
      return last
    }
    if input.request != previous?.request {
      if let request = input.request {
        calls.append("wait(\(request.value))")
        let gate = self.gate
        let calls = self.calls
        callback.run(id: "wait") { send in
          await withTaskCancellationHandler {
            await gate.wait()
          } onCancel: {
            calls.append("cancelled \(request.value)")
          }
          send(.echoed(request.value))
        }
      } else {
        callback.cancel(id: "wait")
      }
    }
    if input.isTimerOn != previous?.isTimerOn ?? false {
      if input.isTimerOn {
        let ticks = self.ticks
        callback.run(id: "timer", lifetime: .untilCancelled) { send in
          for await _ in ticks { send(.tick) }
        }
      } else {
        callback.cancel(id: "timer")
      }
    }
    if input.isFailing, previous?.isFailing != true {
      callback.run { send in send(.failed("disk full")) }
    }
  }
}
/// A value work waits for, ignoring cancellation, until the test opens it.
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

/// Values collected from handlers, in order.
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

/// Waits, without sleeping, until `condition` holds, yielding in between.
func eventually(_ condition: () -> Bool) async {
  while !condition() { await Task.yield() }
}
