import MUE
import Testing

/// A part of the state whose sharing an update can see: `isKnownUniquelyReferenced` tells
/// whether anyone else (the loop) still holds the state the update changes.
final class Shared: Sendable {}

struct Probe: Equatable, Sendable {
  var shared = Shared()
  var count = 0
  /// Whether the last `.probe` found `shared` held by the update alone.
  var wasUnique: Bool?

  static func == (lhs: Probe, rhs: Probe) -> Bool {
    lhs.shared === rhs.shared && lhs.count == rhs.count && lhs.wasUnique == rhs.wasUnique
  }
}

enum ProbeEvent: Sendable { case probe, increment, touch, save }

enum ProbeEffect: Effect, Equatable {
  case save(Int)
  enum Result: Sendable, Equatable { case saved(Int) }
  typealias ID = Never
  var id: Never? { nil }
}

/// Written in place.
struct InPlaceProbe: Update {
  func handle(event: ProbeEvent, changing state: inout Probe) -> InPlaceResult<ProbeEffect> {
    switch event {
    case .probe:
      state.wasUnique = isKnownUniquelyReferenced(&state.shared)
      return .changedState
    case .increment:
      state.count += 1
      return .changedState
    case .touch:
      return .noChange
    case .save:
      return .dispatchEffects(.save(state.count))
    }
  }

  func handle(result: ProbeEffect.Result, changing state: inout Probe) -> InPlaceResult<ProbeEffect>
  {
    switch result {
    case .saved(let count):
      state.count = -count
      return .changedState
    }
  }
}

/// The same, value in, value out.
struct ValueProbe: Update {
  func handle(event: ProbeEvent, _ state: Probe) -> UpdateResult<Probe, ProbeEffect> {
    var next = state
    next.wasUnique = isKnownUniquelyReferenced(&next.shared)
    return .newState(state: next)
  }

  func handle(result: ProbeEffect.Result, _ state: Probe) -> UpdateResult<Probe, ProbeEffect> {
    .noChange
  }
}

struct ProbeHandler: EffectHandler {
  func handle(_ effect: ProbeEffect) async -> EffectResult<ProbeEffect.Result> {
    switch effect {
    case .save(let count): .single(.saved(count))
    }
  }
}

/// The list of ``Row``s, written in place: the rows' own value-in, value-out update runs on
/// each row where the loop keeps it.
struct InPlaceList: Update {
  typealias State = List.State
  typealias Effect = List.Effect

  func handle(event: List.Event, changing state: inout State) -> InPlaceResult<Effect> {
    switch event {
    case .add(let id, let title):
      return state.rows.append(Row.State(title: title), id: id) ? .changedState : .noChange
    case .remove(let id):
      guard state.rows.remove(id: id) != nil else { return .noChange }
      return InPlaceResult.changedState.cancelling(.row(id, .save))
    case .row(let id, let event):
      guard
        let result = Row.Update().handle(
          event: event, changing: &state, forEach: \.rows, id: id, effect: Effect.row,
          id: Effect.ID.row)
      else { return .noChange }
      if case .rename = event, result.stateChanged { state.renames += 1 }
      return result
    }
  }

  func handle(result: Effect.Result, changing state: inout State) -> InPlaceResult<Effect> {
    switch result {
    case .row(let id, let result):
      Row.Update().handle(
        result: result, changing: &state, forEach: \.rows, id: id, effect: Effect.row,
        id: Effect.ID.row) ?? .noChange
    }
  }
}

@Suite struct UpdatingInPlace {
  /// Sends `.probe` and reads what the update found; nothing else holds the state meanwhile.
  func probe<U: Update>(_ loop: Loop<U, ProbeHandler>) async -> Bool?
  where U.State == Probe, U.Event == ProbeEvent {
    loop.send(.probe)
    await loop.idle()
    return loop.state.wasUnique
  }

  @Test func anUpdateWrittenInPlaceChangesTheLoopsOwnState() async {
    let loop = Loop(update: InPlaceProbe(), effectHandler: ProbeHandler(), state: Probe())
    loop.start()
    #expect(await probe(loop) == true)
    #expect(await probe(loop) == true)
  }

