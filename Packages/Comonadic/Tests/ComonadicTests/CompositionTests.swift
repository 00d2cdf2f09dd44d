import Comonadic
import Testing

enum StepperInput: Equatable, Sendable {
  case tapDecrement
  case tapIncrement
}

let stepper = StateDispatcher<Int, Int, StepperInput>.workflow { input in
  switch input {
  case .tapDecrement: [.action(.modify { $0 - 1 })]
  case .tapIncrement: [.task { step, _ in .modify { $0 + step } }]
  }
}

struct Screen: Equatable, Sendable {
  var left = 0
  var right = 0
  var log: [String] = []
}

enum ScreenInput: Equatable, Sendable {
  case left(StepperInput)
  case right(StepperInput)
  case note(String)
}

struct Settings: Sendable {
  var leftStep: Int
  var rightStep: Int
}

@Suite struct Composition {
  @Test func widenedDispatchersRunOnTheirPartOfTheState() async {
    let left = stepper.widen(
      transformEnvironment: { (settings: Settings) in settings.leftStep },
      transformState: \Screen.left,
      transformInput: { (input: ScreenInput) in
        if case .left(let step) = input { step } else { nil }
      })
    let right = stepper.widen(
      transformEnvironment: { (settings: Settings) in settings.rightStep },
      transformState: \Screen.right,
      transformInput: { (input: ScreenInput) in
        if case .right(let step) = input { step } else { nil }
      })
    let screen = StoreComponent(
      initialState: Screen(), environment: Settings(leftStep: 1, rightStep: 10),
      dispatcher: left.combine(right), render: { state, _ in state })
    screen.send(.left(.tapIncrement))
    screen.send(.right(.tapIncrement))
    screen.send(.right(.tapDecrement))
    screen.send(.note("ignored by both"))
    await screen.idle()
    #expect(screen.state == Screen(left: 1, right: 9))
  }

  @Test func combinedDispatchersBothSeeEveryInputInOrder() async {
    let log = StateDispatcher<Void, Screen, ScreenInput>.pure { input in
      let name =
        switch input {
        case .left: "left"
        case .right: "right"
        case .note(let text): text
        }
      return .mutate { $0.log.append(name) }
    }
    let count = StateDispatcher<Void, Screen, ScreenInput>.pure { input in
      guard case .left = input else { return .none }
      return .mutate {
        $0.left += 1
        $0.log.append("count")
      }
    }
    let screen = StoreComponent(
      initialState: Screen(), environment: (), dispatcher: count.combine(log),
      render: { state, _ in state })
    screen.send(.left(.tapIncrement))
    screen.send(.note("x"))
    #expect(screen.state.log == ["count", "left", "x"])
    #expect(screen.state.left == 1)
  }

  @Test func contramapTranslatesInputs() {
    let taps = StateDispatcher<Void, Int, StepperInput>.pure { input in
      input == .tapIncrement ? .modify { $0 + 1 } : .modify { $0 - 1 }
    }
    let fromBool = taps.contramap { (up: Bool) in up ? StepperInput.tapIncrement : .tapDecrement }
    let component = StoreComponent(
      initialState: 0, environment: (), dispatcher: fromBool, render: { count, _ in count })
    component.send(true)
    component.send(true)
    component.send(false)
    #expect(component.state == 1)
  }

  @Test func aChildForwardsItsInputsToItsParent() async {
    let left = stepper.widen(
      transformEnvironment: { (settings: Settings) in settings.leftStep },
      transformState: \Screen.left,
      transformInput: { (input: ScreenInput) in
        if case .left(let step) = input { step } else { nil }
      })
    let screen = StoreComponent(
      initialState: Screen(), environment: Settings(leftStep: 2, rightStep: 0),
      dispatcher: left, render: { state, _ in state })
    let child = screen.child(state: \.left, input: ScreenInput.left) { count, handle in
      (count, handle)
    }
    let views = Recorder<Int>()
    child.subscribe { views.append($0.0) }
    child.send(.tapIncrement)
    await screen.idle()
    child.view.1(.tapDecrement)
    #expect(child.state == 1)
    #expect(screen.state.left == 1)
    #expect(views.all == [0, 2, 1])
  }

  @Test func aMooreComponentFeedsItsMachineTheInputsItsDispatcherSelects() async {
    let machine = Moore<Int, [Int]>(state: [], reduce: { $0 + [$1] }, render: { $0 })
    let component = MooreComponent(
      machine: machine, environment: (),
      dispatcher: InputsDispatcher<Void, Int, [Int], StepperInput>.workflow { input in
        switch input {
        case .tapIncrement: [.action(Inputs(1, 2))]
        case .tapDecrement:
          [.task { _, seen in Inputs(-seen.count) }]
        }
      },
      render: { value, _ in value.reduce(0, +) })
    let views = Recorder<Int>()
    component.subscribe { views.append($0) }
    component.send(.tapIncrement)
    component.send(.tapDecrement)
    await component.idle()
    #expect(component.value == [1, 2, -2])
    #expect(views.all == [0, 3, 1])
  }
}
