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
    // No observer, no view made or compared per message.
    var observer: (@Sendable (TallyState) -> Void)?
    if count == 1 {
      observer = setup.notify
    } else if count > 1 {
      // Each function in an object the list keeps, called through it unretained: what the
      // architectures' kernel does, so that a fan-out measures the architecture, not a retain
      // and a release per observer that the baseline alone would pay.
      let observers = (0..<count).map { _ in Observer(setup.notify) }
      observer = { state in
        observers.withUnsafeBufferPointer { observers in
          for index in observers.indices {
            Unmanaged.passUnretained(observers[index])._withUnsafeGuaranteedRef {
              $0.notify(state)
            }
          }
        }
      }
    }
    _ = loop.start(observer: observer)
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
