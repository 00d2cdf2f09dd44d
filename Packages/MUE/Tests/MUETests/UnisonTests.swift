import MUE
import Testing

/// What Unison users rely on: `first` applied at construction, its spellings, and the stop and
/// restart story.
@Suite struct FromUnison {
  struct Doubling: MUE.Update {
    func first(state: Tally) -> First<Tally, TallyEffect> {
      .initialEffect(state: state.copy { $0.count *= 2 }, effect: .echo(7))
    }
    func handle(event: TallyEvent, _ state: Tally) -> UpdateResult<Tally, TallyEffect> {
      TallyUpdate().handle(event: event, state)
    }
    func handle(result: TallyEffect.Result, _ state: Tally) -> UpdateResult<Tally, TallyEffect> {
      TallyUpdate().handle(result: result, state)
    }
  }

  @Test func anObserverAddedBeforeStartSeesFirstsStateFirst() async {
    let loop = Loop(update: Doubling(), effectHandler: TallyEffects(), state: Tally(count: 2))
    let seen = Recorder<Tally>()
    loop.observe { seen.append($0) }
    #expect(seen.all == [Tally(count: 4)])  // never the given 2
    #expect(loop.state == Tally(count: 4))
    loop.start()  // only the effects now
    await loop.idle()
    #expect(seen.all == [Tally(count: 4), Tally(count: 4, results: [7])])
  }

  @Test func firstHasUnisonsSpellings() {
    let plain = First<Tally, TallyEffect>.initialState(state: Tally(count: 1))
    #expect(plain.initialState == Tally(count: 1) && plain.initialEffects.isEmpty)
    let withEffect = First<Tally, TallyEffect>.initialEffect(state: Tally(), effect: .timer)
    #expect(withEffect.initialEffects == [.timer])
  }

  @Test func aStoppedLoopStaysStoppedAndARestartedOneGoesOn() async {
    let loop = makeLoop()
    loop.start()
    loop.send(.increment)
    await loop.idle()
    loop.stop()
    loop.start()
    loop.send(.increment)
    #expect(loop.state.count == 1)  // stop is final

    let again = loop.restarted()
    #expect(again.state.count == 1 && !again.isStarted)
    again.start()
    again.send(.increment)
    await again.idle()
    #expect(again.state.count == 2)
    again.stop()
  }

  @Test func aViewHoldingTheHandlerDoesNotKeepTheLoopAlive() {
    weak var released: TallyLoop?
    var handler: (@Sendable (TallyEvent) -> Void)?
    do {
      let loop = makeLoop()
      released = loop
      loop.start()
      handler = loop.handler
    }
    #expect(released == nil)
    handler?(.increment)  // a late tap on a view of a gone loop is dropped
  }

  @Test func resultValueIsTheStateItLeaves() {
    let unchanged = UpdateResult<Tally, TallyEffect>.noChange
    #expect(unchanged.value(from: Tally(count: 3)) == Tally(count: 3))
    let changed = UpdateResult<Tally, TallyEffect>.newState(state: Tally(count: 4))
    #expect(changed.value(from: Tally(count: 3)) == Tally(count: 4))
  }
}
