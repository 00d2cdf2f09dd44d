import Testing

@testable import IOLoop

/// What the parent app itself is told: an intent for its embedded child or one of its rows,
/// and rows added and removed.
enum ParentIO: IOType {
  enum Input: Sendable, Equatable {
    case child(Intent)
    case row(Int, Intent)
    case add(Int)
    case remove(Int)
  }
}

/// A parent embedding one ``Tally`` program and a list of them, and telling a row's sibling
/// (row 2) about every echo row 1 gets, in the same step.
struct Parent: PureApp, Equatable {
  typealias Rows = ProgramsIO<Int, Tally>
  typealias Input = IOInput<ParentIO, ProgramIO<Tally>, Rows>
  typealias Outputs = IOOutputs<ParentIO, ProgramIO<Tally>, Rows>

  var child = Tally()
  var rows = IdentifiedList<Int, Tally>()

  static func start() -> (Parent, Outputs) { (Parent(), .none) }

  func run(input: Input) -> (Parent, Outputs) {
    var next = self
    switch input.values {
    case (.child(let intent)?, _, _):
      let (next, child) = run(\.child, Tally.Input(intent, nil))
      return (next, Outputs([], child, []))
    case (.row(let id, let intent)?, _, _):
      guard let outputs = next.rows.run(Tally.Input(intent, nil), id: id) else {
        return (self, .none)
      }
      return (next, Outputs([], [], outputs))
    case (.add(let id)?, _, _):
      next.rows.append(Tally(), id: id)
      return (next, .none)
    case (.remove(let id)?, _, _):
      next.rows.remove(id: id)
      return (next, Outputs([], [], [.removed(id)]))
    case (nil, let childInput?, _):
      let (next, child) = run(\.child, childInput)
      return (next, Outputs([], child, []))
    case (nil, nil, let rowInput?):
      guard var outputs = next.rows.run(rowInput.input, id: rowInput.id) else {
        return (self, .none)
      }
      // A row telling its sibling: row 1's echo also counts in row 2, in this step.
      if rowInput.id == 1, case (nil, .echoed?) = rowInput.input.values {
        outputs += next.rows.run(Tally.Input(.incrementQuietly, nil), id: 2) ?? []
      }
      return (next, Outputs([], [], outputs))
    default:
      return (self, .none)
    }
  }
}

typealias ParentMain = Main<
  Parent, InputOnlyHandler<ParentIO>, ProgramHandler<Tally, ViewHandler, WorkHandler>,
  ProgramsHandler<Int, Tally, ViewHandler, WorkHandler>
>

func makeParent(calls: Recorder<String>, gate: Gate = Gate()) -> ParentMain {
  Main(
    app: Parent.self, handlers: InputOnlyHandler(),
    ProgramHandler(
      Tally.self, handlers: ViewHandler(calls: calls), WorkHandler(calls: calls, gate: gate)),
    ProgramsHandler(
      Tally.self, id: Int.self, handlers: ViewHandler(calls: calls),
      WorkHandler(calls: calls, gate: gate)))
}

@Suite struct NestedPrograms {
  @Test func aNestedChildsHandlersAnswerTheChild() async {
    let calls = Recorder<String>()
    let main = makeParent(calls: calls)
    main.start()
    main.send(Parent.Input(.child(.echoBoth(1, 2)), nil, nil))
    main.send(Parent.Input(.child(.fail), nil, nil))
    await main.idle()
    #expect(main.state.child.results == [1, 2])
    #expect(main.state.child.failure == "disk full")
    #expect(calls.all == ["render(0)", "echo(1)", "echo(2)", "fail"])
  }
}
