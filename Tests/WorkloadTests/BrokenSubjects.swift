import ArchitectureSpec
import Baseline
import Kernel
import Workloads

/// Runtimes with one defect each, to prove the workloads' checks can fail.
class BrokenSubject: TallySubject, @unchecked Sendable {
  // @unchecked: used by one test task at a time; `state` is only touched from it.
  var current: TallyState
  let setup: TallySetup
  var subscribers: Int { setup.observers + setup.fanout }

  required init(_ setup: TallySetup) {
    self.setup = setup
    current = setup.state
    for _ in 0..<subscribers { setup.notify(current) }
  }

  func send(_ action: TallyAction, times: Int) {
    for _ in 0..<times {
      let old = current
      tally(&current, action)
      if current != old { notify() }
    }
  }

  func notify() { for _ in 0..<subscribers { setup.notify(current) } }

  var state: TallyState { current }
  func stop() {}
}

final class LosesEveryOtherIncrement: BrokenSubject, @unchecked Sendable {
  private var sends = 0
  override func send(_ action: TallyAction, times: Int) {
    for _ in 0..<times {
      sends += 1
      if sends.isMultiple(of: 2) { super.send(action, times: 1) }
    }
  }
}

final class NotifiesTwice: BrokenSubject, @unchecked Sendable {
  override func notify() {
    super.notify()
    super.notify()
  }
}

final class NotifiesOnEveryAction: BrokenSubject, @unchecked Sendable {
  override func send(_ action: TallyAction, times: Int) {
    for _ in 0..<times {
      tally(&current, action)
      notify()
    }
  }
}

final class SkipsCurrentValue: BrokenSubject, @unchecked Sendable {
  required init(_ setup: TallySetup) {
    var silent = setup
    silent.notify = TallySink()
    super.init(silent)
    self.setupForChanges = setup
  }
  private var setupForChanges: TallySetup?
  override func notify() {
    for _ in 0..<subscribers { setupForChanges?.notify(current) }
  }
}

/// A stopwatch whose every runtime is kept forever.
private let leaked = Lock<[any AppDriver<StopwatchApp>]>([])

extension Implementation where App == StopwatchApp {
  static var leaking: Implementation {
    Implementation(architecture: "leaking") { environment in
      let driver = Implementation.baseline.makeDriver(environment)
      leaked.withLock { $0.append(driver) }
      return driver
    }
  }
}
