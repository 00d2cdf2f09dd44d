import IOLoop
import IOLoopTesting
import Synchronization
import Testing

/// Work that waits until the test opens its gate, noting each start and each cancellation.
enum HeldIO: IOType {
  enum Output: Sendable, Equatable { case work(String) }
  enum Input: Sendable, Equatable { case done(String) }
}

final class HeldLog: Sendable {
  private let entries = Lock<[String]>([])
  func append(_ entry: String) { entries.withLock { $0.append(entry) } }
  var all: [String] { entries.withLock { $0 } }
  var cancelled: [String] { all.filter { $0.hasPrefix("cancelled") } }
}

struct HeldHandler: IOHandler {
  typealias IO = HeldIO
  let gate: Gate
  let log: HeldLog
  /// Whether the work answers after it was cancelled (a service that ignores cancellation).
  var answersWhenCancelled = false

  func handle(_ output: HeldIO.Output, context: IOContext<HeldIO>) {
    guard case .work(let name) = output else { return }
    let (gate, log, stubborn) = (gate, log, answersWhenCancelled)
    log.append(name)
    context.run { send in
      await withTaskCancellationHandler {
        await gate.wait()
      } onCancel: {
        log.append("cancelled \(name)")
      }
      if Task.isCancelled && !stubborn { return }
      send(.done(name))
    }
  }
}

/// A child program: `go` starts work, its answer marks it done.
struct Sheet: PureApp, Equatable {
  typealias Input = IOInput<HeldIO>
  typealias Outputs = IOOutputs<HeldIO>
  var name = "sheet"
  var done = false

  static func start() -> (Sheet, Outputs) { (Sheet(), .none) }

  func working() -> (Sheet, Outputs) { (self, Outputs([.work(name)])) }

  mutating func run(inPlace input: Input) -> Outputs {
    let answer: HeldIO.Input? = input.values
    guard answer != nil else { return .none }
    done = true
    return .none
  }
}

enum NavIntent: Sendable, Equatable { case present, dismiss, leak, push, pop, popToRoot }

enum NavIntentIO: IOType { typealias Input = NavIntent }

/// A parent with a presented sheet and a stack of sheets, each of which works when it arrives.
struct NavApp: PureApp, Equatable {
  typealias Input = IOInput<NavIntentIO, Presentation<Sheet>.IO, ProgramsIO<Int, Sheet>>
  typealias Outputs = IOOutputs<NavIntentIO, Presentation<Sheet>.IO, ProgramsIO<Int, Sheet>>
  var sheet = Presentation<Sheet>()
  var stack = IdentifiedList<Int, Sheet>()
  var next = 1

  static func start() -> (NavApp, Outputs) { (NavApp(), .none) }

  mutating func run(inPlace input: Input) -> Outputs {
    switch input.values {
    case (let intent?, _, _):
      switch intent {
      case .present:
        let (child, outputs) = Sheet(name: "sheet \(sheet.number + 1)").working()
        return Outputs([], sheet.present(child, outputs), [])
      case .dismiss:
        return Outputs([], sheet.dismiss(), [])
      case .leak:
        _ = sheet.dismiss()  // the output that ends its work is dropped: a defect
        return .none
      case .push:
        let (child, outputs) = Sheet(name: "screen \(next)").working()
        defer { next += 1 }
        return Outputs([], [], stack.present(child, id: next, outputs))
      case .pop:
        guard let top = stack.ids.last else { return .none }
        return Outputs([], [], stack.dismiss(id: top))
      case .popToRoot:
        return Outputs([], [], stack.dismissAll())
      }
    case (_, let sheetInput?, _):
      return Outputs([], sheet.run(sheetInput) ?? [], [])
    case (_, _, let screenInput?):
      return Outputs([], [], stack.run(screenInput.input, id: screenInput.id) ?? [])
    default:
      return .none
    }
  }
}

func makeNavMain(_ gate: Gate, _ log: HeldLog, stubborn: Bool = false) -> Main<
  NavApp, InputOnlyHandler<NavIntentIO>, ProgramsHandler<Int, Sheet, HeldHandler>,
  ProgramsHandler<Int, Sheet, HeldHandler>
> {
  let handler = HeldHandler(gate: gate, log: log, answersWhenCancelled: stubborn)
  return Main(
    app: NavApp.self, handlers: InputOnlyHandler(),
    ProgramsHandler(Sheet.self, id: Int.self, handlers: handler),
    ProgramsHandler(Sheet.self, id: Int.self, handlers: handler))
}

