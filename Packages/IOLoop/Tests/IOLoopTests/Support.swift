import Foundation
import Synchronization

@testable import IOLoop

enum ViewIO: IOType {
  enum Output: Sendable, Equatable {
    case render(Int)
  }
  typealias Input = Intent
}

enum Intent: Sendable, Equatable {
  case increment, incrementQuietly, touch
  case wait(Int)
  case cancelWait, startTimer, stopTimer, fail
  case echoBoth(Int, Int)
  case countdown(Int)
}

enum WorkIO: IOType {
  enum Output: Sendable, Equatable {
    case echo(Int)
    case wait(Int)
    case cancelWait
    case startTimer
    case stopTimer
    case fail
  }
  enum Input: Sendable, Equatable {
    case echoed(Int)
    case tick
    case failed(String)
  }
}

/// The test app: a count rendered on every change, and work whose results it records.
struct Tally: PureApp, Equatable {
  typealias Input = IOInput<ViewIO, WorkIO>
  typealias Outputs = IOOutputs<ViewIO, WorkIO>

  var count = 0
  var results: [Int] = []
  var ticks = 0
  var stopAfterTicks: Int?
  var failure: String?
  var isCountingDown = false

  static func start() -> (Tally, Outputs) { (Tally(), Outputs([.render(0)], [])) }

  func run(input: Input) -> (Tally, Outputs) {
    var next = self
    switch input.values {
    case (let intent?, _):
      switch intent {
      case .increment:
        next.count += 1
        return (next, Outputs([.render(next.count)], []))
      case .incrementQuietly:
        next.count += 1
        return (next, .none)
      case .touch: return (self, .none)
      case .wait(let value): return (self, Outputs([], [.wait(value)]))
      case .cancelWait: return (self, Outputs([], [.cancelWait]))
      case .startTimer: return (self, Outputs([], [.startTimer]))
      case .stopTimer: return (self, Outputs([], [.stopTimer]))
      case .fail: return (self, Outputs([], [.fail]))
      case .echoBoth(let a, let b): return (self, Outputs([.render(count)], [.echo(a), .echo(b)]))
      case .countdown(let from):
        next.isCountingDown = true
        return (next, Outputs([], [.echo(from)]))
      }
    case (nil, let work?):
      switch work {
      case .echoed(let value):
        next.results.append(value)
        // A countdown echoes until 0, then asks for nothing: the program can end.
        let more: [WorkIO.Output] = isCountingDown && value > 0 ? [.echo(value - 1)] : []
        return (next, Outputs([], more))
      case .tick:
        next.ticks += 1
        let stop: [WorkIO.Output] = next.ticks == stopAfterTicks ? [.stopTimer] : []
        return (next, Outputs([], stop))
      case .failed(let message):
        next.failure = message
        return (next, .none)
      }
    case (nil, nil):
      return (self, .none)
    }
  }
}

/// Records renders; optionally reacts to them by sending an input back.
struct ViewHandler: IOHandler {
  typealias IO = ViewIO
  let renders = Recorder<Int>()
  let calls: Recorder<String>
  var react: (@Sendable (Int, IOContext<ViewIO>) -> Void)?

  func handle(_ output: ViewIO.Output, context: IOContext<ViewIO>) {
    guard case .render(let count) = output else { return }
    calls.append("render(\(count))")
    renders.append(count)
    react?(count, context)
  }
}

/// Echoes at once, waits on a gate ignoring cancellation, ticks when `ticks` yields.
struct WorkHandler: IOHandler {
  typealias IO = WorkIO
  let calls: Recorder<String>
  var gate = Gate()
  var ticks: AsyncStream<Void> = AsyncStream { _ in }

  func handle(_ output: WorkIO.Output, context: IOContext<WorkIO>) {
    calls.append("\(output)")
    switch output {
    case .echo(let value):
      context.send(.echoed(value))
    case .wait(let value):
      let gate = self.gate
      let calls = self.calls
      context.run(id: "wait") { send in
        await withTaskCancellationHandler {
          await gate.wait()
        } onCancel: {
          calls.append("cancelled \(value)")
        }
        send(.echoed(value))
      }
    case .cancelWait:
      context.cancel(id: "wait")
    case .startTimer:
      let ticks = self.ticks
      context.run(id: "timer", lifetime: .untilCancelled) { send in
        for await _ in ticks { send(.tick) }
      }
    case .stopTimer:
      context.cancel(id: "timer")
    case .fail:
      context.run { send in send(.failed("disk full")) }
    }
  }
}

typealias TallyMain = Main<Tally, ViewHandler, WorkHandler>

func makeMain(
  view: ViewHandler? = nil, work: WorkHandler? = nil, calls: Recorder<String> = Recorder()
) -> TallyMain {
  Main(
    app: Tally.self, handlers: view ?? ViewHandler(calls: calls),
    work ?? WorkHandler(calls: calls))
}

/// A started program whose work handler the test controls, with the calls both handlers record.
func startedWithWork() -> (TallyMain, WorkHandler, Recorder<String>) {
  let calls = Recorder<String>()
  let work = WorkHandler(calls: calls)
  let main = makeMain(work: work, calls: calls)
  main.start()
  return (main, work, calls)
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
  func removeAll() { values.withLock { $0.removeAll() } }
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
