import Comonadic
import Testing

// The example on the catalog's root page (Comonadic.docc/Comonadic.md), run as a test; `print`
// is replaced by a recorder.

private enum Example {
  static let printed = Recorder<String>()
  static func print(_ line: String) { printed.append(line) }

  struct Stepper: Equatable, Sendable {
    var count = 0
    var saved: [Int] = []
  }

  enum StepperInput: Sendable {
    case tapDecrement
    case tapIncrement
    case save
  }

  // What effects work with: here, a place to save to.
  struct Disk: Sendable {
    let write: @Sendable (Int) async throws -> Void
  }

  static let dispatcher = StateDispatcher<Disk, Stepper, StepperInput>.workflow { input in
    switch input {
    case .tapDecrement:
      [.action(.modify { Stepper(count: $0.count - 1, saved: $0.saved) })]
    case .tapIncrement:
      [.action(.mutate { $0.count += 1 })]
    case .save:
      [
        .task(id: "save") { disk, stepper in
          try await disk.write(stepper.count)
          return .mutate { $0.saved.append(stepper.count) }
        } catch: { _ in
          .none
        }
      ]
    }
  }

  static func run() async -> Stepper {
    let stepper = StoreComponent(
      initialState: Stepper(), environment: Disk(write: { print("wrote \($0)") }),
      dispatcher: dispatcher,
      render: { state, handle in "[-] \(state.count) [+]" })

    stepper.subscribe { view in print(view) }  // prints [-] 0 [+]
    stepper.send(.tapIncrement)  // prints [-] 1 [+]
    stepper.send(.tapIncrement)  // prints [-] 2 [+]
    stepper.send(.save)
    await stepper.idle()  // prints wrote 2; the view stays [-] 2 [+], so nothing more
    let state = stepper.state
    stepper.stop()
    return state
  }
}

@Suite struct DocumentationExample {
  @Test func theRootPageExamplePrintsWhatItSays() async {
    let state = await Example.run()
    #expect(
      Example.printed.all == ["[-] 0 [+]", "[-] 1 [+]", "[-] 2 [+]", "wrote 2"])
    #expect(state == Example.Stepper(count: 2, saved: [2]))
  }
}
