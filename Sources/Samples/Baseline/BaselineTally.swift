import Synchronization
import Workloads

/// The benchmark counter on the baseline's message loop, for the `dispatch` workloads.
public final class BaselineTally: TallySubject {
  struct Model: LoopModel {
    var state: TallyState
    mutating func handle(_ message: TallyAction) -> Never? {
      tally(&state, message)
      return nil
    }
    var view: TallyState { state }
  }

  private let loop: MessageLoop<Model>

  public init(_ setup: TallySetup) {
    loop = MessageLoop(Model(state: setup.state), defects: [])
    loop.performEffects { _ in }
    let count = setup.observers + setup.fanout
    let notify = setup.notify
    // Each observer a closure written where the loop takes it, so it is made in the loop's
    // generic representation (a function value made elsewhere would be called through a
    // reabstraction thunk). No observer, no view made or compared per message.
    if count == 0 {
      _ = loop.start(observer: nil)
    } else if count == 1 {
      _ = loop.start(observer: { notify($0) })
    } else {
      // Each function in an object the list keeps, called through it unretained: what the
      // architectures' kernel does, so that a fan-out measures the architecture, not a retain
      // and a release per observer that the baseline alone would pay. A stop from inside an
      // observer calls none of the others (R6).
      let observers = (0..<count).map { _ in Observer { notify($0) } }
      let gate = loop.gate
      _ = loop.start(observer: { state in
        observers.withUnsafeBufferPointer { observers in
          for index in observers.indices where !gate.isStopped {
            Unmanaged.passUnretained(observers[index])._withUnsafeGuaranteedRef {
              $0.notify(state)
            }
          }
        }
      })
    }
    loop.drain(perform: { _ in })
  }

  public func send(_ action: TallyAction, times: Int) {
    for _ in 0..<times { loop.send(action, isIntent: true, perform: { _ in }) }
  }

  public var state: TallyState { loop.view }

  public func stop() { loop.stop() }

  /// An observer's function, kept by reference.
  final class Observer: Sendable {
    let notify: @Sendable (TallyState) -> Void

    init(_ notify: @escaping @Sendable (TallyState) -> Void) { self.notify = notify }
  }
}
