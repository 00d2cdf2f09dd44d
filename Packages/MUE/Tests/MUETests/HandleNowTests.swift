import Testing

@testable import MUE

/// A loop whose notes are written at once, on the loop (`handleNow`), and whose waits are
/// tasks on a gate.
private enum NoteEvent: Sendable {
  case note(String, then: String?)
  case wait(Int)
  case quiet  // a note under the wait's id: it supersedes the wait
}

private enum NoteEffect: Effect, Equatable {
  case note(String)
  case wait(Int)
  case quiet

  enum Result: Sendable, Equatable { case waited(Int) }
  enum ID: Hashable, Sendable { case wait }

  var id: ID? {
    switch self {
    case .note: nil
    case .wait, .quiet: .wait
    }
  }
}

private struct NoteUpdate: Update {
  func handle(event: NoteEvent, _ state: [String]) -> UpdateResult<[String], NoteEffect> {
    switch event {
    case .note(let first, let second):
      .dispatchEffects(
        state: state + ["update \(first)"],
        effects: [.note(first)] + (second.map { [.note($0)] } ?? []))
    case .wait(let value): .dispatchEffects(.wait(value))
    case .quiet: .dispatchEffects(.quiet)
    }
  }

  func handle(result: NoteEffect.Result, _ state: [String]) -> UpdateResult<[String], NoteEffect> {
    guard case .waited(let value) = result else { return .noChange }
    return .newState(state: state + ["waited \(value)"])
  }
}

private struct NoteEffects: EffectHandler {
  let gate = Gate()
  let written = Recorder<String>()

  func handle(_ effect: NoteEffect) async -> EffectResult<NoteEffect.Result> {
    guard case .wait(let value) = effect else {
      Issue.record("\(effect) went to a task")
      return .empty
    }
    await gate.wait()
    return .single(.waited(value))
  }

  func handleNow(_ effect: NoteEffect) -> Bool {
    switch effect {
    case .note(let text): written.append(text)
    case .quiet: written.append("quiet")
    case .wait: return false
    }
    return true
  }
}

@Suite(.timeLimit(.minutes(1))) struct HandleNow {
  private func makeLoop() -> (Loop<NoteUpdate, NoteEffects>, NoteEffects) {
    let effects = NoteEffects()
    let loop = Loop(update: NoteUpdate(), effectHandler: effects, state: [])
    loop.start()
    return (loop, effects)
  }

  @Test func effectsHandledNowRunInTheUpdatesOrderBeforeSendReturns() async {
    let (loop, effects) = makeLoop()
    loop.send(.note("a", then: "b"))
    loop.send(.note("c", then: nil))
    // No task: written while the sender handled the events.
    #expect(effects.written.all == ["a", "b", "c"])
    await loop.idle()
    #expect(loop.state == ["update a", "update c"])
    loop.stop()
  }

  @Test func nothingIsHandledNowOnceTheLoopStopped() {
    let (loop, effects) = makeLoop()
    loop.send(.note("before", then: nil))
    loop.stop()
    loop.send(.note("after", then: nil))
    #expect(effects.written.all == ["before"])
  }

  @Test func anEffectHandledNowSupersedesTheRunUnderItsID() async {
    let (loop, effects) = makeLoop()
    loop.send(.wait(1))
    await eventually { effects.gate.waiting == 1 }
    loop.send(.quiet)
    effects.gate.open()
    await loop.idle()
    // The wait's late result is dropped: the quiet note took its id.
    #expect(loop.state.isEmpty)
    #expect(effects.written.all == ["quiet"])
    loop.send(.wait(2))
    await loop.idle()
    #expect(loop.state == ["waited 2"])
    loop.stop()
  }
}
