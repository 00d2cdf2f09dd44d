import MUE
import Testing

// The example on the catalog's root page (MUE.docc/MUE.md), run as a test.

private struct Counter: Equatable, Sendable, SmartCopy {
  var count = 0
  var lastSaved: Int?
}

private enum CounterEvent: Sendable { case increment, reset }

private enum CounterEffect: Effect, Equatable {
  case save(Int)
  enum Result: Sendable { case saved(Int) }
}

private struct CounterUpdate: Update {
  func handle(event: CounterEvent, _ state: Counter) -> UpdateResult<Counter, CounterEffect> {
    switch event {
    case .increment:
      let next = state.copy { $0.count += 1 }
      return .dispatchEffect(state: next, effect: .save(next.count))
    case .reset:
      return .newState(state: state.copy { $0.count = 0 })
    }
  }

  func handle(result: CounterEffect.Result, _ state: Counter) -> UpdateResult<
    Counter, CounterEffect
  > {
    switch result {
    case .saved(let count): .newState(state: state.copy(\.lastSaved, count))
    }
  }
}

private struct CounterEffects: EffectHandler {
  func handle(_ effect: CounterEffect) async -> EffectResult<CounterEffect.Result> {
    switch effect {
    case .save(let count): .single(.saved(count))
    }
  }
}

@Test func theRootPageExampleRunsAsDocumented() async {
  let printed = Recorder<Counter>()
  let loop = Loop(update: CounterUpdate(), effectHandler: CounterEffects(), state: Counter())
  let subscription = loop.observe { printed.append($0) }
  loop.start()
  loop.send(.increment)
  await loop.idle()
  #expect(
    printed.all == [Counter(), Counter(count: 1), Counter(count: 1, lastSaved: 1)])
  subscription.cancel()
}