  @Test func aValueInValueOutUpdateChangesACopyTheLoopStillHolds() async {
    let loop = Loop(update: ValueProbe(), effectHandler: ProbeHandler(), state: Probe())
    loop.start()
    #expect(await probe(loop) == false)
  }

  @Test func observersHearOfEveryChangedStateAndOfNothingElse() async {
    let loop = Loop(update: InPlaceProbe(), effectHandler: ProbeHandler(), state: Probe())
    let counts = Recorder<Int>()
    loop.observe { counts.append($0.count) }
    loop.start()
    loop.send(.touch)
    loop.send(.increment)
    loop.send(.touch)
    loop.send(.increment)
    await loop.idle()
    #expect(counts.all == [0, 1, 2])
  }

  @Test func effectsStartAndTheirResultsChangeTheStateInPlace() async {
    let loop = Loop(update: InPlaceProbe(), effectHandler: ProbeHandler(), state: Probe())
    loop.start()
    loop.send(.increment)
    loop.send(.increment)
    loop.send(.save)
    await loop.idle()
    #expect(loop.state.count == -2)
  }

  @Test func theValueFormsAreMadeOfTheInPlaceOnes() {
    let update = InPlaceProbe()
    let state = Probe()
    #expect(update.handle(event: .increment, state).state?.count == 1)
    #expect(update.handle(event: .touch, state).state == nil)
    #expect(update.handle(event: .save, state).effects == [.save(0)])
    #expect(update.handle(result: .saved(3), state).state?.count == -3)
    #expect(state.count == 0)
  }

  @Test func theInPlaceFormsAreMadeOfTheValueOnes() {
    let update = Row.Update()
    var state = Row.State(title: "milk")
    let renamed = update.handle(event: .rename("rye"), changing: &state)
    #expect(renamed.stateChanged && state.title == "rye")
    // The same title again: the new state equals the old one, so nothing changed.
    #expect(!update.handle(event: .rename("rye"), changing: &state).stateChanged)
    #expect(update.handle(event: .save, changing: &state).effects == [.save("rye")])
  }

  @Test func aRowsUpdateRunsOnItsRowInPlaceWithItsEffectsLifted() async {
    let gate = Gate()
    let calls = Recorder<String>()
    let loop = Loop(
      update: InPlaceList(),
      effectHandler: List.Handler(row: Row.Handler(gate: gate, calls: calls)),
      state: List.State())
    let states = Recorder<List.State>()
    loop.observe { states.append($0) }
    loop.start()
    loop.send(.add(1, "milk"))
    loop.send(.add(2, "bread"))
    loop.send(.row(2, .rename("rye")))
    loop.send(.row(2, .rename("rye")))  // changes nothing: no observer call
    loop.send(.row(3, .rename("ghost")))  // no such row
    loop.send(.row(1, .save))
    await eventually { gate.waiting == 1 }
    gate.open()
    await loop.idle()
    #expect(calls.all == ["save milk"])
    #expect(loop.state.rows[id: 1]?.saved == ["milk"])
    #expect(loop.state.rows[id: 2]?.title == "rye")
    #expect(loop.state.renames == 1)
    #expect(states.all.count == 5)  // start, two adds, the rename, the save's result
  }

  @Test func aCancellationFromAnUpdateWrittenInPlaceDropsTheLateResult() async {
    let gate = Gate()
    let calls = Recorder<String>()
    let loop = Loop(
      update: InPlaceList(),
      effectHandler: List.Handler(row: Row.Handler(gate: gate, calls: calls)),
      state: List.State())
    loop.start()
    loop.send(.add(1, "milk"))
    loop.send(.row(1, .save))
    await eventually { gate.waiting == 1 }
    loop.send(.remove(1))
    loop.send(.add(1, "milk again"))
    gate.open()
    await loop.idle()
    #expect(calls.all == ["save milk"])
    #expect(loop.state.rows[id: 1]?.saved == [])
  }
}