@Suite struct Navigation {
  @Test func aPresentationIsNumberedAndDropsAnOldPresentationsInputs() {
    var sheet = Presentation<Sheet>()
    #expect(sheet.dismiss().isEmpty)
    #expect(sheet.run(presented: IOInput(.done("x"))) == nil)
    let first = sheet.present(Sheet(), Sheet.Outputs([.work("a")]))
    #expect(first.count == 1)
    #expect(sheet.number == 1)
    let replaced = sheet.present(Sheet(), .none)
    guard case .removed(1)? = replaced.first else {
      Issue.record("presenting over a child must end the old one's work: \(replaced)")
      return
    }
    // An answer of presentation 1's work reaches nobody.
    #expect(sheet.run(ProgramsIO<Int, Sheet>.Input(id: 1, input: IOInput(.done("a")))) == nil)
    #expect(sheet.child?.done == false)
    #expect(
      sheet.run(ProgramsIO<Int, Sheet>.Input(id: 2, input: IOInput(.done("b"))))?.isEmpty == true)
    #expect(sheet.child?.done == true)
  }

  @Test func theStepperChecksThatADismissalEndsTheChildsWork() {
    var app = Stepper(from: NavApp())
    app.step(NavApp.Input(.present, nil, nil))
    app.step(NavApp.Input(.dismiss, nil, nil), dismissing: \.sheet)
    app.step(NavApp.Input(.push, nil, nil))
    app.step(NavApp.Input(.push, nil, nil))
    app.step(NavApp.Input(.popToRoot, nil, nil), dismissing: [1, 2], from: \.stack)
  }

  @Test func theStepperFailsWhenADismissalDropsTheOutputThatEndsTheWork() {
    var app = Stepper(from: NavApp())
    app.step(NavApp.Input(.present, nil, nil))
    withKnownIssue {
      app.step(NavApp.Input(.leak, nil, nil), dismissing: \.sheet)
    } matching: { issue in
      issue.comments.contains { "\($0)".contains("no output ends presentation 1's work") }
    }
  }

  @Test func dismissingEndsThePresentedProgramsWork() async {
    let (gate, log) = (Gate(), HeldLog())
    let main = makeNavMain(gate, log)
    main.start()
    main.send(.present, from: NavIntentIO.self)
    await eventually { gate.waiting == 1 }
    main.send(.dismiss, from: NavIntentIO.self)
    await eventually { log.cancelled == ["cancelled sheet 1"] }
    main.stop()
  }

  @Test func aLateAnswerOfADismissedPresentationNeverReachesTheNextOne() async {
    let (gate, log) = (Gate(), HeldLog())
    let main = makeNavMain(gate, log, stubborn: true)
    main.start()
    main.send(.present, from: NavIntentIO.self)
    await eventually { gate.waiting == 1 }
    main.send(.dismiss, from: NavIntentIO.self)
    main.send(.present, from: NavIntentIO.self)
    await eventually { gate.waiting == 2 }
    gate.open()  // both answer; the first one's answer is from a dismissed presentation
    await main.idle()
    #expect(main.state.sheet.number == 2)
    #expect(main.state.sheet.child?.done == true)
    #expect(log.cancelled == ["cancelled sheet 1"])
    main.stop()
  }

  @Test func poppingEndsOnlyThePoppedScreensWork() async {
    let (gate, log) = (Gate(), HeldLog())
    let main = makeNavMain(gate, log)
    main.start()
    for _ in 1...3 { main.send(.push, from: NavIntentIO.self) }
    await eventually { gate.waiting == 3 }
    main.send(.pop, from: NavIntentIO.self)
    await eventually { log.cancelled == ["cancelled screen 3"] }
    main.send(.popToRoot, from: NavIntentIO.self)
    await eventually { log.cancelled.count == 3 }
    #expect(
      Set(log.cancelled) == ["cancelled screen 1", "cancelled screen 2", "cancelled screen 3"])
    main.stop()
  }
}

#if canImport(Observation)
  import Observation

  @MainActor @Suite struct NavigationObservation {
    @Test func aPresentedProgramIsAnObjectOrNilAndItsChangesTouchOnlyIt() async {
      let (gate, log) = (Gate(), HeldLog())
      let model = ObservableMain(makeNavMain(gate, log))
      let sheet = model.presented(\.sheet)
      #expect(sheet.child == nil)
      model.send(NavApp.Input(.present, nil, nil))
      await model.settled()
      let first = try! #require(sheet.child)
      let (presence, fields) = (Fired(), Fired())
      withObservationTracking {
        _ = sheet.child
      } onChange: {
        presence.set()
      }
      withObservationTracking {
        _ = first.value
      } onChange: {
        fields.set()
      }
      gate.open()
      while model.state.sheet.child?.done != true { await Task.yield() }
      await model.settled()
      #expect(!presence.isSet)
      #expect(fields.isSet)
      let replaced = Fired()
      withObservationTracking {
        _ = sheet.child
      } onChange: {
        replaced.set()
      }
      model.send(NavApp.Input(.dismiss, nil, nil))
      model.send(NavApp.Input(.present, nil, nil))
      await model.settled()
      #expect(replaced.isSet)
      #expect(sheet.child !== first)
      _ = log
    }
  }
#endif
