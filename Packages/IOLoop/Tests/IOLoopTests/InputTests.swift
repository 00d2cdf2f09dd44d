import IOLoop
import Testing

@Suite struct Inputs {
  @Test func sendFromAnIOTypeIsTheInputWithThatElementSet() async {
    let calls = Recorder<String>()
    let main = makeMain(calls: calls)
    main.start()
    main.send(.increment, from: ViewIO.self)
    main.send(IOInput(.increment, nil))
    main.send(.echoed(7), from: WorkIO.self)
    await main.idle()
    #expect(main.state.count == 2)
    #expect(main.state.results == [7])
    #expect(calls.all == ["render(0)", "render(1)", "render(2)"])
  }

  @Test func aSenderForAnIOTypeDeliversThenCountsWhatItCouldNot() async {
    var main: TallyMain? = makeMain()
    let intents = main!.sender(for: ViewIO.self)
    main!.start()
    #expect(intents(.increment) == .queued)
    #expect(intents(.increment) == .queued)
    await main!.idle()
    #expect(main!.state.count == 2)
    #expect(intents.droppedCount == 0)

    main!.stop()
    #expect(intents(.increment) == .dropped)
    main = nil
    #expect(!intents.isConnected)
    #expect(intents(.increment) == .dropped)
    #expect(intents.droppedCount == 2)
  }

  @Test func theFirstElementSetIsTheInput() {
    let input = IOInput<ViewIO, WorkIO>(.increment, .tick)
    let (intent, work) = input.values
    #expect(intent == .increment)
    #expect(work == nil)
    let none = IOInput<ViewIO, WorkIO>(nil, nil)
    #expect(none.values == (nil, nil))
  }

  @Test func anInputReadByItsIOTypeIsThereOnlyForTheIOTypeThatSentIt() {
    let intent = IOInput<ViewIO, WorkIO>(ViewIO.self, .increment)
    #expect(intent.value(from: ViewIO.self) == .increment)
    #expect(intent.value(from: WorkIO.self) == nil)
    let work = IOInput<ViewIO, WorkIO>(nil, .echoed(5))
    #expect(work.value(from: ViewIO.self) == nil)
    #expect(work.value(from: WorkIO.self) == .echoed(5))
    let problem = IOInput<ProblemIO, ViewIO>(ProblemIO.self, Problem(code: 9))
    #expect((problem.value(from: ProblemIO.self) as? Problem)?.code == 9)
    #expect(problem.value(from: ViewIO.self) == nil)
  }

  @Test func anInputWhoseTypeIsAnExistentialComesBackAsSent() async {
    let main = Main(app: Failures.self, handlers: ProblemHandler(), ViewHandler(calls: Recorder()))
    main.start()
    main.send(Problem(code: 3), from: ProblemIO.self)
    main.send(IOInput(Problem(code: 4), nil))
    main.send(.increment, from: ViewIO.self)
    await main.idle()
    #expect(main.state.codes == [1, 3, 4])
    #expect(main.state.count == 1)
  }

  @Test func inputsOfEveryKindComeBackAsSent() {
    // Plain values of up to 16 bytes are kept in place, every other one in a box: both come
    // back whole, and only for the IO type that sent them.
    #expect(Sized(ValueIO<Flag>.self, .off).value(from: ValueIO<Flag>.self) == .off)
    let pair = Sized(ValueIO<Pair>.self, Pair(a: -1, b: .max))
    #expect(pair.value(from: ValueIO<Pair>.self) == Pair(a: -1, b: .max))
    #expect(pair.value(from: ValueIO<Flag>.self) == nil)
    let triple = Sized(ValueIO<Triple>.self, Triple(a: 1, b: 2, c: 3))
    #expect(triple.value(from: ValueIO<Triple>.self) == Triple(a: 1, b: 2, c: 3))
    let long = String(repeating: "é", count: 40)
    let text = Sized(ValueIO<String>.self, long)
    #expect(text.value(from: ValueIO<String>.self) == long)
    #expect(text.value(from: ValueIO<Pair>.self) == nil)
    let (flag, second, third, string) = Sized(nil, Pair(a: 5, b: 6), nil, nil).values
    #expect(flag == nil && second == Pair(a: 5, b: 6) && third == nil && string == nil)
  }

  @Test func aTestsDiffShowsTheOptionalsOfAnInput() {
    let input = IOInput<ViewIO, WorkIO>(nil, .echoed(2))
    let shown = String(describing: Mirror(reflecting: input).children.first!.value)
    #expect(shown == "(nil, Optional(IOLoopTests.WorkIO.Input.echoed(2)))")
  }
}

/// An IO type whose input is `Value`.
enum ValueIO<Value: Sendable>: IOType {
  typealias Input = Value
}

/// One byte, 16 bytes and 24 bytes, all plain.
enum Flag: Sendable, Equatable { case on, off }
struct Pair: Sendable, Equatable {
  var a: Int
  var b: Int
}
struct Triple: Sendable, Equatable {
  var a: Int
  var b: Int
  var c: Int
}

typealias Sized = IOInput<ValueIO<Flag>, ValueIO<Pair>, ValueIO<Triple>, ValueIO<String>>

struct Problem: Error, Sendable {
  let code: Int
}

/// An IO type whose input is an existential: what a handler reports is any error.
enum ProblemIO: IOType {
  enum Output: Sendable { case report(Int) }
  typealias Input = any Error & Sendable
}

struct ProblemHandler: IOHandler {
  typealias IO = ProblemIO

  func handle(_ output: ProblemIO.Output, context: IOContext<ProblemIO>) {
    guard case .report(let code) = output else { return }
    context.send(Problem(code: code))
  }
}

/// Records the codes of the problems it hears of; reports one at start.
struct Failures: PureApp {
  typealias Input = IOInput<ProblemIO, ViewIO>
  typealias Outputs = IOOutputs<ProblemIO, ViewIO>

  var codes: [Int] = []
  var count = 0

  static func start() -> (Failures, Outputs) { (Failures(), Outputs([.report(1)], [])) }

  func run(input: Input) -> (Failures, Outputs) {
    var next = self
    switch input.values {
    case (let problem?, _): next.codes.append((problem as? Problem)?.code ?? -1)
    case (nil, .increment?): next.count += 1
    default: break
    }
    return (next, .none)
  }
}
