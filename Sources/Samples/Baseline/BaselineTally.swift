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
    let observers = Array(repeating: setup.notify, count: setup.observers + setup.fanout)
    // No observer, no view made or compared per message.
    var observer: (@Sendable (TallyState) -> Void)?
    if observers.count == 1 {
      observer = observers[0]
    } else if !observers.isEmpty {
      observer = { state in
        for observer in observers { observer(state) }
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
}
