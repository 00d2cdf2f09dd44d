import ArchitectureSpec
import Synchronization

/// The synchronous workloads, on each contestant's ``TallySubject``.
enum TallyWorkloads {
  static let all: [Workload] =
    [dispatch]
    + [1, 100].map(observe)
    + [render]
    + [10, 1_000, 100_000].map(stateSize)
    + [1, 10, 100].map(fanout)

  /// Counter increments on the synchronous path, no observer.
  static let dispatch = tallyWorkload("dispatch", operations: 1_000_000) { subject, count in
    TallyRun { subject.send(.increment, times: count) }
  }

  /// Increments with `observers` observers; each change must notify each observer once, and an
  /// action that changes nothing must notify none.
  static func observe(_ observers: Int) -> Workload {
    tallyWorkload(
      "observe.\(observers)", operations: 1_000_000 / observers, observers: observers,
      expectedNotifications: observers
    ) { subject, count in
      TallyRun { subject.send(.increment, times: count) }
    }
  }

  /// An increment, then the counter's view built from the state, per operation.
  static let render = tallyWorkload("render", operations: 1_000_000) { subject, count in
    let rendered = Atomic(0)
    return TallyRun(
      run: {
        // Sums the views' sizes so building them cannot be optimized away.
        var total = 0
        for _ in 0..<count {
          subject.send(.increment, times: 1)
          total &+= renderedSize(CounterView.ready(count: subject.state.count))
        }
        rendered.store(total, ordering: .relaxed)
      },
      check: { () throws(WorkloadFailure) in
        let expected = (0..<count).reduce(0) { $0 + renderedSize(CounterView.ready(count: $1 + 1)) }
        let actual = rendered.load(ordering: .relaxed)
        guard actual == expected else {
          throw WorkloadFailure("render: the views built add up to \(actual), not \(expected)")
        }
      })
  }

  private static func renderedSize(_ view: CounterView) -> Int {
    view.text.utf8.count &+ (view.canReset ? 1 : 0)
  }

  /// Increments with `elements` elements in the state; the cost must not grow with them.
  static func stateSize(_ elements: Int) -> Workload {
    tallyWorkload(
      "state.size.\(elements)", operations: 1_000_000, payload: Array(0..<elements)
    ) { subject, count in
      TallyRun { subject.send(.increment, times: count) }
    }
  }

  /// Increments with the contestant's fan-out dimension `width` wide.
  static func fanout(_ width: Int) -> Workload {
    tallyWorkload("fanout.\(width)", operations: 1_000_000 / width, fanout: width) {
      subject, count in
      TallyRun { subject.send(.increment, times: count) }
    }
  }

  /// The operations of one trial, and an optional check of what only they know.
  struct TallyRun {
    var run: @Sendable () -> Void
    var check: @Sendable () throws(WorkloadFailure) -> Void = {}

    init(
      run: @escaping @Sendable () -> Void,
      check: @escaping @Sendable () throws(WorkloadFailure) -> Void = {}
    ) {
      self.run = run
      self.check = check
    }
  }

  /// A workload on a fresh subject: `body` returns the operations to time; the check afterwards
  /// asserts the count, the untouched payload, and the notifications.
  private static func tallyWorkload(
    _ name: String, operations: Int, payload: [Int] = [], observers: Int = 0, fanout: Int = 0,
    expectedNotifications: Int? = nil,
    body: @escaping @Sendable (any TallySubject, Int) -> TallyRun
  ) -> Workload {
    Workload(
      name: name, app: CounterApp.name, operation: "intent", operations: operations,
      runsTally: true
    ) {
      contestant, count in
      guard let subjectType = contestant.tally else { return nil }
      let setup = TallySetup(
        state: TallyState(payload: payload), observers: observers, fanout: fanout)
      let notifications = setup.notify
      let subject = subjectType.init(setup)
      let fansOutToObservers = subjectType.fanout == .observers
      let subscribed = observers + (fansOutToObservers ? fanout : 0)
      let onSubscribe = notifications.notifications
      let perChange = expectedNotifications ?? (fansOutToObservers ? fanout : nil)
      let trial = body(subject, count)
      return Trial(run: trial.run) { () throws(WorkloadFailure) -> Outcome in
        defer { subject.stop() }
        let state = subject.state
        guard state.count == count else {
          throw WorkloadFailure("\(name): \(count) increments left the count at \(state.count)")
        }
        guard state.payload == payload else {
          throw WorkloadFailure("\(name): the payload changed")
        }
        guard onSubscribe == subscribed else {
          throw WorkloadFailure(
            "\(name): subscribing \(subscribed) observer(s) delivered \(onSubscribe) "
              + "current value(s); expected one each")
        }
        let caused = notifications.notifications - onSubscribe
        if let perChange, caused != perChange * count {
          throw WorkloadFailure(
            "\(name): \(count) changes with \(perChange) observer(s) notified \(caused) time(s); "
              + "expected \(perChange * count)")
        }
        try trial.check()
        subject.send(.touch, times: 10)
        let afterTouch = notifications.notifications - onSubscribe
        guard afterTouch == caused else {
          throw WorkloadFailure(
            "\(name): actions that change nothing notified \(afterTouch - caused) time(s)")
        }
        return Outcome(operations: count, notifications: caused)
      }
    }
  }
}
