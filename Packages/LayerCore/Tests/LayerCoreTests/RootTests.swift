import Testing

@testable import LayerCore

@Suite struct Roots {
  /// Emits 1, 2, 3 when started, then `n` for every `n` it is sent back through `redirect`.
  struct Counting: ChildMachine {
    func process(input: Never?, callback: Handler<Int>) {
      for value in 1...3 { callback(value) }
    }
  }

  final class App: RootMachine {
    var child: Machine<Never, Int> { ~Counting() }
  }

  @Test func aRootMachinesOutputsReachTheCallbackInOrder() async {
    let outputs = Recorder<Int>()
    let subscription: Subscription = App().start { outputs.append($0) }
    #expect(outputs.all == [1, 2, 3])
    #expect(!subscription.isStopped)
    subscription.stop()
    #expect(subscription.isStopped)
  }

  @Test func releasingTheSubscriptionStopsTheWork() async {
    struct Waiting: ChildMachine {
      let handlers: Recorder<Handler<Int>>
      func process(input: Never?, callback: Handler<Int>) {
        let handlers = handlers
        callback.run(lifetime: .untilCancelled) { send in
          handlers.append(send)
          await withCheckedContinuation { (_: CheckedContinuation<Void, Never>) in }
        }
      }
    }
    struct Root: RootMachine {
      let handlers: Recorder<Handler<Int>>
      var child: Machine<Never, Int> { ~Waiting(handlers: handlers) }
    }
    let handlers = Recorder<Handler<Int>>()
    do {
      let subscription = Root(handlers: handlers).start()
      await eventually { handlers.all.count == 1 }
      #expect(handlers.all[0].isActive)
      _ = subscription
    }
    #expect(handlers.all[0].isActive == false)
  }

  final class ClassCore: Core {
    let view = ViewMachine()
    var layers: [Layer<Counter, Event>] {
      [
        .layer(view.machine, stateMapper: { $0.count }, eventMapper: { $0 }),
        .producer(StorageMachine(value: 5).machine, mapper: { .loaded($0) }),
      ]
    }
    func reduce(state: Counter?, event: Event) -> ReducerResult<Counter> {
      switch event {
      case .loaded(let count): .set(Counter(count: count))
      case .increment: state.map { .set(Counter(count: $0.count + 1)) } ?? .skip
      default: .skip
      }
    }
  }

  @Test func aClassCoreRunsFromStartUntilStopLikeTheAppDelegate() async {
    let core = ClassCore()
    core.start()
    core.view.emit(.increment)
    #expect(core.view.renders.all == [nil, 5, 6])
    core.start()  // again: the first flow stops, a second one starts
    core.view.emit(.increment)
    #expect(core.view.renders.all == [nil, 5, 6, nil, 5, 6])
    core.stop()
    core.view.emit(.increment)
    #expect(core.view.renders.all == [nil, 5, 6, nil, 5, 6])
  }
}
