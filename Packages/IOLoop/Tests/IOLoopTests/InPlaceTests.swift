import Testing

@testable import IOLoop

/// A part of the state whose sharing a step can see: `isKnownUniquelyReferenced` tells whether
/// anyone else (the program) still holds the state the step changes.
final class Shared: Sendable {}

enum ProbeIO: IOType {
  typealias Output = Never
  enum Input: Sendable { case probe, increment }
}

/// Written in place.
struct InPlaceProbe: PureApp {
  typealias Input = IOInput<ProbeIO>
  typealias Outputs = IOOutputs<ProbeIO>

  var shared = Shared()
  var count = 0
  var wasUnique: Bool?

  static func start() -> (InPlaceProbe, Outputs) { (InPlaceProbe(), .none) }

  mutating func run(inPlace input: Input) -> Outputs {
    switch input.values {
    case .probe?: wasUnique = isKnownUniquelyReferenced(&shared)
    case .increment?: count += 1
    case nil: break
    }
    return .none
  }
}

/// The same, value in, value out.
struct ValueProbe: PureApp {
  typealias Input = IOInput<ProbeIO>
  typealias Outputs = IOOutputs<ProbeIO>

  var shared = Shared()
  var wasUnique: Bool?

  static func start() -> (ValueProbe, Outputs) { (ValueProbe(), .none) }

  func run(input: Input) -> (ValueProbe, Outputs) {
    var next = self
    next.wasUnique = isKnownUniquelyReferenced(&next.shared)
    return (next, .none)
  }
}

/// A parent written in place, running a ``Tally`` at a path and a list of them.
struct InPlaceParent: PureApp {
  typealias Rows = ProgramsIO<Int, Tally>
  typealias Input = IOInput<ParentIO, ProgramIO<Tally>, Rows>
  typealias Outputs = IOOutputs<ParentIO, ProgramIO<Tally>, Rows>

  var child = Tally()
  var rows = IdentifiedList<Int, Tally>()

  static func start() -> (InPlaceParent, Outputs) { (InPlaceParent(), .none) }

  mutating func run(inPlace input: Input) -> Outputs {
    switch input.values {
    case (.child(let intent)?, _, _):
      return Outputs([], run(\.child, inPlace: Tally.Input(intent, nil)), [])
    case (.row(let id, let intent)?, _, _):
      return Outputs([], [], rows.run(Tally.Input(intent, nil), id: id) ?? [])
    case (.add(let id)?, _, _):
      rows.append(Tally(), id: id)
      return .none
    case (.remove(let id)?, _, _):
      rows.remove(id: id)
      return Outputs([], [], [.removed(id)])
    case (nil, let childInput?, _):
      return Outputs([], run(\.child, inPlace: childInput), [])
    case (nil, nil, let rowInput?):
      return Outputs([], [], rows.run(rowInput.input, id: rowInput.id) ?? [])
    default:
      return .none
    }
  }
}

@Suite struct RunningInPlace {
  @Test func aStepWrittenInPlaceChangesTheProgramsOwnState() async {
    let main = Main(app: InPlaceProbe.self, handlers: InputOnlyHandler<ProbeIO>())
    main.start()
    for _ in 0..<2 {
      main.send(.probe, from: ProbeIO.self)
      await main.idle()
      #expect(main.state.wasUnique == true)
    }
  }

  @Test func aValueInValueOutStepChangesACopyTheProgramStillHolds() async {
    let main = Main(app: ValueProbe.self, handlers: InputOnlyHandler<ProbeIO>())
    main.start()
    main.send(.probe, from: ProbeIO.self)
    await main.idle()
    #expect(main.state.wasUnique == false)
  }

  @Test func eachFormIsMadeOfTheOther() {
    let (next, _) = InPlaceProbe().run(input: IOInput(.increment))
    #expect(next.count == 1)
    var tally = Tally()
    let outputs = tally.run(inPlace: Tally.Input(.increment, nil))
    #expect(tally.count == 1)
    #expect(!outputs.isEmpty)
    #expect(tally.run(inPlace: Tally.Input(.touch, nil)).isEmpty && tally.count == 1)
  }

  @Test func childrenRunInPlaceWithTheirHandlersAndTheirWorkScoped() async {
    let calls = Recorder<String>()
    let gate = Gate()
    let main = Main(
      app: InPlaceParent.self, handlers: InputOnlyHandler<ParentIO>(),
      ProgramHandler(
        Tally.self, handlers: ViewHandler(calls: calls), WorkHandler(calls: calls, gate: gate)),
      ProgramsHandler(
        Tally.self, id: Int.self, handlers: ViewHandler(calls: calls),
        WorkHandler(calls: calls, gate: gate)))
    main.start()
    main.send(InPlaceParent.Input(.child(.echoBoth(1, 2)), nil, nil))
    main.send(InPlaceParent.Input(.add(1), nil, nil))
    main.send(InPlaceParent.Input(.row(1, .increment), nil, nil))
    main.send(InPlaceParent.Input(.row(1, .wait(5)), nil, nil))
    main.send(InPlaceParent.Input(.row(9, .increment), nil, nil))  // no such row
    await eventually { gate.waiting == 1 }
    main.send(InPlaceParent.Input(.remove(1), nil, nil))  // its waiting work goes with it
    gate.open()
    await main.idle()
    #expect(main.state.child.results == [1, 2])
    #expect(main.state.rows.isEmpty)
    #expect(
      calls.all == ["render(0)", "echo(1)", "echo(2)", "render(1)", "wait(5)", "cancelled 5"])
  }
}
